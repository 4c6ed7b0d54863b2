"""The re-drill schedule's rules (dojo/state/schedule.py), in-process: no judge, no subprocess.

Every expected date below is worked out by hand from the rules in docs/state.md ("The drill
schedule"): a clean pass (passed, no hint, no --coach) in a row puts the kata 1, 3, 7, 21, then 60 days
after the calendar day of the attempt; anything else, tomorrow; an early clean pass keeps the
streak and restarts the interval.
"""

from __future__ import annotations

import datetime as dt

import pytest

from dojo.state import schedule

UTC = dt.timezone.utc
T0 = 1_800_000_000.0  # Fri 2027-01-15 08:00 UTC
DAY = 86400.0
D0 = dt.date(2027, 1, 15)


def rec(kata="softmax", at=T0, outcome="passed", hints=0, attempted=True, **more) -> dict:
    """An attempt record as dojo interview writes it (only the fields the schedule reads)."""
    return {"kata": kata, "started_at": at - 300, "ended_at": at, "outcome": outcome, "hints": hints,
            "attempted": attempted, **more}


def plan(records, now, tz=UTC):
    return schedule.schedule(records, now, tz)


def test_a_kata_never_interviewed_has_no_place_in_the_schedule():
    entries = plan([rec("rope")], T0 + DAY)
    assert set(entries) == {"rope"}
    assert schedule.most_overdue(entries, ["softmax"]) is None
    assert schedule.most_overdue(plan([], T0), ["softmax", "rope"]) is None


def test_clean_passes_on_their_due_days_space_out_1_3_7_21_60_60():
    # Each drill is made on the day the previous one fell due.
    days = [D0, dt.date(2027, 1, 16), dt.date(2027, 1, 19), dt.date(2027, 1, 26), dt.date(2027, 2, 16),
            dt.date(2027, 4, 17), dt.date(2027, 6, 16)]
    records = []
    for n, day in enumerate(days[:-1]):
        at = T0 + (day - D0).days * DAY
        records.append(rec(at=at))
        e = plan(records, at)["softmax"]
        assert (e.streak, e.due) == (n + 1, days[n + 1])
        assert e.attempts == n + 1 and e.last_at == at


@pytest.mark.parametrize("last", [
    rec(outcome="failed"),
    rec(outcome="timed-out"),
    rec(outcome="abandoned", attempted=True),
    rec(outcome="passed", hints=1),
    rec(outcome="failed", attempted=False),
    rec(outcome="passed", hints=None),  # a pass whose hints cannot be read is not known to be clean
    rec(outcome="passed", coach=True),  # --coach showed the failing inputs: not done cold
])
def test_anything_but_a_clean_pass_resets_the_streak_and_is_due_tomorrow(last):
    # two clean passes (Jan 15 and Jan 16: due Jan 19), then on Jan 19 the attempt under test
    records = [rec(at=T0), rec(at=T0 + DAY), {**last, "ended_at": T0 + 4 * DAY}]
    e = plan(records, T0 + 4 * DAY)["softmax"]
    assert (e.streak, e.due) == (0, dt.date(2027, 1, 20))
    assert e.cell() == "tomorrow"
    # and the next clean pass starts again at one day
    records.append(rec(at=T0 + 5 * DAY))
    e = plan(records, T0 + 5 * DAY)["softmax"]
    assert (e.streak, e.due) == (1, dt.date(2027, 1, 21))


def test_due_today_overdue_and_in_n_days_are_counted_in_calendar_days():
    records = [rec(at=T0), rec(at=T0 + DAY)]  # streak 2 on Jan 16: due Jan 19
    assert plan(records, T0 + DAY)["softmax"].cell() == "in 3 d"
    assert plan(records, T0 + 3 * DAY)["softmax"].cell() == "tomorrow"
    e = plan(records, T0 + 4 * DAY - 8 * 3600)["softmax"]  # Jan 19 at 00:00
    assert (e.cell(), e.overdue, e.days_left) == ("due today", 0, 0)
    e = plan(records, T0 + 7 * DAY)["softmax"]  # Jan 22
    assert (e.cell(), e.overdue) == ("overdue 3 d", 3)


def test_an_attempt_at_23_00_local_time_is_due_the_next_local_day_not_24_hours_later():
    tz = dt.timezone(dt.timedelta(hours=-5))
    late = dt.datetime(2027, 1, 15, 23, 0, tzinfo=tz).timestamp()  # 04:00 UTC on Jan 16
    records = [rec(at=late)]
    e = plan(records, late + 3600, tz)["softmax"]  # 00:00 on Jan 16, local: a new day
    assert (e.due, e.cell()) == (dt.date(2027, 1, 16), "due today")
    before = plan(records, late + 59 * 60, tz)["softmax"]  # 23:59 on Jan 15, local
    assert before.cell() == "tomorrow"
    # The same attempt read in UTC fell on Jan 16, so it is due on the 17th there: the day is local.
    assert plan(records, late + 3600, UTC)["softmax"].due == dt.date(2027, 1, 17)


def test_calendar_days_survive_a_daylight_saving_change():
    zoneinfo = pytest.importorskip("zoneinfo")
    try:
        paris = zoneinfo.ZoneInfo("Europe/Paris")
    except zoneinfo.ZoneInfoNotFoundError:
        pytest.skip("no time zone data")
    at = dt.datetime(2027, 3, 27, 23, 30, tzinfo=paris).timestamp()  # the night clocks go forward
    now = dt.datetime(2027, 3, 28, 0, 10, tzinfo=paris).timestamp()
    assert plan([rec(at=at)], now, paris)["softmax"].cell() == "due today"
    two = [rec(at=at), rec(at=now)]  # due the 28th, drilled the 28th: streak 2, three days
    assert plan(two, now, paris)["softmax"].due == dt.date(2027, 3, 31)


def test_a_drill_before_the_due_day_counts_but_a_clean_one_does_not_advance_the_streak():
    records = [rec(at=T0), rec(at=T0 + DAY)]  # streak 2, due Jan 19
    early = records + [rec(at=T0 + 2 * DAY)]  # clean, on Jan 17: early
    e = plan(early, T0 + 2 * DAY)["softmax"]
    assert (e.streak, e.due) == (2, dt.date(2027, 1, 20))  # the 3-day interval restarts from Jan 17
    failed = records + [rec(at=T0 + 2 * DAY, outcome="failed")]
    e = plan(failed, T0 + 2 * DAY)["softmax"]
    assert (e.streak, e.due) == (0, dt.date(2027, 1, 18))
    # Passing five times in one afternoon is not five days of remembering it.
    same_day = [rec(at=T0 + 60 * n) for n in range(5)]
    e = plan(same_day, T0 + 600)["softmax"]
    assert (e.streak, e.due, e.attempts) == (1, dt.date(2027, 1, 16), 5)


def test_attempts_are_taken_in_time_order_whatever_the_file_order():
    # A failure on Jan 16 written before the clean pass of Jan 15 (a hand-merged file): the
    # failure is the latest, so the streak is 0.
    records = [rec(at=T0 + DAY, outcome="failed"), rec(at=T0)]
    e = plan(records, T0 + DAY)["softmax"]
    assert (e.streak, e.due, e.last_at) == (0, dt.date(2027, 1, 17), T0 + DAY)
    # No ended_at: started_at is the time.
    e = plan([{"kata": "softmax", "started_at": T0, "outcome": "passed", "hints": 0}], T0)["softmax"]
    assert e.due == dt.date(2027, 1, 16)
    # No time at all: as when the record before it in the file was made.
    records = [rec("rope", at=T0 + 3 * DAY), {"kata": "softmax", "outcome": "passed", "hints": 0}]
    assert plan(records, T0 + 3 * DAY)["softmax"].due == dt.date(2027, 1, 19)


def test_odd_records_are_read_as_far_as_they_go_and_never_crash():
    records = [
        {"kata": 5, "ended_at": T0},  # not a kata name: skipped
        {"kata": "softmax", "ended_at": "yesterday", "started_at": float("nan"), "outcome": 7},
        {"kata": "softmax", "ended_at": 1e300, "started_at": T0 + DAY, "outcome": "passed", "hints": "none"},
        {"kata": "rope", "ended_at": float("inf"), "outcome": "passed", "hints": 0, "attempted": "yes"},
        {"kata": "masked_attention", "ended_at": True, "outcome": "passed", "hints": False},
    ]
    entries = plan(records, T0 + DAY)
    assert set(entries) == {"softmax", "rope", "masked_attention"}
    # softmax: its last record's time is started_at (ended_at 1e300 is no date); hints unreadable
    assert (entries["softmax"].streak, entries["softmax"].due) == (0, dt.date(2027, 1, 17))
    # no record before any usable time: due at once, with no date to show
    assert entries["masked_attention"].streak == 0  # hints False is not a count of 0
    for e in entries.values():
        assert isinstance(e.cell(), str)


def test_a_kata_whose_attempts_never_say_when_is_due_today():
    e = plan([{"kata": "softmax", "outcome": "failed"}], T0)["softmax"]
    assert (e.due, e.overdue, e.cell()) == (None, 0, "due today")


def test_each_stage_of_an_interview_loop_is_a_drill_of_its_kata():
    loop = {"kind": "loop", "id": "20270115-080000-loop", "stages": [
        rec("softmax", at=T0),
        rec("masked_attention", at=T0 + 600, outcome="failed"),
        "not a stage",
    ]}
    entries = plan([rec("softmax", at=T0 - DAY), loop], T0 + DAY)
    assert (entries["softmax"].streak, entries["softmax"].due) == (2, dt.date(2027, 1, 18))
    assert (entries["masked_attention"].streak, entries["masked_attention"].cell()) == (0, "due today")


def test_the_most_overdue_kata_is_suggested_then_the_one_drilled_longest_ago():
    order = ["softmax", "masked_attention", "rope"]
    records = [
        rec("rope", at=T0, outcome="failed"),  # due Jan 16
        rec("softmax", at=T0 + DAY, outcome="failed"),  # due Jan 17
        rec("masked_attention", at=T0 + DAY + 60, outcome="failed"),  # due Jan 17
    ]
    entries = plan(records, T0 + 3 * DAY)  # Jan 18
    assert schedule.most_overdue(entries, order).kata == "rope"  # 2 days overdue
    # 1 d overdue each: the one drilled longest ago, whatever the order
    assert schedule.most_overdue(entries, ["masked_attention", "softmax"]).kata == "softmax"
    del entries["rope"], entries["softmax"]
    assert schedule.most_overdue(entries, order).kata == "masked_attention"
    # When nothing is due: the one that falls due first.
    entries = plan(records, T0)
    assert schedule.most_overdue(entries, order) is None
    assert schedule.next_due(entries, order).kata == "rope"
