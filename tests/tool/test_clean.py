"""``dojo clean``: old attempt folders go, personal bests and the open interview stay.

The fake clock puts "now" at 1_800_000_000 (clock 0); folder ages are set with os.utime. No
judge runs here, so every test is quick.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import time
import uuid

import pytest

from dojo.state import history

NOW = 1_800_000_000
DAY = 86400


def make_folder(box, name: str, age_days: float, newest_file_days: float | None = None) -> str:
    """An attempt folder holding <kata>.py and final/<kata>.py, 100 bytes each, every part of it
    last changed ``age_days`` ago (one file ``newest_file_days`` ago, when given)."""
    path = box.state / "attempts" / name
    (path / "final").mkdir(parents=True)
    kata = name.split("-", 2)[2]
    for f in (path / f"{kata}.py", path / "final" / f"{kata}.py"):
        f.write_text("x" * 100)
    old = NOW - age_days * DAY
    for p in (path / f"{kata}.py", path / "final" / f"{kata}.py", path / "final", path):
        os.utime(p, (old, old))
    if newest_file_days is not None:
        t = NOW - newest_file_days * DAY
        os.utime(path / "final" / f"{kata}.py", (t, t))
    return f"attempts/{name}"


def record(kata, folder, outcome="passed", used=300.0, score=100, **more) -> dict:
    return {"v": 1, "id": folder.split("/")[1], "kata": kata, "outcome": outcome, "used_s": used, "score": score,
            "hints": 0, "attempted": True, "ended_at": NOW - 40 * DAY, "attempt": folder, **more}


def session(folder: str, loop_stages: tuple[str, ...] = ()) -> dict:
    """interview.json as an open interview on rope writes it (a loop when it has stages)."""
    current = {"id": folder.split("/")[1], "kata": "rope", "folder": folder, "limit_s": 1200.0,
               "started_at": NOW, "elapsed_s": 10.0, "tick_wall": NOW}
    data = {"version": 1, "queue": [{"kata": "rope", "limit_s": 1200.0}], "index": 0, "coach": False,
            "watch": True, "current": current}
    if loop_stages:
        data["queue"] = [{"kata": "softmax", "limit_s": 2700.0}] * len(loop_stages) + [{"kata": "rope", "limit_s": 2700.0}]
        data["index"] = len(loop_stages)
        data["loop"] = {"id": "x-loop", "started_at": NOW, "limit_s": 2700.0,
                        "stages": [record("softmax", s) for s in loop_stages]}
    return data


@pytest.fixture
def attic(sandbox, tmp_path):
    """A state folder with attempt folders of every kind (see the names) and the history that
    makes some of them personal bests."""
    box = sandbox
    (box.state / "attempts").mkdir(parents=True)
    f = {
        "worse": make_folder(box, "20261201-080000-softmax", 40),
        "best_score": make_folder(box, "20261202-080000-softmax", 40),
        "fastest": make_folder(box, "20261203-080000-softmax", 40),
        "young": make_folder(box, "20270110-080000-softmax", 5),
        "open": make_folder(box, "20261204-080000-rope", 40),
        "touched": make_folder(box, "20261205-080000-masked_attention", 40, newest_file_days=2),
        "loop_stage": make_folder(box, "20261206-080000-rope", 40),
        "orphan": make_folder(box, "20261207-080000-softmax", 40),
    }
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "precious.txt").write_text("mine")
    old = NOW - 90 * DAY
    os.utime(outside, (old, old))
    (box.state / "attempts" / "link-out").symlink_to(outside)
    (box.state / "attempts" / "notes.txt").write_text("a file, not a folder")
    recs = [
        record("softmax", f["worse"], outcome="failed", used=600.0, score=40),
        record("softmax", f["best_score"], used=300.0, score=110),
        record("softmax", f["fastest"], used=100.0, score=96, hints=2),
        record("softmax", f["young"], outcome="failed", used=600.0, score=20),
        {"kind": "loop", "id": "20261206-080000-loop", "kata": "rope",
         "stages": [record("rope", f["loop_stage"], used=400.0, score=100)]},
    ]
    (box.state / "history.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))
    (box.state / "interview.json").write_text(json.dumps(session(f["open"])))
    box.folders = f
    box.outside = outside
    return box


def present(box) -> set[str]:
    return {name for name, folder in box.folders.items() if (box.state / folder).is_dir()}


def test_dry_run_lists_only_old_folders_that_are_not_kept(attic):
    r = attic.run("clean", "--dry-run")
    assert r.code == 0, r.out + r.err
    listed = re.findall(r"^  (\d{8}-\d{6}-\w+) +40 days ago +200 bytes$", r.out, re.M)
    assert listed == ["20261201-080000-softmax", "20261207-080000-softmax"]
    assert "2 of 8 attempt folders" in r.out and "(400 bytes)" in r.out
    kept = dict(re.findall(r"^  (\d{8}-\d{6}-\w+) +\(40 days ago\): (.+)$", r.out, re.M))
    assert kept == {
        "20261202-080000-softmax": "personal best, softmax: best score 110",
        "20261203-080000-softmax": "personal best, softmax: fastest pass 1:40",
        "20261206-080000-rope": "personal best, rope: best score 100 and fastest pass 6:40",
        "20261204-080000-rope": "the interview that is still open",
    }
    assert "20270110" not in r.out and "20261205" not in r.out  # younger than 30 days
    assert "2 entries in" in r.out and "left alone" in r.out  # the symbolic link and the file
    assert "Dry run: nothing removed." in r.out
    assert present(attic) == set(attic.folders)


def test_without_a_terminal_and_without_yes_nothing_is_removed(attic):
    r = attic.run("clean")
    assert r.code == 0, r.out + r.err
    assert "Remove these 2 folders (400 bytes)? Not asking without a terminal" in r.out
    assert "Nothing removed." in r.out
    assert present(attic) == set(attic.folders)
    r = attic.run("clean", input="y\n")  # a pipe is not a terminal: still no
    assert "Nothing removed." in r.out and present(attic) == set(attic.folders)


@pytest.mark.smoke
def test_yes_removes_the_old_folders_and_keeps_everything_else(attic):
    r = attic.run("clean", "--yes")
    assert r.code == 0, r.out + r.err
    assert "Removed 2 folders (400 bytes)." in r.out
    assert present(attic) == set(attic.folders) - {"worse", "orphan"}
    assert (attic.state / "attempts" / "link-out").is_symlink()
    assert (attic.outside / "precious.txt").read_text() == "mine"
    assert (attic.state / "attempts" / "notes.txt").is_file()
    assert (attic.state / "interview.json").is_file() and (attic.state / "history.jsonl").is_file()
    again = attic.run("clean", "--yes")
    assert again.code == 0 and "Nothing to remove" in again.out
    # A shorter age takes the 5-day-old folder too, not the one with a file changed 2 days ago.
    r = attic.run("clean", "--days", "3", "--yes")
    assert r.code == 0 and "Removed 1 folder (200 bytes)." in r.out
    assert present(attic) == set(attic.folders) - {"worse", "orphan", "young"}


@pytest.mark.parametrize("value", ["nan", "inf", "-1", "1e308", "many"])
def test_days_must_be_a_sensible_number(attic, value):
    r = attic.run("clean", "--days", value, "--yes")
    assert r.code == 2 and r.err.startswith("usage: dojo clean") and "--days" in r.err, r.err
    assert present(attic) == set(attic.folders)


def test_an_unreadable_interview_json_is_left_as_it_is(attic):
    (attic.state / "interview.json").write_text("{not json")
    r = attic.run("clean", "--dry-run")
    assert r.code == 0 and r.err == "", r.out + r.err
    assert "20261204-080000-rope" in r.out  # no open interview to keep it for
    assert (attic.state / "interview.json").read_text() == "{not json"
    assert not list(attic.state.glob("interview.json.corrupt-*"))


def test_an_unreadable_history_means_nothing_is_removed(attic):
    (attic.state / "history.jsonl").write_text('{"kata": "softmax"}\nnot json\n')
    r = attic.run("clean", "--yes")
    assert r.code == 2, r.out + r.err
    assert "could not be read" in r.err and "nothing is removed" in r.err
    assert present(attic) == set(attic.folders)  # the personal bests are unknown: all stay
    assert len(list(attic.state.glob("history.jsonl.corrupt-*"))) == 1


def test_an_attempts_folder_that_is_a_link_elsewhere_is_refused(sandbox, tmp_path):
    elsewhere = tmp_path / "other"
    (elsewhere / "20200101-000000-softmax").mkdir(parents=True)
    sandbox.state.mkdir()
    (sandbox.state / "attempts").symlink_to(elsewhere)
    r = sandbox.run("clean", "--yes")
    assert r.code == 2 and "nothing there is removed" in r.err
    assert (elsewhere / "20200101-000000-softmax").is_dir()


def test_no_attempts_folder_is_nothing_to_do(sandbox):
    r = sandbox.run("clean")
    assert r.code == 0 and "No attempt folders" in r.out
    r = sandbox.run("help", "clean")
    assert r.code == 0 and r.out.startswith("usage: dojo clean") and "--dry-run" in r.out


def test_personal_best_folders_follow_personal_bests():
    recs = [
        {"kata": "softmax", "outcome": "passed", "used_s": 200.0, "score": 110, "attempt": "attempts/a"},
        {"kata": "softmax", "outcome": "passed", "used_s": 200.0, "score": 110, "attempt": "attempts/b"},  # a tie
        {"kata": "softmax", "outcome": "failed", "used_s": 100.0, "score": 50, "attempt": "attempts/c"},
        {"kata": "softmax", "outcome": "abandoned", "used_s": 50.0, "score": None, "id": "d"},
        {"kata": "rope", "outcome": "failed", "used_s": 600.0, "score": 30, "id": "e"},  # no attempt field
        {"kata": "rope", "outcome": "passed", "used_s": float("nan"), "score": "high", "attempt": "attempts/f"},
        {"kind": "loop", "kata": "rope", "stages": [
            {"kata": "rope", "outcome": "passed", "used_s": 500.0, "score": 20, "attempt": "attempts/g"}]},
        {"kata": 5, "score": 1000, "attempt": "attempts/h"},
    ]
    # softmax: a and b tie on both; rope: e has the best score (30 > 20), g the only finite pass
    assert history.personal_best_folders(recs) == {"attempts/a", "attempts/b", "attempts/e", "attempts/g"}
    assert history.personal_best_folders([]) == set()


@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux for a real terminal")
def test_on_a_terminal_it_asks_and_only_y_removes(attic):
    socket = f"dojo-clean-{uuid.uuid4().hex[:8]}"
    env = attic.environ()
    command = " ".join(
        [f"{k}={shlex.quote(env[k])}" for k in ("DOJO_ROOT", "DOJO_STATE_DIR", "DOJO_FAKE_CLOCK", "PYTHONPATH", "NO_COLOR")]
        + [*map(shlex.quote, attic.command("clean"))]
    )
    tmux = ["tmux", "-L", socket, "-f", "/dev/null"]

    def screen() -> str:
        return subprocess.run(tmux + ["capture-pane", "-p", "-J", "-t", "dojo"], capture_output=True, text=True).stdout

    def wait_for(pattern: str, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if re.search(pattern, screen()):
                return
            time.sleep(0.05)
        raise AssertionError(f"no {pattern!r} on the screen:\n{screen()}")

    subprocess.run(tmux + ["new-session", "-d", "-s", "dojo", "-x", "160", "-y", "50", "-c", str(attic.root),
                           f"env {command}; echo exit=$?; env {command}; echo exit=$?; sleep 60"], check=True)
    try:
        wait_for(r"Remove these 2 folders \(400 bytes\)\? \[y/N\]")
        subprocess.run(tmux + ["send-keys", "-t", "dojo", "n", "Enter"], check=True)
        wait_for(r"Nothing removed\.\nexit=0")
        assert present(attic) == set(attic.folders)
        deadline = time.monotonic() + 30
        while screen().count("[y/N]") < 2 and time.monotonic() < deadline:  # the second run asks
            time.sleep(0.05)
        subprocess.run(tmux + ["send-keys", "-t", "dojo", "y", "Enter"], check=True)
        wait_for(r"Removed 2 folders \(400 bytes\)\.\nexit=0")
    finally:
        subprocess.run(tmux + ["kill-server"], capture_output=True)
    assert present(attic) == set(attic.folders) - {"worse", "orphan"}


def test_an_open_loop_keeps_the_folders_of_its_finished_stages(attic):
    # The loop's first stage is not in history.jsonl until the loop ends.
    (attic.state / "interview.json").write_text(json.dumps(session(attic.folders["open"], (attic.folders["orphan"],))))
    r = attic.run("clean", "--yes")
    assert r.code == 0, r.out + r.err
    assert re.search(r"^  20261207-080000-softmax +\(40 days ago\): the interview that is still open$", r.out, re.M)
    assert {"orphan", "open"} <= present(attic) and "worse" not in present(attic)
