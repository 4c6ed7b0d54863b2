"""The re-drill schedule: when each kata is due for another interview, derived from history alone.

Nothing is stored: every call reads the attempt records (``history.attempts``, so each stage
of an interview loop counts as an attempt of its kata) and a "now", and works out, per kata:

- **the streak**: clean passes in a row. A *clean pass* is a record with ``outcome`` "passed",
  ``hints`` 0, ``attempted`` not false and ``coach`` not true (done cold: --coach shows the
  failing inputs). Anything else (failed, timed-out, abandoned, no attempt, a pass with a
  hint or with --coach, a record whose hints cannot be read) sets the streak to 0;
- **the due date**: the local calendar day of the last attempt plus the interval: 1, 3, 7, 21,
  then 60 days for a streak of 1, 2, 3, 4, 5 or more; 1 day (tomorrow) for a streak of 0.
  Days are calendar days in local time: an attempt at 23:00 is due again the next day;
- **early drills**: an attempt made before the kata was due still counts. A failure resets
  the streak as always; a clean pass keeps the streak where it was (it does not advance it:
  only a pass on or after the due day shows the kata stuck over the interval) and the
  interval restarts from that day.

Attempts are taken oldest first by ``ended_at`` (else ``started_at``); a record with neither
counts as made when the record before it in the file was, and keeps its place in the file.
The rules, with a worked example, are in docs/state.md ("The drill schedule").
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass

from dojo.state import history
from dojo.catalogue import registry

#: days until the next drill after 1, 2, 3, 4 and 5 (or more) clean passes in a row
INTERVALS = (1, 3, 7, 21, 60)


def interval(streak: int) -> int:
    """Days from an attempt to the next drill, for the streak that attempt left."""
    return INTERVALS[min(max(streak, 1), len(INTERVALS)) - 1]


def local_day(seconds: float | None, tz: dt.tzinfo | None = None) -> dt.date | None:
    """The calendar day (local time, or ``tz``) of a wall-clock time; None when it is no time."""
    if seconds is None:
        return None
    try:
        return dt.datetime.fromtimestamp(seconds, tz).date()
    except (OverflowError, OSError, ValueError):
        return None


def when(record: dict, tz: dt.tzinfo | None = None) -> float | None:
    """When the attempt was made: ``ended_at``, else ``started_at``, if it is a usable time."""
    for key in ("ended_at", "started_at"):
        t = history.finite(record.get(key))
        if t is not None and local_day(t, tz) is not None:
            return float(t)
    return None


def clean_pass(record: dict) -> bool:
    """Passed in time, cold: no hint, no --coach (a record that does not say how many hints is
    not clean)."""
    hints = history.finite(record.get("hints"))
    return (record.get("outcome") == "passed" and record.get("attempted") is not False and hints == 0
            and record.get("coach") is not True)


def result_words(record: dict) -> str:
    """What the attempt was, in the schedule's terms: ``clean pass``, ``passed with 2 hints``, …"""
    outcome = record.get("outcome")
    if clean_pass(record):
        return _words("schedule.clean-pass")
    if outcome == "passed":
        hints = history.finite(record.get("hints"))
        if record.get("coach") is True and hints == 0:
            return _words("schedule.passed-coach")
        if hints is None:
            return _words("schedule.passed-hints-unknown")
        return _words("schedule.passed-hints." + ("one" if hints == 1 else "many"), hints=f"{hints:g}")
    if record.get("attempted") is False:
        return _words("report.no-attempt")
    if outcome in ("failed", "timed-out", "abandoned"):
        return _words(f"report.result.{outcome}")
    return _words("schedule.unknown-result")


def _words(id: str, **params) -> str:
    """A sentence of the catalogue in the tool's language (``dojo.text.messages``)."""
    from dojo.text.messages import message, text

    return text(message(id, **params))


@dataclass
class Entry:
    """One kata's place in the schedule, as of ``today``."""

    kata: str
    today: dt.date
    #: clean passes in a row, as the rules count them
    streak: int = 0
    #: attempts of this kata in the history
    attempts: int = 0
    #: when the latest attempt was made (None: no record of this kata says when)
    last_at: float | None = None
    #: the latest attempt's record
    last: dict | None = None
    #: the local day it is due again; None when no attempt says when (then it counts as due today)
    due: dt.date | None = None

    @property
    def overdue(self) -> int | None:
        """Days past the due day (0: due today), or None while it is not due yet."""
        if self.due is None:
            return 0
        days = (self.today - self.due).days
        return days if days >= 0 else None

    @property
    def days_left(self) -> int:
        """Days until it is due (0 once it is due)."""
        return 0 if self.due is None else max(0, (self.due - self.today).days)

    def cell(self) -> str:
        """The progress table's *next drill* cell."""
        if self.overdue == 0:
            return _words("schedule.due-today")
        if self.overdue:
            return _words("schedule.overdue", days=self.overdue)
        return _words("schedule.tomorrow") if self.days_left == 1 else _words("schedule.in-days", days=self.days_left)


def schedule(records: list[dict], now: float, tz: dt.tzinfo | None = None) -> dict[str, Entry]:
    """Per kata named in ``records`` (history.jsonl as read), its place in the schedule at ``now``."""
    today = local_day(now, tz) or dt.date.today()
    timed = []
    previous = None  # the time of the record before, for a record that does not say
    for n, record in enumerate(history.attempts(records)):
        t = when(record, tz)
        previous = t = previous if t is None else t
        if isinstance(record.get("kata"), str):
            timed.append((-math.inf if t is None else t, n, t, record))
    timed.sort(key=lambda item: item[:2])
    entries: dict[str, Entry] = {}
    for _, _, t, record in timed:
        e = entries.setdefault(record["kata"], Entry(kata=record["kata"], today=today))
        day = local_day(t, tz)
        early = day is not None and e.due is not None and e.attempts > 0 and day < e.due
        if not clean_pass(record):
            e.streak = 0
        elif not early:
            e.streak += 1
        e.attempts += 1
        e.last_at, e.last = t, record
        e.due = None if day is None else day + dt.timedelta(days=interval(e.streak))
    return entries


def for_env(env) -> dict[str, Entry]:
    """The schedule of this state folder's history, now."""
    return schedule(history.read(env), env.now())


def drillable(env) -> list[str]:
    """The katas that can be drilled (those with a judge), in the registry's order."""
    return [k.module for k in registry.KATAS if env.test_file(k).is_file()]


def most_overdue(entries: dict[str, Entry], order: list[str]) -> Entry | None:
    """The due kata (among ``order``) that is most days overdue; on a tie, the one drilled
    longest ago, then the first in ``order``. None when nothing is due."""
    due = [e for e in entries.values() if e.kata in order and e.overdue is not None]
    if not due:
        return None
    return min(due, key=lambda e: (-e.overdue, -math.inf if e.last_at is None else e.last_at, order.index(e.kata)))


def next_due(entries: dict[str, Entry], order: list[str]) -> Entry | None:
    """The kata (among ``order``) that falls due soonest, once nothing is due."""
    waiting = [e for e in entries.values() if e.kata in order and e.overdue is None]
    return min(waiting, key=lambda e: (e.due, order.index(e.kata)), default=None)
