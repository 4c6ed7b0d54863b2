"""How one problem ends: submit, abandon, Ctrl-C, or the hard stop, and the record it leaves.

**The hard stop freezes the file**: when the clock reaches the limit, the file *as the
interview last saw it before the deadline* (``Attempt.seen_bytes``; a save that lands later
does not count) is written to ``final/<kata>.py`` and that copy is graded (`hard_stop`, then
`finish`). A submission freezes the file as it was when ``s`` was pressed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from dojo.commands.interview.attempt import Attempt, read_bytes, sha, soft_write
from dojo.commands.interview.report import score
from dojo.commands.interview.screen import clock_text
from dojo.commands.cli.common import shown, words
from dojo.screens.render import line

RECORD_VERSION = 1


@dataclass
class Ended:
    """A problem that ended: its history record, the graded copy and the properties' results."""

    record: dict
    final: Path | None
    properties: list | None
    clock: float  #: the interview clock when it ended (at most the limit)


def hard_stop(iv, a: Attempt, closed: bool = False) -> Ended:
    limit = a.problem.limit_s
    iv.screen.clear()
    iv.say()
    iv.say(line(iv.env, (words("interview.time-up", limit=clock_text(limit)), "red bold")))
    if closed:
        iv.say(words("interview.time-up.while-closed"))
    return finish(iv, a, "time", limit, frozen=a.seen_bytes)


def finish(iv, a: Attempt, ended_by: str, clock: float, frozen: bytes | None = None,
           graded: dict | None = None) -> Ended:
    """Freeze (on submit or time), grade and record the problem; ``clock`` is when it ended."""
    iv.screen.clear()
    env, kata, p = iv.env, a.kata, a.problem
    final = None
    if ended_by in ("submit", "time"):
        final = a.folder / "final" / f"{kata.module}.py"
        kept = soft_write(env, final, frozen)
        attempted = not a.untouched(frozen)
        if attempted and graded is None:
            if sha(frozen) == p.judged and p.verdict:
                graded = p.verdict
            else:
                iv.say(words("interview.grading", path=final))
                graded = iv.judging.grade(a, frozen, final if kept else None)
        if not kept:
            final = None
        if graded is not None and graded.get("state") == "not-started":
            attempted = False
        passed = bool(graded) and graded.get("state") == "passed"
        outcome = ("passed" if passed else "failed") if ended_by == "submit" else "timed-out"
    else:
        attempted = not a.untouched(a.seen_bytes)
        graded = p.verdict if attempted else None
        outcome = "abandoned"
    if read_bytes(a.path) is None and a.seen_bytes is not None and not a.path.exists():
        # the attempt file was deleted during the problem: the report's "attempt" path gets
        # back what the interview last saw, so it points to the answer, not to nothing
        if soft_write(env, a.path, a.seen_bytes):
            iv.say(line(env, (words("interview.file-put-back", path=shown(env, a.path)), "yellow")))
    graded = graded or {}
    # A loop stage's time runs from where the loop's clock stood when it started.
    limit = p.limit_s - p.stage_start_s
    used = min(clock, p.limit_s) - p.stage_start_s
    rec = {
        "v": RECORD_VERSION,
        "id": p.id,
        "kata": kata.module,
        "started_at": p.started_at,
        "ended_at": env.now(),
        "limit_s": limit,
        "used_s": round(used, 1),
        "outcome": outcome,
        "ended_by": ended_by,
        "attempted": attempted,
        "state": graded.get("state"),
        "passed": graded.get("passed", 0),
        "total": graded.get("total", 0),
        "first_failure": graded.get("first_failure"),
        "diagnosis": graded.get("diagnosis"),
        "judge_runs": p.judge_runs,
        "hints": p.hints,
        "score": None,
        "coach": bool(iv.session.coach),
        "scripted": iv.scripted,
        "resumed": p.resumed,
        "closed_s": round(p.closed_s, 1),
        "attempt": p.folder,
    }
    if attempted and outcome != "abandoned":
        rec["score"] = score(rec["passed"], rec["total"], rec["hints"], used, limit, outcome == "passed")
    return Ended(rec, final, graded.get("properties"), min(clock, p.limit_s))
