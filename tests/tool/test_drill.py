"""``dojo drill`` and the *next drill* column of ``dojo``, driven through the real entry point.

The month test runs scripted interviews (``--answer FILE --at SECONDS``) through ``dojo drill``
over five simulated weeks with the fake clock (``now = 1_800_000_000 + clock``: day 0 is Fri
2027-01-15, 08:00 UTC). Every expected due date in it is worked out by hand from the rules in
docs/state.md ("The drill schedule"), in the comments beside it. TZ is set for every run so
that calendar days are the test's, not the machine's.
"""

from __future__ import annotations

import hashlib
import json
import re

import pytest

from tests.tool.harness import REPO

DAY = 86400
UTC = {"TZ": "UTC"}


@pytest.fixture
def box(sandbox):
    sandbox.state.mkdir()
    return sandbox


def run(box, *args):
    return box.run(*args, env=UTC)


def next_drill(out: str) -> dict[str, str]:
    """The progress table's *next drill* column: {kata: cell}."""
    header = next(line for line in out.splitlines() if "next drill" in line)
    start, end = header.index("next drill"), header.index("best interview")
    cells = {}
    for line in out.splitlines():
        match = re.match(r"^  \d+\. (\w+) ", line)
        if match:
            cells[match.group(1)] = line[start:end].strip()
    return cells


def others(cells: dict[str, str], *named: str) -> set[str]:
    return {cell for kata, cell in cells.items() if kata not in named}


def records(box) -> list[dict]:
    path = box.state / "history.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def katas_digest(box) -> dict[str, str]:
    return {p.name: hashlib.sha1(p.read_bytes()).hexdigest() for p in sorted((box.root / "katas").glob("*.py"))}


def practice(box, *passed: str) -> None:
    """state.json in which these katas pass in practice, with the verdict's file in katas/."""
    katas = {m: {"verdict": {"state": "passed", "passed": 5, "total": 5, "first_failure": None, "at": 1.8e9,
                             "sha256": box.worked_on(m, "passed")},
                 "hints_used": 0, "solved": True, "gave_up": False, "revealed": False} for m in passed}
    (box.state / "state.json").write_text(json.dumps({"version": 1, "welcomed": True, "katas": katas}))


@pytest.mark.contributors  # live or long: the contributors' suite
def test_a_simulated_month_of_drills(box, solution, wrong):
    sol = {k: str(solution(k)) for k in ("softmax", "masked_attention")}
    bad = {"softmax": str(wrong("softmax", "lets_nan_through")),
           "masked_attention": str(wrong("masked_attention", "inverted_mask"))}
    practice(box, "softmax", "rope")
    untouched = katas_digest(box)

    def at(day: float, minutes: float = 0) -> None:
        box.set_clock(day * DAY + minutes * 60)

    def drill(*args: str, kata: str, code: int) -> str:
        r = run(box, "drill", *args)
        assert r.code == code, r.out + r.err
        assert re.search(rf"^Drill: {kata} — ", r.out, re.M), r.out
        assert f"your katas/{kata}.py is not touched" in r.out
        return r.out

    def dojo() -> tuple[dict[str, str], str]:
        r = run(box)
        assert r.code == 0 and r.err == "", r.out + r.err
        return next_drill(r.out), r.out

    # Day 0, Fri Jan 15. Nothing has been interviewed: nothing is due, nothing starts.
    at(0)
    r = run(box, "drill")
    assert r.code == 0, r.err
    assert "Nothing to drill yet" in r.out
    assert "Passed in practice, never interviewed: softmax, rope. `dojo drill softmax`" in r.out
    assert not (box.state / "history.jsonl").exists() and not (box.state / "attempts").exists()
    cells, out = dojo()
    assert set(cells.values()) == {"—"} and "Due for a drill" not in out

    out = drill("softmax", "--answer", sol["softmax"], "--at", "60", kata="softmax", code=0)
    assert "its first interview" in out
    assert "Schedule: softmax again tomorrow (Sat 2027-01-16). This drill: a clean pass, 1 in a row." in out
    at(0, 10)
    out = drill("masked_attention", "--answer", bad["masked_attention"], "--at", "60", kata="masked_attention", code=1)
    assert ("Schedule: masked_attention again tomorrow (Sat 2027-01-16). "
            "This drill: failed, so the streak starts again from 0.") in out
    cells, out = dojo()
    assert (cells["softmax"], cells["masked_attention"]) == ("tomorrow", "tomorrow")
    assert others(cells, "softmax", "masked_attention") == {"—"} and "Due for a drill" not in out
    r = run(box, "drill")
    assert r.code == 0 and len(records(box)) == 2
    assert "Nothing is due today. Next: softmax, due tomorrow (Sat 2027-01-16)." in r.out
    assert "Passed in practice, never interviewed: rope." in r.out

    # Day 1, Sat Jan 16: both due; softmax was drilled first, so it goes first.
    at(1)
    cells, out = dojo()
    assert (cells["softmax"], cells["masked_attention"]) == ("due today", "due today")
    assert "Due for a drill: softmax (due today), masked_attention (due today)." in out
    assert re.search(r"^  dojo drill +an interview on softmax, the most overdue", out, re.M)
    out = drill("--answer", sol["softmax"], "--at", "60", kata="softmax", code=0)
    assert "Schedule: softmax again in 3 d (Tue 2027-01-19). This drill: a clean pass, 2 in a row." in out

    # Day 3, Mon Jan 18: masked_attention (due Jan 16) is 2 days overdue.
    at(3)
    cells, out = dojo()
    assert (cells["softmax"], cells["masked_attention"]) == ("tomorrow", "overdue 2 d")
    assert "Due for a drill: masked_attention (overdue 2 d)." in out
    out = drill("--answer", sol["masked_attention"], "--at", "60", kata="masked_attention", code=0)
    assert "overdue 2 d (last drilled Fri 2027-01-15: failed; 0 clean passes in a row)" in out
    assert "again tomorrow (Tue 2027-01-19). This drill: a clean pass, 1 in a row." in out

    # Day 4, Tue Jan 19: both due; softmax (last drilled Jan 16) first. The answer comes after
    # the hard stop: no attempt, back to tomorrow. Then masked_attention.
    at(4)
    cells, _ = dojo()
    assert (cells["softmax"], cells["masked_attention"]) == ("due today", "due today")
    out = drill("--answer", sol["softmax"], "--at", "700", kata="softmax", code=1)
    assert "Schedule: softmax again tomorrow (Wed 2027-01-20). This drill: no attempt, so the streak starts" in out
    at(4, 10)
    out = drill("--answer", sol["masked_attention"], "--at", "60", kata="masked_attention", code=0)
    assert "again in 3 d (Fri 2027-01-22). This drill: a clean pass, 2 in a row." in out

    # Days 5 and 6: softmax climbs back (1 day, then 3).
    at(5)
    assert dojo()[0]["softmax"] == "due today"
    out = drill("--answer", sol["softmax"], "--at", "60", kata="softmax", code=0)
    assert "again tomorrow (Thu 2027-01-21). This drill: a clean pass, 1 in a row." in out
    at(6)
    cells, _ = dojo()
    assert (cells["softmax"], cells["masked_attention"]) == ("due today", "tomorrow")
    out = drill("--answer", sol["softmax"], "--at", "60", kata="softmax", code=0)
    assert "again in 3 d (Sun 2027-01-24)" in out

    # Day 7, Fri Jan 22: masked_attention's third clean pass: a week.
    at(7)
    cells, _ = dojo()
    assert (cells["softmax"], cells["masked_attention"]) == ("in 2 d", "due today")
    out = drill("--answer", sol["masked_attention"], "--at", "60", kata="masked_attention", code=0)
    assert "again in 7 d (Fri 2027-01-29). This drill: a clean pass, 3 in a row." in out

    # Day 9, Sun Jan 24: softmax's third: a week.
    at(9)
    out = drill("--answer", sol["softmax"], "--at", "60", kata="softmax", code=0)
    assert "again in 7 d (Sun 2027-01-31)" in out

    # Day 10, Mon Jan 25: nothing is due. A drill asked for early counts, but does not climb.
    at(10)
    cells, out = dojo()
    assert (cells["softmax"], cells["masked_attention"]) == ("in 6 d", "in 4 d")
    assert "Due for a drill" not in out
    r = run(box, "drill")
    assert r.code == 0 and "Nothing is due today. Next: masked_attention, due in 4 d (Fri 2027-01-29)." in r.out
    out = drill("masked_attention", "--answer", sol["masked_attention"], "--at", "60", kata="masked_attention", code=0)
    assert "not due until Fri 2027-01-29" in out and "Drilling early" in out
    assert ("Schedule: masked_attention again in 7 d (Mon 2027-02-01). "
            "This drill: a clean pass ahead of its day, so the streak stays at 3.") in out

    # Day 30, Sun Feb 14: a fortnight away. softmax (due Jan 31) is 14 days overdue,
    # masked_attention (due Feb 1) 13: softmax first, and it has been forgotten.
    at(30)
    cells, out = dojo()
    assert (cells["softmax"], cells["masked_attention"]) == ("overdue 14 d", "overdue 13 d")
    assert "Due for a drill: softmax (overdue 14 d), masked_attention (overdue 13 d)." in out
    out = drill("--answer", bad["softmax"], "--at", "60", kata="softmax", code=1)
    assert "Schedule: softmax again tomorrow (Mon 2027-02-15). This drill: failed" in out
    cells, out = dojo()
    assert (cells["softmax"], cells["masked_attention"]) == ("tomorrow", "overdue 13 d")
    assert "Due for a drill: masked_attention (overdue 13 d)." in out

    # Twelve interviews, every one from a blank stub in its own attempt folder; katas/ untouched.
    recs = records(box)
    assert len(recs) == 12
    assert [r["kata"] for r in recs] == ["softmax", "masked_attention", "softmax", "masked_attention", "softmax",
                                         "masked_attention", "softmax", "softmax", "masked_attention", "softmax",
                                         "masked_attention", "softmax"]
    assert len({r["attempt"] for r in recs}) == 12
    assert all((box.state / r["attempt"] / f"{r['kata']}.py").is_file() for r in recs)
    assert katas_digest(box) == untouched


def test_calendar_days_are_the_local_ones(box):
    # A clean pass at 23:30 in Tokyo on Jan 15 (14:30 UTC): at 00:10 the next morning in Tokyo
    # it is due; for someone in UTC the same instant is still Jan 15, so it is due tomorrow.
    ended = 1_800_000_000 + 6.5 * 3600
    (box.state / "history.jsonl").write_text(json.dumps(
        {"kata": "softmax", "started_at": ended - 600, "ended_at": ended, "outcome": "passed", "hints": 0,
         "attempted": True, "used_s": 600.0, "limit_s": 600.0}) + "\n")
    box.set_clock(6.5 * 3600 + 40 * 60)
    tokyo = box.run("list", env={"TZ": "Asia/Tokyo"})
    assert next_drill(tokyo.out)["softmax"] == "due today", tokyo.out + tokyo.err
    assert next_drill(box.run("list", env=UTC).out)["softmax"] == "tomorrow"


def test_loop_stages_and_odd_records_are_read_and_never_crash(box):
    lines = [
        {"kind": "loop", "id": "20270115-080000-loop", "kata": "rope", "stages": [
            {"kata": "rope", "ended_at": 1.8e9, "outcome": "passed", "hints": 0, "attempted": True},
            {"kata": "masked_attention", "ended_at": 1.8e9 + 900, "outcome": "timed-out", "hints": 0},
            17,
        ]},
        {"kata": "softmax", "ended_at": "noon", "started_at": None, "outcome": 3, "hints": "x"},
        {"kata": 5},
        {"kata": "no_such_kata", "ended_at": 1.8e9, "outcome": "failed"},
    ]
    (box.state / "history.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    box.set_clock(DAY)
    r = run(box)
    assert r.code == 0 and r.err == "", r.out + r.err
    cells = next_drill(r.out)
    # the loop's stages: rope passed clean on Jan 15 (due Jan 16), masked_attention timed out
    assert (cells["rope"], cells["masked_attention"]) == ("due today", "due today")
    # an attempt that does not say when counts as made with the record before it (Jan 15)
    assert cells["softmax"] == "due today"
    assert "no_such_kata" not in r.out
    # rope was drilled longest ago (the loop's first stage), then the registry's order
    assert "Due for a drill: rope (due today), softmax (due today), masked_attention (due today)." in r.out


def test_bad_drill_arguments_are_usage_errors(box):
    r = run(box, "help", "drill")
    assert r.code == 0 and r.out.startswith("usage: dojo drill")
    assert all(flag in r.out for flag in ("--minutes", "--coach", "--manual", "--answer", "--at", "--loop"))
    r = run(box, "drill", "sofmax")
    assert r.code == 2 and "Did you mean 'softmax'" in r.err
    for flag, value in (("--minutes", "nan"), ("--minutes", "0"), ("--at", "-1"), ("--at", "inf")):
        r = run(box, "drill", "softmax", flag, value)
        assert r.code == 2 and r.err.startswith("usage: dojo drill"), (flag, value, r.err)
    r = run(box, "drill", "softmax", "--at", "30")
    assert r.code == 2 and "--at SECONDS goes with --answer FILE" in r.err
    assert not (box.state / "history.jsonl").exists() and not (box.state / "attempts").exists()


@pytest.mark.contributors  # live or long: the contributors' suite
def test_drill_loop_runs_the_interview_loop_from_the_most_overdue_kata(box, solution, wrong):
    # Day 0: masked_attention fails (due day 1); softmax passes clean (due day 1 as well, but
    # it was drilled later that day, so masked_attention is the one drilled longest ago).
    r = run(box, "drill", "masked_attention", "--answer", str(wrong("masked_attention", "inverted_mask")))
    assert r.code == 1, r.out + r.err
    box.set_clock(600)
    r = run(box, "drill", "softmax", "--answer", str(solution("softmax")))
    assert r.code == 0, r.out + r.err
    untouched = katas_digest(box)
    box.set_clock(DAY + 600)
    r = run(box, "drill", "--loop", "--answer", str(solution("masked_attention")), "--at", "60",
            "--answer", str(solution("causal_self_attention")), "--at", "200")
    assert r.code == 1, r.out + r.err  # two stages of four answered: the loop stops there
    assert re.search(r"^Drill: masked_attention — overdue|^Drill: masked_attention — due today", r.out, re.M), r.out
    assert "Interview loop, stage 1 of 4: Masked scaled dot-product attention" in r.out
    assert "No more answers: the loop stops after stage 2." in r.out
    loop = records(box)[-1]
    assert loop["kind"] == "loop" and [s["kata"] for s in loop["stages"]] == [
        "masked_attention", "causal_self_attention"]
    assert [s["outcome"] for s in loop["stages"]] == ["passed", "passed"]
    # each stage is a drill of its kata: both are now on the schedule, one clean pass in a row
    assert "Schedule: masked_attention again tomorrow" in r.out
    assert "Schedule: causal_self_attention again tomorrow" in r.out
    assert katas_digest(box) == untouched


def test_a_drill_while_an_interview_is_open_points_to_resume(box):
    live = box.popen("interview", "rope")
    try:
        for line in live.stdout:  # the attempt folder exists once this is printed
            if line.startswith("Write your answer in:"):
                break
    finally:
        live.kill()  # the terminal is gone: the interview stays open
        live.wait()
    assert (box.state / "interview.json").exists()
    r = run(box, "drill", "softmax")
    assert r.code == 2 and "an interview (rope) is still open" in r.err and "--resume" in r.err
    assert "Drill:" not in r.out  # no promise of a blank stub that is not coming
    assert not records(box)
