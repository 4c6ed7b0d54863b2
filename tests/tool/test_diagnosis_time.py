"""The diagnosis's limits count the judge's CPU time, not the clock: on a busy machine the judge
waits, and a wall-clock budget (1.5 s) dropped the "behaves like" line at load 7 or so, so the
same answer was named or not by chance."""

import time
from pathlib import Path

from dojo.judge.diagnosis import diagnose
from dojo.worker.loader import load_kata

WRONG = Path(__file__).resolve().parents[1] / "katas" / "softmax" / "wrong"


def test_an_answer_whose_calls_wait_is_still_named():
    """Each call of this answer waits 0.1 s without computing, as a call does when the machine is
    busy: dozens of calls take seconds of the clock and almost no CPU time, and the answer is
    named as the bug it has."""
    wrong = load_kata(WRONG / "global_max_shift.py", "softmax")

    def waits_then_answers(**kwargs):
        time.sleep(0.1)
        return wrong(**kwargs)

    started = time.monotonic()
    found = diagnose("softmax", "softmax", waits_then_answers, [])
    assert time.monotonic() - started > 1.5, "the answer's calls did not wait: nothing was tested"
    assert found is not None and found.stems == ("global_max_shift",), found


def test_a_call_that_sleeps_is_still_stopped_by_the_clock():
    """CPU time does not pass while a call sleeps: the clock's backstop ends it."""
    from dojo.judge import diagnosis

    started = time.monotonic()
    outcome = diagnosis.behaviour(lambda **kw: time.sleep(60), {"x": 1.0})
    assert outcome.status == "timeout" and time.monotonic() - started < 30, outcome
