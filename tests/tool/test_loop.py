"""``dojo interview --loop``: one question growing into the next, on one clock.

Driven through the real entry point like test_interview.py (a sandbox, a fake clock file the
test moves, scripted ``--answer``/``--at`` once per stage, live runs on pipes). Expected
figures are worked out here from the rules in docs/interview.md, not read from the tool.
"""

from __future__ import annotations

import json
import signal

import pytest

from dojo.catalogue import registry
from dojo.screens.render import properties_of
from tests.tool.harness import REPO, stub
from tests.tool.test_interview import Live, interview, oracle_cache, records, sandbox  # noqa: F401 (fixtures)

CHAIN = ["softmax", "masked_attention", "causal_self_attention", "multihead_attention", "kv_cache_attention"]
LIMIT = 45 * 60.0  # the loop's default clock


def n_props(kata: str) -> int:
    return len(properties_of(REPO / "tests" / f"test_{kata}.py"))


def stage_score(passed: int, total: int, hints: int, used: float, limit: float, in_time: bool) -> int:
    """docs/interview.md: 100 × passed/total − 10 × hints (+ 20 × left/limit for a pass in time)."""
    bonus = 20 * (limit - used) / limit if in_time else 0
    return max(0, round(100 * passed / total - 10 * hints + bonus))


def loop_record(box) -> dict:
    (rec,) = records(box)
    assert rec["kind"] == "loop", rec
    return rec


def katas_untouched(box) -> None:
    for k in registry.KATAS:
        assert box.kata(k.module).read_text() == stub(k.module)


def test_the_registry_chains_softmax_to_the_textbook_four_and_a_kv_cache():
    assert [k.module for k in registry.chain(registry.get("softmax"))] == CHAIN
    assert registry.check_registry() == []


def test_a_next_question_that_cycles_or_names_no_kata_is_a_registry_problem():
    def kata(module, nxt):
        base = registry.get("softmax")
        return registry.Kata(**{**base.__dict__, "module": module, "next": nxt})

    cycle = (kata("softmax", "b"), kata("b", "softmax"))
    assert any("comes back to softmax" in p for p in registry.check_registry(cycle))
    dangling = (kata("softmax", "nowhere"),)
    assert any("'nowhere' is not a kata" in p for p in registry.check_registry(dangling))


def test_a_scripted_loop_passes_two_stages_then_time_runs_out(sandbox, solution, wrong):
    r = sandbox.run(
        "interview", "--loop",
        "--answer", str(solution("softmax")), "--at", "60",
        "--answer", str(solution("masked_attention")), "--at", "300",
        "--answer", str(wrong("causal_self_attention", "no_scale")), "--at", "2800",  # after 45:00
    )
    assert r.code == 1, r.out + r.err
    rec = loop_record(sandbox)
    stages = rec["stages"]
    assert [s["kata"] for s in stages] == CHAIN[:3]
    assert [s["outcome"] for s in stages] == ["passed", "passed", "timed-out"]
    assert [s["stage"] for s in stages] == [1, 2, 3]
    # one clock: each stage's time runs from where the one before stopped, its limit is what was left
    assert [s["used_s"] for s in stages] == [60.0, 240.0, 2400.0]
    assert [s["limit_s"] for s in stages] == [LIMIT, LIMIT - 60, LIMIT - 300]
    expected = [stage_score(n_props("softmax"), n_props("softmax"), 0, 60, LIMIT, True),
                stage_score(n_props("masked_attention"), n_props("masked_attention"), 0, 240, LIMIT - 60, True)]
    assert [s["score"] for s in stages] == expected + [None]  # the third was never written: no attempt
    assert rec["score"] == sum(expected)
    assert (rec["outcome"], rec["used_s"], rec["limit_s"], rec["reached"], rec["passed_stages"]) == (
        "timed-out", LIMIT, LIMIT, 3, 2)
    assert rec["planned"] == CHAIN
    # each stage starts from the candidate's own file, the new stub below it
    folders = [sandbox.state / s["attempt"] for s in stages]
    softmax_answer = solution("softmax").read_text()
    second = (folders[1] / ".start.py").read_text()
    assert second.startswith(softmax_answer.rstrip()) and "def scaled_dot_product_attention(q, k, v, mask=None):" in second
    assert second.count("import numpy as np") == 1  # the import the file already has is not repeated
    third = (folders[2] / "final" / "causal_self_attention.py").read_text()  # frozen at the hard stop
    assert third.startswith(solution("masked_attention").read_text().rstrip())
    assert "def causal_self_attention(x, w_q, w_k, w_v):" in third and "stage 3" in third
    # the screen and the report
    assert "Interview loop, stage 2 of 5: Masked scaled dot-product attention" in r.out
    assert "It starts with your file from the stage before" in r.out
    assert "Stage 1 of 5: passed at 1:00" in r.out and "Stage 2 of 5: passed at 5:00" in r.out
    assert "[45:00] Time is up: hard stop." in r.out
    assert "Interview loop over: 2 of 5 stages passed (3 reached; 45:00 of 45:00 used)" in r.out
    assert r.out.count("not reached") == 2
    assert f"{sum(expected)}   = {expected[0]} + {expected[1]}" in r.out
    # what the judge checked: every stage, under its name (not only the last, unnamed)
    checked = r.out.split("What the judge checked, stage by stage", 1)[1]
    for n, kata in enumerate(CHAIN[:2], 1):
        assert f"  Stage {n}: {kata} — passed\n" in checked
        props = checked.split(f"Stage {n}: {kata}", 1)[1].split("  Stage ", 1)[0]
        assert props.count("    ✓ ") == n_props(kata) and "✗" not in props
    assert "  Stage 3: causal_self_attention — no attempt\n" in checked
    assert "explained by" not in r.out  # stage 3 is the untouched stub: nothing for dojo compare
    assert "dojo followups masked_attention --answers" in r.out  # about the furthest code written
    assert not (sandbox.state / "interview.json").exists()
    katas_untouched(sandbox)
    h = sandbox.run("history")
    assert h.code == 0 and "loop from softmax" in h.out and "2 of 5 stages passed" in h.out
    assert "3. causal_self_attention" in h.out and "no attempt (time ran out)" in h.out
    assert "masked_attention       1         1       4:00" in h.out  # the stage counts as a pass of its kata


RAISES_ON_LONGER_SEQUENCES = '''import numpy as np


def causal_self_attention(x, w_q, w_k, w_v):
    x = np.asarray(x, dtype=np.float64)
    if x.ndim != 2 or x.shape[0] > 3:  # too strict: a valid x may have any number of positions
        raise ValueError("x must be 2-D with at most 3 positions")
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    s = q @ k.T / np.sqrt(q.shape[1])
    n = s.shape[0]
    s = np.where(np.tril(np.ones((n, n), bool)), s, -np.inf)
    w = np.exp(s - s.max(axis=1, keepdims=True))
    w /= w.sum(axis=1, keepdims=True)
    return w @ v, w
'''


def test_a_stage_that_raised_on_a_valid_input_says_so_and_points_at_compare(sandbox, tmp_path):
    """The case the issue saw: a causal stage that never modified its inputs showed
    "✗ x, w_q, w_k and w_v are left exactly as they were" — it raised ValueError on a valid input."""
    answer = tmp_path / "causal_self_attention.py"
    answer.write_text(RAISES_ON_LONGER_SEQUENCES)
    r = sandbox.run("interview", "--loop", "causal_self_attention", "--answer", str(answer), "--at", "60")
    assert r.code == 1, r.out + r.err
    (stage,) = loop_record(sandbox)["stages"]
    assert stage["outcome"] == "failed"
    report = r.out.split("Interview loop over:", 1)[1]
    final = sandbox.state / stage["attempt"] / "final" / "causal_self_attention.py"
    assert ("  stage 1        first failure: Matches torch (projections, then scaled_dot_product_attention with "
            "is_causal=True), for ordinary, large (~1e4) and far-below-zero scores (from about -1e9 down to the edge "
            "of overflow) — raised ValueError on a valid input") in report
    # the last stage's pointer sits with the others', and is given once
    assert f"                 explained by: `dojo compare causal_self_attention --file {sandbox.shown(final.parent.parent)}/`" in report
    assert report.count("dojo compare") == 1
    checked = report.split("What the judge checked, stage by stage", 1)[1]
    assert "  Stage 1: causal_self_attention — failed\n" in checked
    assert "    ✗ x, w_q, w_k and w_v are left exactly as they were — raised ValueError on a valid input\n" in checked
    # a property it fails for the reason its title states says nothing more
    assert "    ✗ NaN or inf in x, w_q, w_k or w_v raises ValueError\n" in checked
    assert "    ✓ w_q and w_k of different widths raise ValueError (Q Kᵀ needs the same d_k)\n" in checked


@pytest.mark.contributors  # live or long: the contributors' suite
def test_getting_further_scores_more_than_polishing_the_first_stage(sandbox, solution):
    one = sandbox.run("interview", "--loop", "--answer", str(solution("softmax")), "--at", "10")
    assert one.code == 1 and "No more answers: the loop stops after stage 1." in one.out, one.out + one.err
    two = sandbox.run("interview", "--loop", "--answer", str(solution("softmax")), "--at", "600",
                      "--answer", str(solution("masked_attention")), "--at", "2000")
    assert two.code == 1, two.out + two.err
    first, second = records(sandbox)
    assert (first["outcome"], second["outcome"]) == ("stopped", "stopped")
    assert second["score"] > first["score"]  # slower on the first stage, but one stage further


def pass_stage_one(sandbox, live, solution, at: str) -> str:
    """Save the reference softmax, move the clock to ``at``, press s; the second stage's file,
    once its clock runs (from then on, moving the clock counts)."""
    live.attempt.write_text(solution("softmax").read_text())
    live.wait_for(r"passed: \d+ of \d+ properties pass")
    minutes, seconds = at.split(":")
    sandbox.set_clock(60 * int(minutes) + int(seconds))
    live.wait_for(rf"⏱ stage 1 of 5 · {at} used")
    live.key("s")
    live.wait_for(rf"Stage 1 of 5: passed at {at}")
    second = live.box.root / live.wait_for(r"Write your answer in: (\S+)").group(1)
    live.wait_for(rf"⏱ stage 2 of 5 · {at} used")
    return second


@pytest.mark.contributors  # live or long: the contributors' suite
def test_a_live_loop_moves_on_when_a_stage_is_submitted_and_stops_hard_on_one_clock(
    sandbox, interview, solution, wrong
):
    live = interview("--loop", "--minutes", "10")
    second = pass_stage_one(sandbox, live, solution, at="1:30")
    assert second.name == "masked_attention.py"
    live.wait_for(r"8:30 left")
    bug = wrong("masked_attention", "no_scale")
    with open(second, "w") as f:
        f.write(bug.read_text())
    live.wait_for(r"\d+ of \d+ properties pass\.")
    sandbox.set_clock(700)
    live.wait_for(r"\[10:00\] Time is up: hard stop\.")
    assert live.end() == 1
    rec = loop_record(sandbox)
    s1, s2 = rec["stages"]
    assert (s1["outcome"], s1["used_s"], s2["outcome"], s2["used_s"]) == ("passed", 90.0, "timed-out", 510.0)
    assert s2["attempted"] and 0 < s2["passed"] < s2["total"] == n_props("masked_attention")
    frozen = sandbox.state / s2["attempt"] / "final" / "masked_attention.py"
    assert frozen.read_text() == bug.read_text()  # the hard stop froze what was saved in time
    assert "Interview loop over: 1 of 5 stages passed" in live.out
    # the stage that ran out of time gets its pointer where every failed stage has one, and its name
    assert f"                 explained by: `dojo compare masked_attention --file {sandbox.shown(frozen.parent.parent)}/`" in live.out
    assert "  Stage 2: masked_attention — time ran out\n" in live.out


@pytest.mark.contributors  # live or long: the contributors' suite
def test_a_loop_closed_in_stage_two_resumes_there_and_the_closed_time_counts(
    sandbox, interview, solution
):
    live = interview("--loop", "--minutes", "10")
    pass_stage_one(sandbox, live, solution, at="1:00")
    sandbox.set_clock(120)
    live.wait_for(r"⏱ stage 2 of 5 · 2:00 used")  # persisted before it is shown
    live.proc.send_signal(signal.SIGHUP)  # the terminal window was closed
    assert live.end() == 128 + signal.SIGHUP
    assert "Interview loop paused" in live.out
    session = json.loads((sandbox.state / "interview.json").read_text())
    assert session["index"] == 1 and [s["kata"] for s in session["loop"]["stages"]] == ["softmax"]
    assert records(sandbox) == []
    sandbox.set_clock(300)  # three minutes later, by the wall clock
    r = sandbox.run("interview", "--resume", "--answer", str(solution("masked_attention")), "--at", "400")
    assert r.code == 1, r.out + r.err  # two stages of five: the answers ran out
    assert "Resumed: 5:00 used, 3:00 of it while the interview was closed; 5:00 left." in r.out
    assert "No more answers: the loop stops after stage 2." in r.out
    rec = loop_record(sandbox)
    s1, s2 = rec["stages"]
    assert (s1["outcome"], s1["used_s"]) == ("passed", 60.0)
    assert (s2["outcome"], s2["used_s"], s2["closed_s"], s2["resumed"]) == ("passed", 340.0, 180.0, 1)
    assert (rec["outcome"], rec["used_s"], rec["reached"]) == ("stopped", 400.0, 2)
    assert not (sandbox.state / "interview.json").exists()


@pytest.mark.parametrize("args,words", [
    (("--loop", "softmax", "rope"), "--loop starts from one kata"),
    (("--loop", "--random"), "--loop and --random do not go together"),
    (("--loop", "--answer", "solutions/softmax.py", "--at", "1", "--at", "2"), "one --at SECONDS per --answer"),
])
def test_bad_loop_arguments_are_usage_errors(sandbox, args, words):
    r = sandbox.run("interview", *[str(REPO / a) if a.startswith("solutions/") else a for a in args])
    assert r.code == 2 and words in r.err, r.err
    assert not (sandbox.state / "interview.json").exists()


def test_more_answers_than_stages_is_a_usage_error(sandbox, solution):
    answers = [a for _ in range(3) for a in ("--answer", str(solution("rope")))]
    r = sandbox.run("interview", "--loop", "rope", *answers)  # rope has no next question: one stage
    assert r.code == 2 and "3 --answer files, but only 1 stage to answer" in r.err, r.err


@pytest.mark.contributors  # live or long: the contributors' suite
def test_ctrl_c_in_a_loop_abandons_it_and_records_the_stages_so_far(sandbox, interview, solution):
    live = interview("--loop", "--minutes", "10", "--manual")  # --manual: no judge run until s
    live.attempt.write_text(solution("softmax").read_text())
    live.wait_for(r"saved\.")
    live.key("s")
    live.wait_for(r"Stage 1 of 5: passed")
    second = live.box.root / live.wait_for(r"Write your answer in: (\S+)").group(1)
    live.wait_for(r"⏱ stage 2 of 5")
    with open(second, "a") as f:
        f.write("\n# started on masked attention\n")
    live.wait_for(r"saved\.")
    live.proc.send_signal(signal.SIGINT)
    assert live.end() == 130
    rec = loop_record(sandbox)
    assert [(s["kata"], s["outcome"], s["ended_by"]) for s in rec["stages"]] == [
        ("softmax", "passed", "submit"), ("masked_attention", "abandoned", "interrupt")]
    assert rec["outcome"] == "abandoned" and rec["stages"][1]["attempted"]
    assert open(second).read().endswith("# started on masked attention\n")  # nothing lost
    assert not (sandbox.state / "interview.json").exists()
