"""``dojo interview --loop [START]``: one question growing into the next, on one clock.

The stages are START and the chain of its ``next`` questions in the registry (softmax → "now
mask it" → masked_attention → causal → multi-head → KV cache). They share one clock (45
minutes unless ``--minutes``): there is no clock per stage, only what is left.

- **Moving on.** A stage that is submitted (passing, or failing and "submit anyway") ends, and
  the next one starts at once, the clock still running. Its attempt file starts as the
  candidate's own file from the stage before (the code a person would extend in a real
  interview) with the new stage's stub below it. Time running out, abandoning or Ctrl-C ends
  the loop there.
- **Record.** The loop is one history record (``"kind": "loop"``) whose ``stages`` are records
  of the single-interview shape, one per stage reached (format in docs/state.md).
- **Score.** The sum of the stages' scores, each scored like a single interview against the
  time that was left when it started: every stage reached adds points, so getting further
  scores more than polishing the first stage.
"""

from __future__ import annotations

import time

from dojo.state import history
from dojo.text import locale
from dojo.catalogue import registry
from dojo.commands.interview import attempt, state
from dojo.commands.interview.finish import RECORD_VERSION, Ended
from dojo.commands.interview.queue import Interview
from dojo.commands.interview.report import compare_command, failure_words, followups, property_lines, result_word
from dojo.judge.verdict import diagnosis_words
from dojo.commands.interview.screen import around, clock_text, difficulty_words
from dojo.commands.interview.state import Entry, Loop, Problem, Session
from dojo.commands.cli import Exit, shown, words
from dojo.text import screen
from dojo.screens.render import line, pass_count

DEFAULT_MINUTES = 45  #: --loop: the whole loop's clock (dojo interview --loop)


def new_session(env, start: registry.Kata, minutes: float | None, coach: bool, watch: bool) -> Session:
    limit = 60.0 * (minutes or DEFAULT_MINUTES)
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(env.now()))
    stages = registry.chain(start)
    taken = {r.get("id") for r in history.read(env)}
    loop_id, n = f"{stamp}-loop-{start.module}", 1
    while loop_id in taken:  # two loops started in the same second
        loop_id, n = f"{stamp}-{n}-loop-{start.module}", n + 1
    return Session(queue=[Entry(k.module, limit) for k in stages], coach=coach, watch=watch,
                   loop=Loop(id=loop_id, started_at=env.now(), limit_s=limit))


def carried(previous: bytes, kata: registry.Kata, stub: bytes, n: int) -> bytes:
    """The next stage's file: the candidate's file so far, then a banner, then the new stub
    (without the imports the file already has)."""
    have = set(previous.decode("utf-8", "replace").splitlines())
    lines = stub.decode("utf-8").splitlines()
    body = "\n".join(line for line in lines if not (line.startswith(("import ", "from ")) and line in have))
    banner = words("loop.banner", number=n, title=locale.kata_title(kata)) + "─" * 40
    while screen.cell_len(banner) > 95:  # 95 columns, a wide character counting two
        banner = banner[:-1]
    return (previous.rstrip().decode("utf-8", "replace") + "\n\n\n" + banner + "\n"
            + words("loop.banner.above") + "\n"
            + "\n" + body.lstrip("\n") + "\n").encode("utf-8")


class LoopInterview(Interview):
    @property
    def loop(self) -> Loop:
        return self.session.loop

    def stage_words(self) -> str:
        return words("loop.ticker.stage", number=self.session.index + 1, total=len(self.session.queue))

    paused_id = "loop.paused"

    def play_all(self) -> Ended | None:
        """Play the stages on the loop's clock until one ends the loop; None if there was nothing
        left to play (the loop was recorded already)."""
        s, loop = self.session, self.loop
        if loop.id in {r.get("id") for r in history.read(self.env)}:
            return None  # recorded already; only the session was not removed
        ended = None
        while s.index < len(s.queue):
            if s.current is None:
                if self.scripted and len(self.script) <= s.index - self.script_base:
                    self.say(words("loop.no-more-answers", number=s.index))
                    break
                problem = self.start(s.entry)
            elif s.current.id in {r.get("id") for r in loop.stages}:
                self.next_stage(None, s.current.elapsed_s)  # recorded already; the session was not moved on
                continue
            else:
                problem = self.resume(s.current)
            ended = self.play(problem)
            ended.record = rec = {**ended.record, "stage": s.index + 1}
            loop.checked[str(rec["stage"])] = ended.properties or []
            self.next_stage(rec, ended.clock)
            if rec["outcome"] not in ("passed", "failed") or s.index >= len(s.queue):
                break
            self.say()
            self.say(line(self.env, (words("loop.stage-ended", number=rec["stage"], total=len(s.queue),
                                           result=result_word(rec["outcome"]), clock=clock_text(loop.elapsed_s)),
                                     "bold"),
                          (words("loop.stage-ended.points", score=rec["score"]) if rec["score"] is not None
                           else words("loop.stage-ended.no-points"))
                          + words("loop.next-question", title=locale.kata_title(registry.get(s.entry.kata)))))
        return ended

    def conclude(self, ended: Ended | None) -> int:
        loop = self.loop
        if ended is None and not loop.stages:
            state.clear(self.env)
            return Exit.FAILED
        rec = self.loop_record()
        if ended is not None:
            history.append(self.env, rec)
        state.clear(self.env)
        self.report_loop(rec, ended)
        if any(r["ended_by"] == "interrupt" for r in loop.stages):
            return Exit.INTERRUPTED
        return Exit.OK if rec["outcome"] == "passed" else Exit.FAILED

    def next_stage(self, rec: dict | None, clock: float) -> None:
        s = self.session
        if rec is not None:
            self.loop.stages.append(rec)
        self.loop.elapsed_s = max(self.loop.elapsed_s, clock)
        s.current = None
        self.playing = None
        s.index += 1
        self.save()

    def start(self, entry: Entry) -> Problem:
        kata = registry.get(entry.kata)
        start = None
        if self.loop.stages:  # the file the stage before ended with, and the new stub below it
            last = self.loop.stages[-1]
            before = state.inside(self.env, last["attempt"])
            frozen = attempt.read_bytes(before / "final" / f"{last['kata']}.py")
            if frozen is None:
                frozen = attempt.read_bytes(before / ".last-seen.py") or b""
            start = carried(frozen, kata, attempt.stub(self.env, kata), self.session.index + 1)
        problem = attempt.create(self.env, kata, self.loop.limit_s, start=start, clock_s=self.loop.elapsed_s)
        # One clock: a warning an earlier stage gave (or that fell due before now) is not given again.
        problem.warned = [w for w, at in (("half", 0.5), ("last", 0.9)) if problem.elapsed_s >= at * problem.limit_s]
        self.session.current = problem
        self.save()
        self.statement(kata, problem)
        return problem

    def heading(self, kata: registry.Kata, p: Problem) -> str:
        n, total = self.session.index + 1, len(self.session.queue)
        left = clock_text(p.limit_s - p.elapsed_s)
        return line(self.env, (words("loop.heading", number=n, total=total, title=locale.kata_title(kata)), "bold"),
                    words("loop.heading.clock", difficulty=difficulty_words(kata), left=left))

    def clock_words(self, p: Problem) -> str:
        return words("loop.clock-stops", limit=clock_text(p.limit_s))

    # -- the end of the loop --------------------------------------------------------------------
    def loop_record(self) -> dict:
        loop, s = self.loop, self.session
        stages = loop.stages
        last = stages[-1] if stages else None
        if stages and len(stages) == len(s.queue) and all(r["outcome"] == "passed" for r in stages):
            outcome = "passed"
        elif last is None:
            outcome = "abandoned"
        elif last["outcome"] in ("timed-out", "abandoned"):
            outcome = last["outcome"]
        elif len(stages) < len(s.queue):
            outcome = "stopped"  # the scripted answers ran out before the last stage
        else:
            outcome = "failed"  # every stage was submitted, not all of them passing
        scores = [r["score"] for r in stages if isinstance(r.get("score"), (int, float))]
        return {
            "v": RECORD_VERSION,
            "kind": "loop",
            "id": loop.id,
            "kata": s.queue[0].kata,
            "started_at": loop.started_at,
            "ended_at": self.env.now(),
            "limit_s": loop.limit_s,
            "used_s": round(min(loop.elapsed_s, loop.limit_s), 1),
            "outcome": outcome,
            "planned": [e.kata for e in s.queue],
            "reached": len(stages),
            "passed_stages": sum(r["outcome"] == "passed" for r in stages),
            "hints": sum(r["hints"] for r in stages),
            "judge_runs": sum(r["judge_runs"] for r in stages),
            "score": sum(scores) if scores else None,
            "coach": bool(s.coach),
            "scripted": self.scripted,
            "stages": stages,
        }

    def graded_copy(self, r: dict):
        """A stage's graded copy, when `dojo compare` can say something about it: the stage was
        attempted (not the untouched stub) and its file was frozen (submitted, or time ran out)."""
        if not r.get("attempted") or not isinstance(r.get("attempt"), str):
            return None
        final = self.env.state_dir / r["attempt"] / "final" / f"{r['kata']}.py"
        return final if final.is_file() else None

    def checked_by_stage(self, rec: dict) -> None:
        """What the judge checked, for every stage reached, each under its number and kata."""
        env, say = self.env, self.say
        if not any(self.loop.checked.get(str(r.get("stage"))) for r in rec["stages"]):
            return
        say()
        say(line(env, (words("loop.checked"), "bold")))
        for r in rec["stages"]:
            result = result_word(r["outcome"], r["outcome"]) if r["attempted"] else words("report.no-attempt")
            key = "loop.checked-stage.last-run" if r["outcome"] == "abandoned" else "loop.checked-stage"
            say(line(env, (words(key, stage=r.get("stage"), kata=r["kata"], result=result), "bold")))
            if r["attempted"]:
                for said in property_lines(self, r["kata"], self.loop.checked.get(str(r.get("stage"))), "    "):
                    say(said)

    def report_loop(self, rec: dict, ended: Ended | None) -> None:
        env, say = self.env, self.say
        say()
        planned, reached, passed = len(rec["planned"]), rec["reached"], rec["passed_stages"]
        say(line(env, (words("loop.over", passed=passed, planned=planned), "bold"),
                 words("loop.over.tail", reached=reached, used=clock_text(rec["used_s"]),
                       limit=clock_text(rec["limit_s"]))))
        rows = []
        for i, kata in enumerate(rec["planned"], 1):
            st = next((r for r in rec["stages"] if r.get("stage") == i), None)
            if st is None:
                rows.append([str(i), kata, words("loop.not-reached"), "—", "—", "—", "—"])
                continue
            props = pass_count(st["passed"], st["total"]) if st["total"] else (failure_words(st["state"]) or "—")
            result = result_word(st["outcome"]) if st["attempted"] else words("report.no-attempt")
            rows.append([str(i), kata, result, clock_text(st["used_s"]),
                         props, str(st["hints"]), "—" if st["score"] is None else str(st["score"])])
        say()
        self.screen.clear()
        heads = [words("loop.column.stage"), *(words(f"summary.column.{c}") for c in ("kata", "result", "time",
                 "properties")), words("loop.column.hints"), words("summary.column.score")]
        screen.table(env, heads, rows, indent=2, nowrap=(0, 1, 3, 5, 6))
        say()
        parts = " + ".join(str(r["score"]) for r in rec["stages"] if r["score"] is not None)
        say(line(env, "  " + screen.pad(words("report.field.score"), 15)
                 + ("—" if rec["score"] is None else f"{rec['score']}   = {parts}")
                 + words("loop.score.tail"), hang=17))
        last = rec["stages"][-1] if rec["stages"] else None
        for r in rec["stages"]:
            if r["state"] == "passed" or not r.get("first_failure"):
                continue
            checked_props = self.loop.checked.get(str(r.get("stage")))
            first = failure_words(r["first_failure"], r["kata"], checked_props)
            label = "  " + screen.pad(words("loop.stage-label", number=r["stage"]), 15)
            say(line(env, label + words("loop.first-failure", first=first), hang=17))
            if r.get("diagnosis"):
                say(line(env, " " * 17 + words("loop.behaves-like", bug=diagnosis_words(r["diagnosis"], r["kata"])),
                         hang=17))
            final = self.graded_copy(r)
            if final is not None:  # every stage graded with failures, however it ended (submitted, time)
                say(line(env, " " * 17, *around("loop.explained-by", "command",
                                                  compare_command(env, r["kata"], final)), hang=17))
        self.checked_by_stage(rec)
        # The interviewer asks about the furthest code the candidate wrote.
        asked = next((r for r in reversed(rec["stages"]) if r["attempted"]), last)
        if asked is not None:
            followups(self, registry.get(asked["kata"]))
