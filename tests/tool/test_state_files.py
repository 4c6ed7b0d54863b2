"""No typo, damaged file, full disk or read-only folder breaks the tool, and no record is lost.

Every state file gets the same treatment (docs/state.md): whatever is wrong with it, it is moved
aside as ``<name>.corrupt-<stamp>`` with a warning and the tool carries on from an empty state.
A write that cannot happen says ``cannot write <file>: <reason>``, the command still does what
it can (a verdict is still printed), and no temporary file is left behind.

The full-disk and read-only cases run ``dojo`` inside a user and mount namespace of its own
(``unshare -rm``), where a tiny tmpfs or a read-only bind mount changes what it sees; they are
skipped where such namespaces are not allowed.
"""

from __future__ import annotations

import json
import os
import random
import select
import shutil
import subprocess
import sys

import pytest

from dojo.state.state import CannotWrite, atomic_write_bytes
from tests.tool.harness import REPO, Result, Sandbox, stub

# Machine-independent and long: the contributors' suite (README, "For contributors"); CI runs it.
pytestmark = pytest.mark.contributors

STUB = stub("softmax")

VALID = {
    "state.json": json.dumps({"version": 1, "welcomed": True, "katas": {"softmax": {
        "verdict": {"state": "failing", "passed": 9, "total": 13, "first_failure": "x", "at": 1.8e9},
        "hints_used": 2, "solved": False, "gave_up": False, "revealed": False}}}, indent=1),
    "history.jsonl": json.dumps({"v": 1, "id": "a", "kata": "softmax", "outcome": "passed", "used_s": 60.0,
                                 "limit_s": 600.0, "passed": 13, "total": 13, "score": 118}) + "\n",
    "interview.json": json.dumps({"version": 1, "index": 0, "coach": False, "watch": True, "current": None,
                                  "queue": [{"kata": "softmax", "limit_s": 600.0}]}, indent=1),
}
WRONG_TYPES = {
    "state.json": '{"version": 1, "katas": {"softmax": {"hints_used": "two", "verdict": [9, 13]}}}',
    "history.jsonl": '["softmax", 60.0, "passed"]\n',
    "interview.json": '{"version": 1, "index": "0", "queue": [{"kata": "softmax", "limit_s": "ten"}]}',
}
#: the command that reads each file, and what it says with no such file
READER = {
    "state.json": (("list",), 0, "not started"),
    "history.jsonl": (("history",), 0, "No interviews yet"),
    "interview.json": (("interview", "--resume"), 2, "no interview to resume"),
}


def damage(path, how: str) -> bytes | None:
    """Make ``path`` unreadable in one way; returns the bytes a person would want back (if any)."""
    name = path.name
    if how == "truncated":
        data = VALID[name].encode()[: len(VALID[name]) // 2]
    elif how == "random bytes":
        data = random.Random(name).randbytes(300)
    elif how == "wrong types":
        data = WRONG_TYPES[name].encode()
    elif how == "folder":
        path.mkdir()
        (path / "keep.txt").write_text("something of mine\n")
        return None
    elif how == "unreadable":
        if os.geteuid() == 0:  # root reads any file whatever its mode: a loop of links it cannot follow
            path.symlink_to(name)
        else:
            path.write_text(VALID[name])
            path.chmod(0)
        return None
    path.write_bytes(data)
    return data


@pytest.mark.parametrize("how", ["truncated", "random bytes", "wrong types", "folder", "unreadable"])
@pytest.mark.parametrize("name", ["state.json", "history.jsonl", "interview.json"])
def test_every_state_file_that_cannot_be_read_is_set_aside_the_same_way(sandbox, name, how):
    sandbox.state.mkdir()
    path = sandbox.state / name
    kept = damage(path, how)
    args, code, empty = READER[name]
    r = sandbox.run(*args)
    assert r.code == code, r.out + r.err
    assert empty in r.out + r.err
    assert "internal error" not in r.err and "Traceback" not in r.err
    assert f"{path} could not be read" in r.err and "moved it to" in r.err
    aside = [p for p in sandbox.state.iterdir() if p.name.startswith(f"{name}.corrupt-")]
    assert len(aside) == 1, list(sandbox.state.iterdir())
    if kept is not None:
        assert aside[0].read_bytes() == kept  # never lost, only moved
    elif how == "folder":
        assert (aside[0] / "keep.txt").read_text() == "something of mine\n"
    assert not path.exists() and not path.is_symlink()
    again = sandbox.run(*args)  # from now on the tool runs as if the file had never been there
    assert (again.code, again.err) == (code, "" if code == 0 else again.err)
    assert "could not be read" not in again.err


def test_odd_fields_in_history_show_as_a_dash_and_never_crash(sandbox):
    sandbox.state.mkdir()
    lines = [
        '{"kata": 5}',
        '{"kata": "softmax", "outcome": "passed", "used_s": Infinity, "limit_s": 600}',
        '{"kata": "softmax", "outcome": 7, "used_s": NaN, "limit_s": "ten", "score": "high", '
        '"passed": "a", "total": 13, "started_at": 1e300, "hints": null, "attempted": false, "ended_by": 3}',
        '{"kata": "softmax", "outcome": "passed", "used_s": 75.0, "limit_s": 600.0, "started_at": 1.8e9, '
        '"passed": 13, "total": 13, "hints": 0, "score": 117}',
    ]
    (sandbox.state / "history.jsonl").write_text("\n".join(lines) + "\n")
    for args in (("history",), (), ("list",), ("history", "softmax")):
        r = sandbox.run(*args)
        assert r.code == 0, (args, r.out + r.err)
        assert r.err == "", (args, r.err)
    h = sandbox.run("history").out
    assert "Interview history (4 attempts)" in h
    rows = [ln for ln in h.splitlines() if ln[:1].isdigit()]
    assert rows[0].split()[:3] == ["1", "—", "—"]  # no date, no kata name: dashes
    assert "— / 10:00" in rows[1]  # an infinite time used is not a time
    assert "1:15 / 10:00" in rows[3] and "13 of 13" in rows[3]
    assert "1:15" in sandbox.run("list").out  # the best interview: the one finite passing time
    assert not list(sandbox.state.glob("history.jsonl.corrupt-*"))  # odd fields are not damage


@pytest.mark.parametrize("flag,value", [
    ("--at", "nan"), ("--at", "inf"), ("--at", "-1"), ("--at", "1e308"),
    ("--minutes", "nan"), ("--minutes", "inf"), ("--minutes", "-5"), ("--minutes", "0"), ("--minutes", "1e308"),
])
def test_numeric_flags_out_of_range_are_usage_errors_before_anything_is_written(sandbox, solution, flag, value):
    r = sandbox.run("interview", "softmax", "--answer", str(solution("softmax")), flag, value)
    assert r.code == 2, r.out + r.err
    assert r.err.startswith("usage: dojo interview") and f"argument {flag}: {value!r}" in r.err
    assert not sandbox.state.exists() or not any(sandbox.state.iterdir())
    assert sandbox.run("history").out.startswith("No interviews yet")


def test_compare_refuses_a_timeout_that_is_not_a_finite_number(sandbox):
    for value in ("nan", "inf", "0", "-3", "1e308"):
        r = sandbox.run("compare", "softmax", "--timeout", value)
        assert r.code == 2 and r.err.startswith("usage: dojo compare"), (value, r.err)


@pytest.mark.parametrize("problem,session", [
    ("index out of range", {"index": 5}),
    ("an infinite time limit", {"queue": [{"kata": "softmax", "limit_s": float("inf")}]}),
    ("a loop whose clock is not a number", {"loop": {"id": "x", "started_at": 0.0, "limit_s": "ten", "stages": []}}),
    ("a loop stage that is not a record", {"loop": {"id": "x", "started_at": 0.0, "limit_s": 60.0, "stages": [3]}}),
    ("a folder outside the state folder", {"current": {
        "id": "x", "kata": "softmax", "folder": "../../escape", "limit_s": 600.0, "started_at": 0.0,
        "elapsed_s": 10.0, "tick_wall": 1.8e9, "closed_s": 0.0, "resumed": 0, "hints": 0, "judge_runs": 0,
        "warned": [], "seen": None, "judged": None, "verdict": None}}),
])
def test_an_interview_that_cannot_be_resumed_is_set_aside_not_left_open(sandbox, problem, session):
    sandbox.state.mkdir()
    data = {**json.loads(VALID["interview.json"]), **session}
    (sandbox.state / "interview.json").write_text(json.dumps(data))
    r = sandbox.run("interview", "--resume")
    assert r.code == 2 and "no interview to resume" in r.err, r.err
    assert "cannot be resumed" in r.err and "moved it to interview.json.corrupt-" in r.err
    assert not (sandbox.root.parent / "escape").exists() and not (sandbox.state.parent / "escape").exists()
    # and a new interview starts at once (the untouched stub: no judge run needed)
    r = sandbox.run("interview", "softmax", "--answer", str(sandbox.kata("softmax")))
    assert r.code == 1, r.out + r.err
    assert "still open" not in r.err and "no attempt" in r.out


@pytest.mark.contributors  # live or long: the contributors' suite
def test_an_interview_closes_and_its_record_is_kept_when_history_is_a_folder(sandbox, solution):
    sandbox.state.mkdir()
    (sandbox.state / "history.jsonl").mkdir()
    r = sandbox.run("interview", "softmax", "--answer", str(solution("softmax")), "--at", "60")
    assert r.code == 0, r.out + r.err
    assert "moved it to history.jsonl.corrupt-" in r.err
    (record,) = [json.loads(line) for line in (sandbox.state / "history.jsonl").read_text().splitlines()]
    assert (record["outcome"], record["used_s"]) == ("passed", 60.0)
    assert not (sandbox.state / "interview.json").exists()


# -- writes that cannot happen ----------------------------------------------------------------


def _namespaces_work() -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(["unshare", "-rm", "sh", "-c", "mount -t tmpfs tmpfs /mnt"], capture_output=True)
    return probe.returncode == 0


needs_namespaces = pytest.mark.skipif(not _namespaces_work(), reason="needs unshare -rm (user and mount namespaces)")

FULL_DISK = 'mount -t tmpfs -o size=64k tmpfs "$DOJO_STATE_DIR" && { cat /dev/zero > "$DOJO_STATE_DIR/filler"; true; } 2>/dev/null'
READ_ONLY_REPO = 'mount --bind "$DOJO_ROOT" "$DOJO_ROOT" && mount -o remount,bind,ro "$DOJO_ROOT"'


def run_in_namespace(box: Sandbox, setup: str, *args: str, env: dict | None = None) -> tuple[Result, list[str]]:
    """``dojo ARGS`` after ``setup`` (shell) changed what it sees; also what the state folder then
    held (the namespace, and a tmpfs with it, is gone once it exits)."""
    listing = box.root.parent / "listing.txt"
    script = (f'{setup} || exit 99\n"$@"; code=$?\n'
              f'ls -A "$DOJO_STATE_DIR" > {listing} 2>&1\nexit $code')
    environ = {**box.environ(), **(env or {})}
    proc = subprocess.run(["unshare", "-rm", "sh", "-c", script, "sh", *box.command(*args)],
                          cwd=box.root, env=environ, capture_output=True, text=True, timeout=300,
                          stdin=subprocess.DEVNULL)
    assert proc.returncode != 99, proc.stderr
    return Result(proc.returncode, proc.stdout, proc.stderr), listing.read_text().split()


@pytest.mark.contributors  # live or long: the contributors' suite
@needs_namespaces
def test_a_full_disk_still_gives_the_verdict_and_says_what_could_not_be_written(sandbox, solution):
    sandbox.state.mkdir()
    sandbox.write_kata("softmax", solution("softmax"))
    r, left = run_in_namespace(sandbox, FULL_DISK, "test", "softmax")
    assert r.code == 0, r.out + r.err
    assert "Passed: 14 of 14 properties pass" in r.out
    assert f"cannot write {sandbox.state / 'state.json'}: No space left on device" in r.err
    assert "internal error" not in r.err and "Traceback" not in r.err
    assert left == ["filler"]  # no 0-byte temporary files, no empty cache folder


@pytest.mark.contributors  # live or long: the contributors' suite
@needs_namespaces
def test_a_read_only_repository_still_gives_the_verdict_and_never_loses_the_file(sandbox, solution):
    mine = solution("softmax").read_text() + "# mine\n"
    sandbox.write_kata("softmax", mine)
    env = {"DOJO_STATE_DIR": str(sandbox.root / ".dojo")}
    r, _ = run_in_namespace(sandbox, READ_ONLY_REPO, "test", "softmax", env=env)
    assert r.code == 0, r.out + r.err
    assert "Passed: 14 of 14 properties pass" in r.out
    assert "cannot write .dojo/state.json: Read-only file system" in r.err
    assert "internal error" not in r.err
    r, _ = run_in_namespace(sandbox, READ_ONLY_REPO, "reset", "softmax", "--yes", env=env)
    assert r.code == 2, r.out + r.err
    assert "cannot write .dojo/backups/softmax/" in r.err and "Read-only file system" in r.err
    assert "katas/softmax.py is left as it was" in r.err
    assert sandbox.kata("softmax").read_text() == mine


@pytest.mark.contributors  # live or long: the contributors' suite
@needs_namespaces
@pytest.mark.parametrize("what", ["an empty file", "a folder"])
def test_a_record_that_cannot_go_into_history_goes_to_a_side_file_and_the_interview_closes(
    sandbox, solution, what
):
    sandbox.state.mkdir()
    history = sandbox.state / "history.jsonl"
    if what == "a folder":  # unreadable, and cannot be moved aside: it must not be overwritten either
        history.mkdir()
        (history / "keep.txt").write_text("mine\n")
    else:  # readable, but cannot be replaced
        history.write_text("")
    # history.jsonl as a read-only mount point: it can be neither replaced nor moved
    pinned = f'mount --bind "{history}" "{history}" && mount -o remount,bind,ro "{history}"'
    r, left = run_in_namespace(sandbox, pinned, "interview", "softmax", "--answer", str(solution("softmax")),
                               "--at", "60")
    assert r.code == 0, r.out + r.err
    assert "Interview over" in r.out
    assert str(history) in r.err and "internal error" not in r.err
    (side,) = [name for name in left if name.startswith("history-unsaved-")]
    assert f"saved in {sandbox.state / side}" in r.err
    (record,) = [json.loads(line) for line in (sandbox.state / side).read_text().splitlines()]
    assert (record["kata"], record["outcome"], record["used_s"]) == ("softmax", "passed", 60.0)
    assert "interview.json" not in left  # the interview is closed, not left open
    if what == "a folder":
        assert (history / "keep.txt").read_text() == "mine\n"
    else:
        assert history.read_text() == ""


# -- temporary files -----------------------------------------------------------------------------


def dead_pid() -> int:
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def test_temporary_files_of_killed_writers_are_cleaned_up(sandbox):
    sandbox.write_kata("softmax", "# my work\n")
    stale = sandbox.root / "katas" / f".softmax.py.tmp{dead_pid()}"
    stale.write_text("")  # what a reset killed half-way used to leave behind
    live = sandbox.root / "katas" / f".softmax.py.tmp{os.getpid()}"  # a writer still running
    live.write_text("")
    r = sandbox.run("reset", "softmax", "--yes")
    assert r.code == 0, r.err
    assert not stale.exists() and live.exists()
    assert sandbox.kata("softmax").read_text() == STUB
    assert sorted(p.name for p in (sandbox.root / "katas").iterdir() if p.name.startswith(".")) == [live.name]


def test_a_failed_write_leaves_the_old_file_and_no_temporary_file(tmp_path, monkeypatch):
    target = tmp_path / "state.json"
    target.write_text("old")

    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    with pytest.raises(CannotWrite, match=r"cannot write .*state.json: No space left on device"):
        atomic_write_bytes(target, b"new")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["state.json"]


def test_a_writer_killed_half_way_leaves_no_temporary_file(tmp_path):
    """``kill -9`` in the middle of a write (here: while it flushes) leaves the old file and nothing else."""
    target = tmp_path / "softmax.py"
    target.write_text("# my work\n")
    child = subprocess.Popen(
        [sys.executable, "-c",
         "import os, sys, time\n"
         "from pathlib import Path\n"
         "from dojo.state import state\n"
         "def stuck(fd):\n"
         "    print('writing', flush=True)\n"
         "    time.sleep(600)\n"
         "os.fsync = stuck\n"
         "state.atomic_write_bytes(Path(sys.argv[1]), b'the stub\\n' * 1000)\n",
         str(target)],
        stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    try:
        ready, _, _ = select.select([child.stdout], [], [], 60)
        assert ready and child.stdout.readline() == "writing\n"
        child.kill()
        child.wait(timeout=30)
    finally:
        child.kill()
    assert [p.name for p in tmp_path.iterdir()] == ["softmax.py"]
    assert target.read_text() == "# my work\n"
