"""A verdict belongs to a file's content: every screen says what is true of the file now.

state.json keeps, with each verdict, the sha256 of the bytes that were judged. Wherever a saved
verdict is shown or used (the progress table, what to do next, ``dojo drill``, ``dojo test`` and
``dojo hint`` without a kata, the interview's choice of kata), it counts only while the file
still has that hash; otherwise the table says *changed since judged* (or *not started* for a
file that is byte for byte the untouched stub) and nothing counts it as passed or failing.

The three ways a file changes behind the tool's back, each with real judge runs: the stub put
back by ``git checkout``, a correct file copied in, and an edit while no tool runs.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess

import pytest

from dojo.catalogue import registry
from dojo.catalogue.env import Env
from dojo.state.state import CHANGED, MISSING, UNJUDGED, UNREADABLE, Store
from tests.tool.harness import stub

# Machine-independent and long: the contributors' suite (README, "For contributors"); CI runs it.
pytestmark = pytest.mark.contributors


def row(out: str, module: str) -> str:
    """The progress table's row of ``module``."""
    (line,) = [ln for ln in out.splitlines() if re.match(rf"\s+\d+\. {module}\s", ln)]
    return line


def saved(box, module: str) -> dict:
    return json.loads((box.state / "state.json").read_text())["katas"][module]["verdict"]


def git(root, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false",
                    *args], cwd=root, check=True, capture_output=True)


# -- the three cases of issue 20 --------------------------------------------------------------------


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_the_stub_put_back_by_git_checkout_reads_as_not_started_and_is_never_passed(sandbox, solution):
    git(sandbox.root, "init", "-q")
    git(sandbox.root, "add", "katas")
    git(sandbox.root, "commit", "-q", "-m", "the stubs")
    sandbox.write_kata("rope", solution("rope"))
    r = sandbox.run("test", "rope")
    assert r.code == 0, r.out + r.err
    assert saved(sandbox, "rope")["sha256"] == hashlib.sha256(solution("rope").read_bytes()).hexdigest()
    r = sandbox.run("drill")
    assert "Passed in practice, never interviewed: rope." in r.out
    assert "passed: 19 of 19 properties pass" in row(sandbox.run().out, "rope")

    git(sandbox.root, "checkout", "katas/rope.py")  # the stub back, behind the tool's back
    assert sandbox.kata("rope").read_text() == stub("rope")
    out = sandbox.run().out
    assert "not started" in row(out, "rope") and "passed" not in row(out, "rope"), out
    assert "No verdict for the file as it is now" not in out  # the stub needs no judging to be known
    r = sandbox.run("drill")
    assert r.code == 0 and "never interviewed" not in r.out, r.out  # drill no longer counts it as passed
    assert saved(sandbox, "rope")["state"] == "passed"  # kept, but not shown: it is about other bytes


def test_a_correct_file_copied_over_a_failing_one_is_changed_since_judged(sandbox, solution, wrong):
    sandbox.write_kata("rope", wrong("rope", "float32_angles"))
    r = sandbox.run("test", "rope")
    assert r.code == 1, r.out + r.err
    (count,) = re.findall(r"^(\d+ of 19 properties pass)\.", r.out, re.M)
    assert f"failing: {count}" in row(sandbox.run("list").out, "rope")

    shutil.copy(solution("rope"), sandbox.kata("rope"))
    out = sandbox.run().out
    assert "changed since judged" in row(out, "rope") and "failing" not in row(out, "rope"), out
    assert "No verdict for the file as it is now: rope. `dojo test rope` judges it" in out
    assert "(rope)" in sandbox.run("hint").out  # the kata you are on: judged last, and not passing now

    r = sandbox.run("test")  # without a kata: the one you are on
    assert r.code == 0 and r.out.startswith("rope — "), r.out + r.err
    out = sandbox.run().out
    assert "passed: 19 of 19 properties pass" in row(out, "rope")
    assert "No verdict for the file as it is now" not in out


def test_a_file_edited_while_no_tool_runs_is_changed_since_judged_until_it_is_the_same_bytes(sandbox, solution):
    sandbox.write_kata("softmax", solution("softmax"))
    assert sandbox.run("test", "softmax").code == 0
    passing = sandbox.kata("softmax").read_bytes()
    out = sandbox.run().out
    assert "passed: 14 of 14" in row(out, "softmax") and "Next: masked_attention" in out

    sandbox.kata("softmax").write_bytes(passing + b"\n# TODO: try logsumexp\n")  # an editor, no dojo running
    out = sandbox.run().out
    assert "changed since judged" in row(out, "softmax"), out
    assert "Continue with softmax" in out  # not counted as passed: it is the next kata again
    assert "No verdict for the file as it is now: softmax." in out
    assert "never interviewed" not in sandbox.run("drill").out

    sandbox.kata("softmax").write_bytes(passing)  # the same bytes again (a newer mtime): the verdict is theirs
    out = sandbox.run().out
    assert "passed: 14 of 14" in row(out, "softmax") and "Next: masked_attention" in out, out


# -- what the table says for each case, without the judge -------------------------------------------


@pytest.fixture
def store(sandbox):
    return Store(Env(root=sandbox.root, state_dir=sandbox.state))


def verdict(state: str = "passed", sha256: str | None = None) -> dict:
    v = {"state": state, "passed": 5, "total": 5, "first_failure": None, "diagnosis": None, "at": 1.8e9}
    if sha256 is not None:
        v["sha256"] = sha256
    return v


def test_verdict_now_for_every_kind_of_file(sandbox, store):
    softmax = registry.get("softmax")
    entry = store.kata("softmax")
    assert store.verdict_now(softmax) is None  # the untouched stub, never judged: not started

    entry["verdict"] = verdict(sha256=hashlib.sha256(stub("softmax").encode()).hexdigest())
    entry["verdict"]["state"] = "not-started"
    assert store.verdict_now(softmax)["state"] == "not-started"  # judged as the stub it still is

    mine = sandbox.worked_on("softmax", "my work")
    assert store.verdict_now(softmax) == {"state": CHANGED}
    entry["verdict"] = verdict(sha256=mine)
    assert store.verdict_now(softmax) is entry["verdict"]  # about exactly these bytes

    entry["verdict"] = verdict(sha256="0" * 64)
    sandbox.kata("softmax").write_text(stub("softmax"))
    assert store.verdict_now(softmax) is None  # a stale verdict, but the stub is the stub

    rope = registry.get("rope")
    sandbox.worked_on("rope", "never judged")
    assert store.verdict_now(rope) == {"state": UNJUDGED}
    sandbox.kata("rope").unlink()
    assert store.verdict_now(rope) == {"state": MISSING}
    sandbox.kata("rope").mkdir()
    assert store.verdict_now(rope) == {"state": UNREADABLE}


def test_a_verdict_from_before_hashes_is_changed_since_judged_unless_the_file_is_the_stub(sandbox):
    sandbox.state.mkdir()
    sandbox.worked_on("masked_attention", "judged by an older dojo")
    (sandbox.state / "state.json").write_text(json.dumps({"version": 1, "welcomed": True, "katas": {
        module: {"verdict": {"state": "passed", "passed": 5, "total": 5, "first_failure": None, "at": 1.8e9},
                 "hints_used": 0, "solved": True, "gave_up": False, "revealed": False}
        for module in ("softmax", "masked_attention")}}))
    r = sandbox.run()
    assert r.code == 0 and r.err == "", r.err  # an old file is read, not set aside
    assert "not started" in row(r.out, "softmax")  # still the stub: known without the hash
    assert "changed since judged" in row(r.out, "masked_attention")  # unknown: not counted as passed
    assert "passed" not in r.out.split("Decoding")[0].split("The textbook four")[1]
    assert "Start with softmax" in r.out
    assert not list(sandbox.state.glob("state.json.corrupt-*"))


@pytest.mark.parametrize("bad", ["12", "[\"ab\"]", "{\"sha\": 1}"])
def test_a_hash_that_is_not_a_string_sets_the_file_aside_and_the_tool_carries_on(sandbox, bad):
    sandbox.state.mkdir()
    sha = sandbox.worked_on("softmax")
    text = json.dumps({"version": 1, "welcomed": True, "katas": {"softmax": {
        "verdict": {**verdict(sha256=sha), "sha256": json.loads(bad)}}}})
    (sandbox.state / "state.json").write_text(text)
    r = sandbox.run()
    assert r.code == 0 and "internal error" not in r.err
    assert "verdict.sha256 is not a hash" in r.err and "moved it to" in r.err
    assert "edited, not judged yet" in row(r.out, "softmax")  # what is true of the file, without a verdict
    (aside,) = sandbox.state.glob("state.json.corrupt-*")
    assert aside.read_text() == text


def test_an_interview_picks_a_kata_whose_file_does_not_pass_now(sandbox, solution):
    """``dojo interview`` without a kata takes the first that does not pass: by the file now."""
    sandbox.state.mkdir()
    sha = sandbox.worked_on("softmax", "passed once")
    (sandbox.state / "state.json").write_text(json.dumps({"version": 1, "welcomed": True, "katas": {
        "softmax": {"verdict": verdict(sha256=sha), "hints_used": 0, "solved": True,
                    "gave_up": False, "revealed": False}}}))
    r = sandbox.run("interview", "--answer", str(solution("masked_attention")))
    assert r.code == 0 and "Masked scaled dot-product attention" in r.out.splitlines()[0], r.out + r.err
    sandbox.worked_on("softmax", "edited since")
    r = sandbox.run("interview", "--answer", str(solution("softmax")))
    assert r.code == 0 and "Numerically stable softmax" in r.out.splitlines()[0], r.out + r.err
