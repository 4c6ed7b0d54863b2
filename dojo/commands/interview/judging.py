"""Judging during an interview: a counted judge run on a save (or ``t``, or ``s``), shown as
an interviewer would show it (how many properties pass, never the failing input, unless
--coach), and the final grade of the frozen copy."""

from __future__ import annotations

import tempfile
from pathlib import Path

from dojo.commands.interview.attempt import Attempt, read_bytes, sha, soft_write
from dojo.commands.interview.screen import clock_text
from dojo.commands.cli.common import shown, words
from dojo.screens.render import STATE_LABELS, line, pass_count, verdict_lines


def judged_words(v: dict) -> str:
    """A verdict summary in a few words: its pass count, or what is wrong with the file."""
    if v.get("total"):
        return pass_count(v.get("passed", 0), v["total"])
    return STATE_LABELS.get(v.get("state"), (str(v.get("state")),))[0]


def summary(v) -> dict:
    return {**v.summary(), "seconds": round(v.seconds, 2)}


class Judging:
    def __init__(self, iv, judge):
        self.iv = iv  # the interview: env, session, screen, save()
        self.judge = judge  # a warm judge (dojo.judge.runner.WarmJudge)

    def test_now(self, a: Attempt, follow: bool = True) -> dict:
        """The verdict for the content last seen: the cached one, or a fresh judge run."""
        p, iv = a.problem, self.iv
        cached = p.judged is not None and p.judged == p.seen and p.verdict
        if read_bytes(a.path) is None:  # deleted or moved: never "unchanged"; put it back, and say so
            put_back = a.seen_bytes is not None and not a.path.exists() and soft_write(iv.env, a.path, a.seen_bytes)
            said = "interview.judge.put-back" if put_back else "interview.judge.gone"
            iv.say(line(iv.env, (words(said, clock=clock_text(a.elapsed()), file=shown(iv.env, a.path)), "yellow")))
            if put_back and not cached:
                return self.check(a, follow)
            if not cached:  # it could not be put back: judge what the interview last saw, elsewhere
                p.verdict = self.grade(a, a.seen_bytes or b"", None)
                p.judge_runs += 1
                p.judged = p.seen
                iv.save()
            iv.say(words(said + ".last-run", clock=clock_text(a.elapsed()), count=judged_words(p.verdict)))
            return p.verdict
        if cached:
            iv.say(words("interview.judge.unchanged", clock=clock_text(a.elapsed()), count=judged_words(p.verdict)))
            return p.verdict
        return self.check(a, follow)

    def check(self, a: Attempt, follow: bool = True) -> dict:
        """Judge the attempt file (a counted judge run) and show as much as an interviewer would.

        ``follow``: a save while the judge runs stops that run and judges the new content, so
        no verdict is ever shown for content that is no longer in the file. (A submission
        judges what was there when s was pressed, and does not follow.)"""
        iv, env, p = self.iv, self.iv.env, a.problem
        tagged = p.seen

        def following() -> bool:
            """The file now holds other content that counts: readable, saved before the
            deadline, and no signal waiting (Ctrl-C, a hang-up) that the interview must answer
            first. A deleted file, or one saved too late, never restarts the run: it would
            restart for ever."""
            if iv.signals.got is not None or a.elapsed() >= p.limit_s:
                return False
            now = sha(read_bytes(a.path))
            return now is not None and now != tagged
        iv.say(line(env, (words("interview.judge.checking", clock=clock_text(a.elapsed())), "cyan")))
        while True:
            stale = following if follow else None
            v = self.judge.judge(a.kata, a.folder, stale=stale)
            if v is not None and not (follow and stale()):
                break
            a.observe()
            tagged = p.seen
            iv.say(line(env, (words("interview.judge.saved-again", clock=clock_text(a.elapsed())), "cyan")))
        p.judge_runs += 1
        p.verdict = summary(v)
        # Cache the verdict for the final grade only if the file did not change under the judge.
        p.judged = tagged if sha(read_bytes(a.path)) == tagged else None
        iv.save()
        iv.screen.clear()
        if iv.session.coach:
            lines = verdict_lines(env, v, a.kata, str(a.path))
        elif v.state == "passed":
            lines = [line(env, (words("interview.judge.passed", count=pass_count(v.total, v.total)), "green bold"),
                          words("interview.judge.seconds", seconds=f"{v.seconds:.1f}")
                          + ("" if iv.scripted else words("interview.judge.s-submits")))]
        elif v.state == "failing" or (v.state == "timed-out" and v.total):
            key = "interview.judge.failing" + (".hung" if v.state == "timed-out" else "")
            lines = [words(key, count=pass_count(v.passed, v.total), seconds=f"{v.seconds:.1f}")]
        elif v.state in ("not-started", "cannot-import", "numpy-only"):
            # the file itself cannot be judged: saying why hands over no test case
            lines = verdict_lines(env, v, a.kata, str(a.path))[1:]
        else:  # the judge stopped early or failed: its state, never a property or an input
            state = STATE_LABELS.get(v.state, STATE_LABELS["error"])[0]
            lines = [words("interview.judge.stopped" if v.total else "interview.judge.stopped.no-count",
                           state=state, count=pass_count(v.passed, v.total) if v.total else "",
                           seconds=f"{v.seconds:.1f}")]
        for said in lines:
            iv.say(said)
        return p.verdict

    def grade(self, a: Attempt, frozen: bytes, final: Path | None) -> dict:
        """Judge the frozen copy: where it was kept, else (a full disk) from a temporary folder."""
        if final is not None:
            return summary(self.judge.judge(a.kata, final.parent))
        with tempfile.TemporaryDirectory(prefix="dojo-final-") as tmp:
            (Path(tmp) / f"{a.kata.module}.py").write_bytes(frozen)
            return summary(self.judge.judge(a.kata, Path(tmp)))
