"""The live interview: keys, the clock and the countdown line, until the problem ends.

Keys: ``s`` submit, ``t`` run the tests now, ``h`` hint (costs points), ``q`` abandon (asks
first). The attempt file is polled (content hash) every TICK and judged once it has held
still for the debounce time. Ctrl-C abandons; a hang-up or terminate detaches (the interview
stays open for --resume). The clock reaching the limit is the hard stop (finish.py).
"""

from __future__ import annotations

import signal
import time

from dojo.commands.interview.attempt import Attempt
from dojo.commands.interview.finish import Ended, finish, hard_stop
from dojo.commands.interview.report import HINT_COST
from dojo.commands.interview.screen import Detached, clock_text
from dojo.text import locale, screen
from dojo.commands.cli.common import shown, words
from dojo.screens.render import STATE_LABELS, line, pass_count

TICK = 0.05  #: seconds between looks at the keys, the clock and the attempt file


def keys_words() -> str:
    """The keys of a running problem: ``s submit · t test · h hint · q abandon``."""
    return words("interview.keys")


def play(iv, a: Attempt) -> Ended:
    noticed = a.problem.seen
    changed_at = time.monotonic()
    pending = None  # ("submit", frozen bytes, summary) or ("abandon",): waiting for y/n
    clock = Clock(iv, a)
    limit = a.problem.limit_s
    gone = Gone(iv, a)
    while True:
        got, iv.signals.got = iv.signals.got, None
        if got == signal.SIGINT:
            iv.say()
            iv.say(line(iv.env, (words("interview.ctrl-c"), "yellow"), words("interview.ctrl-c.kept")))
            return finish(iv, a, "interrupt", a.elapsed())
        if got is not None:
            raise Detached(got)
        e = a.elapsed()
        if e >= limit:
            return hard_stop(iv, a)
        clock.tick(e, asking=pending is not None)
        key = iv.keys.poll(TICK)
        if iv.signals.got is not None or a.elapsed() >= limit:
            continue
        if pending is not None and key is not None:
            if key in ("y", "Y"):
                if pending[0] == "abandon":
                    return finish(iv, a, "abandon", a.elapsed())
                return finish(iv, a, "submit", a.elapsed(), frozen=pending[1], graded=pending[2])
            pending = None
            iv.say(words("interview.carrying-on"))
            continue
        if key in ("q", "Q"):
            pending = ("abandon",)
            iv.say(words("interview.ask.abandon"))
        elif key in ("h", "H"):
            hint(iv, a)
        elif key in ("t", "T"):
            a.observe()
            noticed = a.problem.seen
            iv.judging.test_now(a)
        elif key in ("s", "S"):
            a.observe()
            noticed = a.problem.seen
            frozen = a.seen_bytes
            if a.untouched(frozen):
                pending = ("submit", frozen, None)
                iv.say(words("interview.ask.submit-untouched"))
                continue
            pressed = a.elapsed()
            summary = iv.judging.test_now(a, follow=False)
            if summary["state"] == "passed":  # submitted when s was pressed, however long the judge took
                return finish(iv, a, "submit", pressed, frozen=frozen, graded=summary)
            if a.elapsed() >= limit:
                continue
            pending = ("submit", frozen, summary)
            iv.say(words("interview.ask.submit-failing", count=pass_count(summary["passed"], summary["total"])))
        if a.observe():
            changed_at = time.monotonic()
        gone.look()
        if a.problem.seen != noticed and time.monotonic() - changed_at >= iv.debounce:
            noticed = a.problem.seen
            if iv.session.watch:
                iv.judging.check(a)
            else:
                iv.say(words("interview.saved-unjudged", clock=clock_text(a.elapsed())))


class Gone:
    """The attempt file deleted (or moved) while the clock runs: said once, when it has stayed
    away a moment (an editor's save that replaces the file is not a deletion), with what to do."""

    def __init__(self, iv, a: Attempt):
        self.iv, self.a = iv, a
        self.since: float | None = None
        self.said = False

    def look(self) -> None:
        if self.a.path.is_file():
            self.since, self.said = None, False
        elif self.since is None:
            self.since = time.monotonic()
        elif not self.said and time.monotonic() - self.since >= max(0.5, self.iv.debounce):
            self.said = True
            self.iv.say(line(self.iv.env, (words("interview.file-gone", clock=clock_text(self.a.elapsed()),
                                                 file=shown(self.iv.env, self.a.path)), "yellow")))


def keys_help(asking: bool) -> str:
    """The keys that do something now: while a [y/N] question is up, only its answers."""
    return words("interview.keys.asking") if asking else keys_words()


def hint(iv, a: Attempt) -> None:
    hints, p = locale.kata_hints(a.kata), a.problem
    used = p.hints
    if used >= len(hints):
        iv.say(words("interview.no-more-hints", count=len(hints)))
        return
    p.hints = used + 1
    iv.save()
    iv.say(line(iv.env, (words("interview.hint", number=used + 1, total=len(hints)), "yellow bold"),
                words("interview.hint.text", cost=HINT_COST, hint=hints[used]), hang=2))


def warnings(iv, a: Attempt, e: float, now_words: bool = True) -> None:
    """Half time and the last 10%, each said once (after a jump, only the latest)."""
    p, limit = a.problem, a.problem.limit_s
    if now_words:
        left = clock_text(limit - e)
        due = [("half", 0.5, words("interview.warn.half", left=left)),
               ("last", 0.9, words("interview.warn.last", left=left))]
    else:  # a scripted clock jumps: say when each warning fell due
        due = [("half", 0.5, words("interview.warn.half.scripted")),
               ("last", 0.9, words("interview.warn.last.scripted"))]
    due = [w for w in due if e >= w[1] * limit and w[0] not in p.warned]
    if not due:
        return
    if now_words:
        p.warned += [name for name, _, _ in due]
        iv.save()
        iv.say(line(iv.env, (f"[{clock_text(e)}] {due[-1][2]}", "yellow bold")))
    else:
        for name, frac, said in due:
            p.warned.append(name)
            iv.say(f"[{clock_text(frac * limit)}] {said}")


class Clock:
    """Once a second the clock is persisted; the countdown line is redrawn every tick."""

    def __init__(self, iv, a: Attempt):
        self.iv, self.a = iv, a
        self.last_second = None
        self.last_bucket = None

    def tick(self, e: float, asking: bool = False) -> None:
        """``asking``: a [y/N] question is up, so the line offers only its answers."""
        iv, p = self.iv, self.a.problem
        limit = p.limit_s
        second = int(e)
        if second != self.last_second:
            self.last_second = second
            iv.persist(self.a, e)
        iv.screen.watch_output()  # a closed output is a hang-up (the loop reads it as a signal)
        warnings(iv, self.a, e)
        left = limit - e
        colour = "red" if left <= 0.1 * limit else ("yellow" if left <= 0.5 * limit else "green")
        v = p.verdict
        if not v:
            judged = words("interview.ticker.not-judged")
        elif v.get("total"):
            judged = pass_count(v["passed"], v["total"])
        else:
            judged = STATE_LABELS.get(v.get("state"), (str(v.get("state")),))[0]
        if iv.screen.live:
            head = words("interview.ticker.used", stage=iv.stage_words(), used=clock_text(e))
            left_text = words("interview.ticker.left", left=clock_text(left))
            # A line that wraps cannot be redrawn in place: say less, whole parts only.
            room = iv.screen.columns() - 1 - screen.cell_len(head + left_text)
            tail = next((t for t in (f" │ {judged} │ {keys_help(asking)}", f" │ {judged}", "")
                         if screen.cell_len(t) <= room), "")
            iv.screen.status(line(iv.env, head, (left_text, colour), tail))
        else:
            every = min(60.0, max(10.0, limit / 10))
            bucket = int(e // every)
            if bucket != self.last_bucket:
                self.last_bucket = bucket
                iv.say(words("interview.ticker.used", stage=iv.stage_words(), used=clock_text(e))
                       + words("interview.ticker.left", left=clock_text(left)))
