"""The commands a newcomer reaches for: --version, help, kata numbers, hint without a kata, each
command's own usage, restore with --list/--pick, and one wording for pass counts and success.

Progress is written into state.json by hand where a test only needs a verdict to exist, so most
tests here never run the judge.
"""

from __future__ import annotations

import json
import os
import re
import select
import time

import pytest

from dojo.catalogue import registry
from tests.tool.harness import REPO, stub

STUB = stub("softmax")


def progress(box, **verdicts) -> None:
    """state.json holding these verdicts: progress(box, softmax=("passed", 13, 13, at)), each
    about a file of one's own written into katas/ (a verdict counts only for the file it judged)."""
    katas = {}
    for module, (state, passed, total, at) in verdicts.items():
        katas[module] = {"verdict": {"state": state, "passed": passed, "total": total,
                                     "first_failure": None if state == "passed" else "a property", "at": at,
                                     "sha256": box.worked_on(module, state)},
                         "hints_used": 0, "solved": state == "passed", "gave_up": False, "revealed": False}
    box.state.mkdir(exist_ok=True)
    (box.state / "state.json").write_text(json.dumps({"version": 1, "welcomed": True, "katas": katas}))


# -- commands -------------------------------------------------------------------------------------


@pytest.mark.smoke
def test_version_and_help_on_every_command(sandbox):
    r = sandbox.run("--version")
    assert r.code == 0 and re.fullmatch(r"dojo \d+\.\d+\.\d+\n", r.out), r.out
    r = sandbox.run("help")
    assert r.code == 0 and "usage: dojo" in r.out and "interview" in r.out and "help" in r.out
    for command in ("interview", "test", "restore", "compare", "history", "hint", "watch", "reset"):
        r = sandbox.run("help", command)
        assert r.code == 0, (command, r.err)
        assert r.out.startswith(f"usage: dojo {command}"), (command, r.out)
    assert "--minutes" in sandbox.run("help", "interview").out
    assert "--pick" in sandbox.run("help", "restore").out
    r = sandbox.run("help", "interveiw")
    assert r.code == 2 and "Did you mean 'interview'" in r.err


@pytest.mark.parametrize("command", ["test", "show", "hint", "interview", "compare", "restore"])
def test_an_unknown_flag_prints_that_commands_usage(sandbox, command):
    r = sandbox.run(command, "softmax", "--bogus")
    assert r.code == 2
    assert r.err.startswith(f"usage: dojo {command} "), r.err
    assert f"dojo {command}: error: unrecognized arguments: --bogus" in r.err


def test_katas_can_be_named_by_their_number_in_the_table(sandbox):
    table = sandbox.run("list").out
    for n, kata in enumerate(registry.KATAS, 1):
        assert f"{n}. {kata.module}" in table
    r = sandbox.run("show", "2")
    assert r.code == 0 and "def scaled_dot_product_attention(" in r.out
    assert "hint 1 of" in sandbox.run("hint", "3").out and "(causal_self_attention)" in sandbox.run("hint", "3").out
    total = len(registry.KATAS)
    r = sandbox.run("test", str(total + 1))
    assert r.code == 2 and f"numbered 1 to {total}" in r.err
    r = sandbox.run("test", "0")
    assert r.code == 2 and "no kata number 0" in r.err


def test_hint_without_a_kata_means_the_kata_you_are_on(sandbox):
    r = sandbox.run("hint")
    assert r.code == 0 and "(softmax)" in r.out  # nothing judged yet: the first kata
    # the kata judged most recently, while it does not pass
    progress(sandbox, softmax=("failing", 9, 13, 1.8e9), causal_self_attention=("failing", 3, 14, 1.8e9 + 60))
    assert "(causal_self_attention)" in sandbox.run("hint").out
    # once it passes: the next kata to do
    progress(sandbox, softmax=("passed", 13, 13, 1.8e9 + 60))
    assert "(masked_attention)" in sandbox.run("hint").out
    progress(sandbox, **{k.module: ("passed", 5, 5, 1.8e9) for k in registry.KATAS})
    r = sandbox.run("hint")
    assert r.code == 2 and "every kata passes" in r.err


def test_test_without_a_kata_judges_the_kata_you_are_on_as_hint_does(sandbox, wrong):
    r = sandbox.run("test")
    assert r.code == 1 and r.out.startswith("softmax — "), r.out + r.err  # nothing judged yet: the first kata
    assert "not started: softmax() still raises NotImplementedError" in r.out
    sandbox.write_kata("masked_attention", wrong("masked_attention", "inverted_mask"))
    sandbox.set_clock(60)
    assert sandbox.run("test", "masked_attention").code == 1
    r = sandbox.run("test")  # the kata judged most recently, while it does not pass
    assert r.code == 1 and r.out.startswith("masked_attention — "), r.out + r.err
    assert "(masked_attention)" in sandbox.run("hint").out  # the same kata hint picks
    progress(sandbox, **{k.module: ("passed", 5, 5, 1.8e9) for k in registry.KATAS})
    r = sandbox.run("test")
    assert r.code == 2 and "every kata passes, so there is no current one" in r.err and "`dojo test 1`" in r.err
    assert r.out == ""
    help_ = sandbox.run("help", "test").out
    assert help_.startswith("usage: dojo test [-h] [--json FILE] [--seed N] [kata]") and "the kata you are on" in help_


OPEN_INTERVIEW = {"version": 1, "index": 0, "coach": False, "watch": True, "current": None,
                  "queue": [{"kata": "softmax", "limit_s": 600.0}]}


def test_flag_combinations_that_cannot_be_are_told_so_before_anything_else(sandbox):
    sandbox.state.mkdir()
    (sandbox.state / "interview.json").write_text(json.dumps(OPEN_INTERVIEW))
    assert "is still open" in sandbox.run("interview", "rope").err  # an interview really is open
    r = sandbox.run("interview", "--loop", "--random")
    assert r.code == 2 and r.err.startswith("dojo: --loop and --random do not go together: a loop is one kata"), r.err
    assert "`dojo interview --loop [KATA]`, default: softmax" in r.err and "still open" not in r.err
    r = sandbox.run("interview", "--loop", "softmax", "rope")
    assert r.code == 2 and r.err.startswith("dojo: --loop starts from one kata, not 2: "), r.err
    assert "leave out --loop" in r.err
    r = sandbox.run("drill", "--resume")
    assert r.code == 2 and "`dojo drill` has no --resume" in r.err and "`dojo interview --resume`" in r.err
    for command in ("test", "show", "hint", "drill", "compare"):
        r = sandbox.run(command, "softmax", "rope")
        assert r.code == 2 and f"`dojo {command}` takes one kata at a time (also given: rope)" in r.err, r.err
    assert (sandbox.state / "interview.json").read_text() == json.dumps(OPEN_INTERVIEW)  # nothing was touched


def read_until(proc, pattern: str, seen: list[str], timeout: float = 90) -> None:
    """Read ``proc``'s output until ``pattern`` appears in it, with a deadline."""
    deadline = time.monotonic() + timeout
    while not re.search(pattern, "".join(seen)):
        left = deadline - time.monotonic()
        assert left > 0, f"no {pattern!r} within {timeout} s:\n{''.join(seen)}"
        ready, _, _ = select.select([proc.stdout], [], [], min(left, 0.2))
        if ready:
            chunk = os.read(proc.stdout.fileno(), 4096).decode(errors="replace")
            assert chunk or proc.poll() is None, f"ended before {pattern!r}:\n{''.join(seen)}"
            seen.append(chunk)


def close_an_interview(box, at: float, *args: str) -> None:
    """Start ``dojo interview ARGS`` at clock time ``at``, let its clock run to 2:00, then kill
    it (the terminal is gone)."""
    box.set_clock(at)
    proc = box.popen("interview", *args)
    try:
        seen = []
        read_until(proc, r"⏱ (stage \d+ of \d+ · )?0:00 used", seen)
        box.set_clock(at + 120)
        read_until(proc, r"⏱ (stage \d+ of \d+ · )?2:00 used", seen)  # saved before it is shown
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()
        proc.stdin.close()
    assert (box.state / "interview.json").exists()


def test_bare_dojo_mentions_an_open_interview_between_two_problems(sandbox):
    sandbox.state.mkdir()
    (sandbox.state / "interview.json").write_text(json.dumps(OPEN_INTERVIEW))
    r = sandbox.run()
    assert r.code == 0 and r.err == "", r.err
    assert ("An interview is still open: softmax. Continue it with `dojo interview --resume` "
            "(press q there to abandon it).") in r.out
    (sandbox.state / "interview.json").unlink()
    assert "still open" not in sandbox.run().out


@pytest.mark.contributors  # live: the contributors' suite
def test_bare_dojo_says_an_interview_is_open_which_and_how_to_go_on(sandbox):
    close_an_interview(sandbox, 0, "masked_attention")
    sandbox.set_clock(300)  # three minutes later: the interview's clock ran on while it was closed
    r = sandbox.run()
    assert r.code == 0 and r.err == "", r.err
    assert ("An interview is still open: masked_attention. Its clock ran on while it was closed: 15:00 left. "
            "Continue it with `dojo interview --resume` (press q there to abandon it).") in r.out, r.out
    sandbox.set_clock(1300)  # past its 20 minutes
    r = sandbox.run()
    assert ("An interview is still open: masked_attention. Its time ran out while it was closed: "
            "`dojo interview --resume` ends it and gives the report.") in r.out, r.out
    r = sandbox.run("interview", "--resume")  # what it said is what happens
    assert "Time is up" in r.out and "Interview over: masked_attention" in r.out, r.out + r.err
    assert not (sandbox.state / "interview.json").exists()
    assert "still open" not in sandbox.run().out

    close_an_interview(sandbox, 2000, "--loop")
    sandbox.set_clock(2300)
    r = sandbox.run()
    assert ("An interview is still open: softmax (stage 1 of 5 of an interview loop). Its clock ran on while "
            "it was closed: 40:00 left.") in r.out, r.out


# -- wording --------------------------------------------------------------------------------------


def test_one_wording_for_pass_counts_and_next_once_a_kata_passed(sandbox):
    first = sandbox.run().out
    assert "Start with softmax" in first
    progress(sandbox, softmax=("passed", 13, 13, 1.8e9))
    out = sandbox.run().out
    assert "Next: masked_attention" in out and "Start with" not in out
    assert "passed: 13 of 13 properties pass" in out
    progress(sandbox, softmax=("passed", 13, 13, 1.8e9), masked_attention=("failing", 9, 17, 1.8e9))
    out = sandbox.run().out
    assert "failing: 9 of 17 properties pass" in out
    assert "Continue with masked_attention" in out
    for old in ("passing", "failing 8", "/13)"):
        assert old not in out


def test_dojo_test_and_the_table_say_the_same_count(sandbox, wrong):
    sandbox.write_kata("softmax", wrong("softmax", "global_max_shift"))
    r = sandbox.run("test", "softmax")
    assert r.code == 1
    (count,) = re.findall(r"^(\d+ of 14 properties pass)\.", r.out, re.M)
    assert f"failing: {count}" in sandbox.run("list").out


# -- restore --------------------------------------------------------------------------------------


def backups(box) -> list:
    folder = box.state / "backups" / "softmax"
    return sorted(folder.glob("*.py"), key=lambda p: p.stat().st_mtime_ns) if folder.is_dir() else []


@pytest.mark.contributors  # live or long: the contributors' suite
def test_reset_restore_restore_never_brings_back_the_stub(sandbox, wrong):
    mine = wrong("softmax", "global_max_shift").read_text()
    sandbox.write_kata("softmax", mine)
    assert sandbox.run("reset", "softmax", "--yes").code == 0
    assert "not started" in sandbox.run("list").out
    first = sandbox.run("restore", "softmax")
    assert first.code == 0, first.err
    assert sandbox.kata("softmax").read_text() == mine
    # the status table follows the file that came back (it was judged again), not the stub
    assert "Judged it again for your progress: failing:" in first.out
    assert re.search(r"softmax +easy +failing: \d+ of 14 properties pass", sandbox.run("list").out)
    second = sandbox.run("restore", "softmax")
    assert second.code == 0, second.err
    assert "already matches" in second.out
    assert sandbox.kata("softmax").read_text() == mine  # not the stub
    assert len(backups(sandbox)) == 1


@pytest.mark.contributors  # live or long: the contributors' suite
def test_restore_never_picks_a_stub_backup_while_one_of_real_work_exists(sandbox):
    folder = sandbox.state / "backups" / "softmax"
    folder.mkdir(parents=True)
    work, stub = folder / "20270101-100000.py", folder / "20270101-110000.py"
    work.write_text("# my real work\n")
    stub.write_text(STUB)
    os.utime(work, (time.time() - 60, time.time() - 60))  # the stub backup is the newest
    sandbox.write_kata("softmax", "# something else\n")
    listed = sandbox.run("restore", "softmax", "--list")
    assert listed.code == 0
    rows = [ln for ln in listed.out.splitlines() if re.match(r"\d ", ln)]
    assert len(rows) == 2
    assert "20270101-110000.py" in rows[0] and "the untouched stub" in rows[0]
    assert "20270101-100000.py" in rows[1] and "your work" in rows[1]
    r = sandbox.run("restore", "softmax")
    assert r.code == 0, r.err
    assert sandbox.kata("softmax").read_text() == "# my real work\n"
    assert "Backed up the file being replaced" in r.out  # "# something else" was not backed up yet
    listing = sandbox.run("restore", "softmax", "--list").out
    rows = [ln for ln in listing.splitlines() if re.match(r"\d ", ln)]
    assert len(rows) == 3 and "(= the file now)" in rows[2]  # newest first: 1 is the backup just made
    r = sandbox.run("restore", "softmax", "--pick", "1")
    assert r.code == 0, r.err
    assert sandbox.kata("softmax").read_text() == "# something else\n"
    r = sandbox.run("restore", "softmax", "--pick", "9")
    assert r.code == 2 and "--list" in r.err


def test_restore_refuses_when_every_backup_is_the_stub(sandbox):
    folder = sandbox.state / "backups" / "softmax"
    folder.mkdir(parents=True)
    (folder / "20270101-110000.py").write_text(STUB)
    sandbox.write_kata("softmax", "# mine\n")
    r = sandbox.run("restore", "softmax")
    assert r.code == 2 and "every backup of softmax is the untouched stub" in r.err
    assert sandbox.kata("softmax").read_text() == "# mine\n"


# -- the README ------------------------------------------------------------------------------------


def test_the_readme_gives_a_cpu_only_install_to_copy():
    readme = (REPO / "README.md").read_text()
    block = re.search(r"<!-- cpu-only -->\s*```sh\n(.+?)\n```", readme, re.S).group(1).splitlines()
    assert block[0].endswith("pip install torch --index-url https://download.pytorch.org/whl/cpu")
    assert block[0].startswith("python3 -m venv .venv && . .venv/bin/activate && ")
    test_line = re.search(r"<!-- test-command -->\s*```sh\n(.+?)\n```", readme).group(1)
    assert block[1] == "pip install -e . && " + test_line.split(" && pip install -e . && ")[1]
    intro = readme[readme.index("### CPU-only variant"):readme.index("<!-- cpu-only -->")]
    assert "5.5 GB" in intro and "190 MB" in intro  # what it saves
