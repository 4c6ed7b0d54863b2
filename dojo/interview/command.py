"""``dojo interview``: the command, and the queue of problems it plays one after another.

`cmd_interview` checks the arguments, opens (or resumes) the session and hands it to an
`Interview`, which starts or resumes each problem (`start`, `resume`), shows its statement,
plays it (live.py, or scripted.py for ``--answer``), files its record and reports it.
"""

from __future__ import annotations

import random
import signal
from pathlib import Path

from dojo import history, registry
from dojo.cli import Exit, Keys, UsageError, kata_arg, shown
from dojo.env import Env
from dojo.interview import attempt, live, scripted, state
from dojo.interview.attempt import Attempt, read_bytes, write_bytes
from dojo.interview.finish import Ended, hard_stop
from dojo.interview.judging import Judging
from dojo.interview.report import HINT_COST, report
from dojo.interview.screen import Detached, Screen, Signals, clock_text
from dojo.interview.state import Entry, Problem, Session
from dojo.render import contract, docstring_of, paint, properties_of, signature_of
from dojo.state import Store, check_oracle_cache


# -- picking the problems -------------------------------------------------------------------


def judged_katas(env: Env) -> list[registry.Kata]:
    """Katas whose judge exists (every registered kata, once the repository is complete)."""
    return [k for k in registry.KATAS if env.test_file(k).is_file()]


def pick(env: Env, args) -> list[registry.Kata]:
    if args.katas:
        katas = [kata_arg(name) for name in args.katas]
        for k in katas:
            if not env.test_file(k).is_file():
                raise UsageError(f"{k.module} has no judge yet ({shown(env, env.test_file(k))} is missing).")
        return katas
    pool = judged_katas(env)
    if not pool:
        raise UsageError("no kata has a judge yet (tests/test_<kata>.py).")
    store = Store(env)
    store.load()
    unsolved = [k for k in pool if (store.kata(k.module).get("verdict") or {}).get("state") != "passed"]
    if args.random:
        return [random.choice(unsolved or pool)]
    if unsolved:
        return [unsolved[0]]
    choice = random.choice(pool)
    env.say(f"Every kata passes in practice: {choice.module} was picked at random.")
    return [choice]


# -- dojo interview ---------------------------------------------------------------------------


def cmd_interview(env: Env, args) -> int:
    from dojo.runner import WarmJudge

    answers = args.answer or []
    ats = args.at or []
    if ats and not answers:
        raise UsageError("--at SECONDS goes with --answer FILE.")
    if len(ats) > len(answers):
        raise UsageError("one --at SECONDS per --answer FILE (it says when that answer is copied in).")
    if args.random and args.katas:
        raise UsageError("--random picks the kata for you; name katas or use --random, not both.")
    for answer in answers:
        if not Path(answer).is_file():
            raise UsageError(f"--answer {answer}: no such file.")
    session = state.load(env)
    if args.resume:
        if session is None:
            raise UsageError("no interview to resume. Start one with `dojo interview`.")
        if args.katas or args.random or args.minutes is not None or args.loop:
            raise UsageError("--resume continues the interview as it was: no katas, --loop, --random "
                             "or --minutes.")
        session.coach = session.coach or args.coach
        session.watch = session.watch and not args.manual
    else:
        if session is not None:
            cur = session.current.kata if session.current else session.entry.kata
            raise UsageError(
                f"an interview ({cur}) is still open. Continue it with `dojo interview --resume` "
                f"(press q there to abandon it)."
            )
        if args.loop:
            from dojo.interview import loop

            if len(args.katas) > 1 or args.random:
                raise UsageError("--loop starts from one kata and follows its next questions: "
                                 "`dojo interview --loop [KATA]` (default: the first kata).")
            start = kata_arg(args.katas[0]) if args.katas else registry.KATAS[0]
            session = loop.new_session(env, start, args.minutes, bool(args.coach), not args.manual)
        else:
            katas = pick(env, args)
            session = Session(queue=[Entry(k.module, 60.0 * (args.minutes or k.minutes)) for k in katas],
                              coach=bool(args.coach), watch=not args.manual)
    left = len(session.queue) - session.index
    if answers and session.loop is None and (len(answers) != 1 or left != 1):
        raise UsageError("--answer FILE answers one problem: name one kata.")
    if len(answers) > left:
        raise UsageError(f"{len(answers)} --answer files, but only {left} stage{'s' if left != 1 else ''} to "
                         "answer: give at most one per stage.")
    check_oracle_cache(env)
    judge = WarmJudge(env)  # the expensive imports happen before any clock starts
    keys = None if answers else Keys(env.stdin)
    script = [(Path(a).resolve(), ats[i] if i < len(ats) else None) for i, a in enumerate(answers)]
    kind = Interview
    if session.loop is not None:
        from dojo.interview.loop import LoopInterview as kind
    try:
        with Signals() as signals:
            return kind(env, session, judge, keys, signals, script, args.debounce).run()
    finally:
        if keys is not None:
            try:
                keys.restore()
            except OSError:  # the terminal is gone (hang-up)
                pass


class Interview:
    """The interview being run: its session and the means to play it (screen, keys, judge)."""

    def __init__(self, env: Env, session: Session, judge, keys, signals: Signals, script: list, debounce: float):
        self.env = env
        self.session = session
        self.judging = Judging(self, judge)
        self.keys = keys
        self.signals = signals
        self.script = script  #: scripted mode: (answer file, clock time or None) per problem
        self.scripted = bool(script)
        self.script_base = session.index  #: the script's first answer is for this problem
        self.debounce = debounce
        self.screen = Screen(env)
        self.say = self.screen.say
        self.playing: Attempt | None = None  # the running problem, once its clock runs

    def save(self) -> None:
        state.save(self.env, self.session)

    def persist(self, a: Attempt, elapsed: float) -> None:
        a.problem.elapsed_s = elapsed
        a.problem.tick_wall = self.env.now()
        self.save()

    def stage_words(self) -> str:
        return ""

    # -- the queue ---------------------------------------------------------------------------
    def run(self) -> int:
        try:
            done = self.play_all()
        except Detached as d:
            if self.session.current is not None and self.playing is not None:
                self.persist(self.playing, self.playing.elapsed())
            try:  # the terminal may be gone already
                self.screen.clear()
                self.env.warn(f"\n{self.paused_words}: `dojo interview --resume` continues it "
                              "(the clock keeps counting).")
            except OSError:
                pass
            return 128 + d.signum
        return self.conclude(done)

    paused_words = "Interview paused"

    def play_all(self) -> list[dict]:
        """Play the queue's problems one after another (each reported and recorded as it ends)."""
        records = []
        s = self.session
        while s.index < len(s.queue):
            if s.current is None:
                if records and not self.ready_for_next():
                    break
                problem = self.start(s.entry)
            elif s.current.id in {r.get("id") for r in history.read(self.env)}:
                self.file_record(None)  # recorded already; only the session was not updated
                continue
            else:
                problem = self.resume(s.current)
            ended = self.play(problem)
            report(self, self.playing.kata, ended, self.playing.path)
            self.file_record(ended.record)
            records.append(ended.record)
            if ended.record["outcome"] == "abandoned":
                break
        return records

    def conclude(self, records: list[dict]) -> int:
        s = self.session
        state.clear(self.env)
        left = len(s.queue) - s.index
        if left > 0:
            self.say(f"Not started: {', '.join(e.kata for e in s.queue[-left:])}.")
        if any(r["ended_by"] == "interrupt" for r in records):
            return Exit.INTERRUPTED
        return Exit.OK if records and all(r["outcome"] == "passed" for r in records) else Exit.FAILED

    def ready_for_next(self) -> bool:
        s = self.session
        n, total = s.index + 1, len(s.queue)
        self.say()
        limit = clock_text(s.entry.limit_s)
        self.say(paint(self.env, f"Next: problem {n} of {total}, {s.entry.kata} ({limit} on the clock).", "bold")
                 + " Press n to start it (the clock starts then), q to stop here.")
        self.save()
        while True:
            got = self.signals.got
            if got == signal.SIGINT:
                self.signals.got = None
                return False
            if got is not None:
                raise Detached(got)
            if self.keys is None or self.keys.closed:
                return True
            key = self.keys.poll(live.TICK)
            if key in ("n", "N"):
                return True
            if key in ("q", "Q"):
                return False

    def file_record(self, rec: dict | None) -> None:
        if rec is not None:
            history.append(self.env, rec)
        s = self.session
        s.current = None
        self.playing = None
        s.index += 1
        if s.index < len(s.queue):
            self.save()

    # -- one problem: set up -------------------------------------------------------------------
    def start(self, entry: Entry) -> Problem:
        kata = registry.get(entry.kata)
        problem = attempt.create(self.env, kata, entry.limit_s)
        self.session.current = problem
        self.save()
        self.statement(kata, problem)
        return problem

    def resume(self, p: Problem) -> Problem:
        env = self.env
        kata = registry.get(p.kata)
        gap = max(0.0, env.now() - p.tick_wall)
        p.elapsed_s += gap
        p.closed_s += gap
        p.resumed += 1
        p.tick_wall = env.now()
        path = Attempt.file(env, p)
        if not path.exists():
            last = read_bytes(path.parent / ".last-seen.py")
            write_bytes(path, last if last is not None else attempt.stub(env, kata))
            env.warn(f"warning: {path} was missing; put back the version the interview last saw.")
        self.save()
        self.statement(kata, p)
        self.say(paint(env, "Resumed: ", "bold") + f"{clock_text(p.elapsed_s)} used, "
                 f"{clock_text(gap)} of it while the interview was closed; "
                 f"{clock_text(p.limit_s - p.elapsed_s)} left.")
        return p

    def statement(self, kata: registry.Kata, p: Problem) -> None:
        env, say, s = self.env, self.say, self.session
        source = env.solution_file(kata)
        say(self.heading(kata, p))
        say(f"Write your answer in: {paint(env, str(Attempt.file(env, p)), 'bold')}")
        if p.start is not None:
            say("It starts with your file from the stage before; the new function is below it.")
        say()
        say("    " + paint(env, signature_of(source, kata.function), "cyan"))
        say()
        for line in contract(env, docstring_of(source, kata.function)):
            say("    " + line if line else "")
        say()
        checks = properties_of(env.test_file(kata))
        if s.coach:
            say(paint(env, "What the judge checks", "bold") + " (property tests against PyTorch, float64):")
            for _, statement in checks:
                say(f"  • {statement}")
        else:  # their titles would hand over the classic mistakes: shown once the interview ends
            head = "What the judge checks:"
            text = self.screen.wrap(f"{head} {len(checks)} property tests against PyTorch (float64). Their titles "
                                    "are shown when the interview ends (--coach shows them now).", "")
            say(paint(env, head, "bold") + text[len(head):])
        say()
        if not self.scripted:
            judged = "every save is judged" if s.watch else "press t to judge"
            shown_ = "the whole verdict" if s.coach else "how many properties pass"
            say(self.screen.wrap(f"Keys: {live.KEYS_HELP}.  {judged.capitalize()} and you see {shown_}.", ""))
            say(self.screen.wrap(f"Hints cost {HINT_COST} points each. {self.clock_words(p)}", ""))

    def heading(self, kata: registry.Kata, p: Problem) -> str:
        n, total = self.session.index + 1, len(self.session.queue)
        of = f"problem {n} of {total}: " if total > 1 else ""
        return (paint(self.env, f"Interview {of}{kata.title}", "bold")
                + f"   [{kata.difficulty}, {clock_text(p.limit_s)} on the clock]")

    def clock_words(self, p: Problem) -> str:
        return f"At {clock_text(p.limit_s)} the clock stops hard: what is saved then is graded."

    # -- one problem: the clock ----------------------------------------------------------------
    def play(self, p: Problem) -> Ended:
        a = self.playing = Attempt(self.env, p)
        if a.elapsed() >= p.limit_s:  # the deadline passed while the interview was closed
            return hard_stop(self, a, closed=True)
        if self.scripted:
            answer, at = self.script[self.session.index - self.script_base]
            return scripted.play(self, a, answer, at)
        return live.play(self, a)
