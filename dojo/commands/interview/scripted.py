"""The scripted interview (``--answer FILE [--at SECONDS]``, once per problem or loop stage):
the answer is copied in at that clock time, judged and submitted; an answer due at or after
the limit meets the hard stop instead. Used by the tool's tests and to replay an attempt."""

from __future__ import annotations

import signal
from pathlib import Path

from dojo.commands.cli import UsageError, shown, words
from dojo.commands.interview.attempt import Attempt, write_bytes
from dojo.commands.interview.finish import Ended, finish
from dojo.commands.interview.live import warnings
from dojo.commands.interview.screen import clock_text
from dojo.screens.render import line


def play(iv, a: Attempt, answer: Path, at: float | None) -> Ended:
    e0 = a.elapsed()
    at = e0 if at is None else at
    if at < e0:
        raise UsageError(words("interview.usage.at-before-now", at=f"{at:g}", clock=clock_text(e0)))
    a.observe()  # the file as it stands is what the interview sees until the answer
    limit = a.problem.limit_s
    warnings(iv, a, min(at, limit), now_words=False)
    data = answer.read_bytes()
    if at >= limit:
        iv.say(line(iv.env, (words("interview.time-up", limit=clock_text(limit)), "red bold")))
        frozen = a.seen_bytes
        write_bytes(a.path, data)
        iv.say(words("interview.scripted.late", at=clock_text(at), path=shown(iv.env, a.path)))
        return finish(iv, a, "time", limit, frozen=frozen)
    write_bytes(a.path, data)
    iv.say(words("interview.scripted.copied", at=clock_text(at), file=shown(iv.env, answer)))
    a.stopped_at = at  # the scripted clock stands still at the answer
    a.observe()
    graded = None
    if iv.session.watch and not a.untouched(data):
        graded = iv.judging.check(a)
    if iv.signals.got == signal.SIGINT:
        iv.say(line(iv.env, (words("interview.ctrl-c"), "yellow")))
        return finish(iv, a, "interrupt", at)
    iv.say(words("interview.scripted.submitted", at=clock_text(at)))
    return finish(iv, a, "submit", at, frozen=data, graded=graded)
