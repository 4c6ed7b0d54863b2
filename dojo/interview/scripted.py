"""The scripted interview (``--answer FILE [--at SECONDS]``, once per problem or loop stage):
the answer is copied in at that clock time, judged and submitted; an answer due at or after
the limit meets the hard stop instead. Used by the tool's tests and to replay an attempt."""

from __future__ import annotations

import signal
from pathlib import Path

from dojo.cli import UsageError, shown
from dojo.interview.attempt import Attempt, write_bytes
from dojo.interview.finish import Ended, finish
from dojo.interview.live import warnings
from dojo.interview.screen import clock_text
from dojo.render import line


def play(iv, a: Attempt, answer: Path, at: float | None) -> Ended:
    e0 = a.elapsed()
    at = e0 if at is None else at
    if at < e0:
        raise UsageError(f"--at {at:g}: the clock already shows {clock_text(e0)}.")
    a.observe()  # the file as it stands is what the interview sees until the answer
    limit = a.problem.limit_s
    warnings(iv, a, min(at, limit), now_words=False)
    data = answer.read_bytes()
    if at >= limit:
        iv.say(line(iv.env, (f"[{clock_text(limit)}] Time is up: hard stop.", "red bold")))
        frozen = a.seen_bytes
        write_bytes(a.path, data)
        iv.say(f"The answer arrived at {clock_text(at)}, after the hard stop: it is copied into "
               f"{a.path} but not graded.")
        return finish(iv, a, "time", limit, frozen=frozen)
    write_bytes(a.path, data)
    iv.say(f"[{clock_text(at)}] answer copied in from {shown(iv.env, answer)}")
    a.stopped_at = at  # the scripted clock stands still at the answer
    a.observe()
    graded = None
    if iv.session.watch and not a.untouched(data):
        graded = iv.judging.check(a)
    if iv.signals.got == signal.SIGINT:
        iv.say(line(iv.env, ("Ctrl-C: the interview is abandoned.", "yellow")))
        return finish(iv, a, "interrupt", at)
    iv.say(f"[{clock_text(at)}] submitted.")
    return finish(iv, a, "submit", at, frozen=data, graded=graded)
