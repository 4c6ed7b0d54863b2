"""The queue of problems: `Interview` starts or resumes each problem (`start`, `resume`), shows
its statement, plays it (live.py, or scripted.py for ``--answer``), files its record and reports
it; ``--loop`` plays the same queue as stages (loop.py: `LoopInterview`)."""

from __future__ import annotations

import signal

from dojo.state import history
from dojo.text import locale
from dojo.catalogue import registry
from dojo.commands.cli import Exit, shown, words
from dojo.catalogue.env import Env
from dojo.commands.interview import attempt, live, scripted, state
from dojo.commands.interview.attempt import Attempt, read_bytes, write_bytes
from dojo.commands.interview.finish import Ended, hard_stop
from dojo.commands.interview.judging import Judging
from dojo.commands.interview.report import HINT_COST, report, summary
from dojo.commands.interview.screen import Detached, Screen, Signals, clock_text, difficulty_words
from dojo.commands.interview.state import Entry, Problem, Session
from dojo.text.messages import message, text
from dojo.screens.render import contract, keep, line, properties_of, signature_of


def contract_text(env: Env, kata: registry.Kata) -> str:
    """The contract as the attempt's stub states it: the docstring in the tool's language when the
    catalogue has it, else the solution's (``dojo.catalogue.stubs``)."""
    import ast

    from dojo.catalogue.stubs import stub_source

    tree = ast.parse(stub_source(env.solution_file(kata), kata.function, language=None))
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == kata.function)
    return ast.get_docstring(fn) or ""


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
        self.screen = Screen(env, on_closed=self.output_closed)
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
    def output_closed(self) -> None:
        """The output was closed (its reader went away): a hang-up, read by the loop as a signal."""
        if self.signals.got is None:
            self.signals.got = signal.SIGPIPE

    def run(self) -> int:
        try:
            done = self.play_all()
        except Detached as d:
            if self.session.current is not None and self.playing is not None:
                self.persist(self.playing, self.playing.elapsed())
            try:  # the terminal may be gone already
                self.screen.clear()
                if d.signum == signal.SIGPIPE:
                    self.env.warn("\n" + text(message("interview.output-closed")))
                self.env.warn("\n" + words(self.paused_id))
            except OSError:
                pass
            return 128 + d.signum
        code = self.conclude(done)
        # The interview ended and is recorded, but its report went nowhere: fail as a pipe does.
        return 128 + signal.SIGPIPE if self.screen.closed else code

    paused_id = "interview.paused"  #: what is said when the terminal goes away

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
                # recorded already; only the session was not updated
                self.file_record(None, next(r for r in history.read(self.env) if r.get("id") == s.current.id))
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
        if len(s.queue) > 1:  # one summary of every problem, those not started too
            summary(self, s.done, [e.kata for e in s.queue[s.index:]])
        ended = s.done or records
        if any(r.get("ended_by") == "interrupt" for r in records):
            return Exit.INTERRUPTED
        return Exit.OK if ended and all(r.get("outcome") == "passed" for r in ended) else Exit.FAILED

    def ready_for_next(self) -> bool:
        s = self.session
        n, total = s.index + 1, len(s.queue)
        self.say()
        limit = clock_text(s.entry.limit_s)
        self.say(line(self.env, (words("interview.next-problem", number=n, total=total, kata=s.entry.kata,
                                       limit=limit), "bold"), words("interview.next-problem.keys")))
        self.save()
        while True:
            self.screen.watch_output()
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

    def file_record(self, rec: dict | None, recorded: dict | None = None) -> None:
        """Append ``rec`` to the history (``recorded``: a record that is there already) and move on."""
        if rec is not None:
            history.append(self.env, rec)
        s = self.session
        if rec is not None or recorded is not None:
            s.done.append(rec if rec is not None else recorded)
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
            env.warn(words("interview.file-put-back", path=path))
        self.save()
        self.statement(kata, p)
        self.say(line(env, (words("interview.resumed"), "bold"),
                      words("interview.resumed.clock", used=clock_text(p.elapsed_s), gap=clock_text(gap),
                            left=clock_text(p.limit_s - p.elapsed_s))))
        return p

    def statement(self, kata: registry.Kata, p: Problem) -> None:
        env, say, s = self.env, self.say, self.session
        source = env.solution_file(kata)
        say(self.heading(kata, p))
        for parts in where_to_write(env, words("interview.write-in"), shown(env, Attempt.file(env, p))):
            say(line(env, *parts))
        if p.start is not None:
            say(words("interview.carried-over"))
        say()
        signature = signature_of(source, kata.function)
        say(line(env, "    ", (signature, "cyan"), hang=5 + signature.index("(")))
        say()
        for ln in contract(env, contract_text(env, kata), indent=4):
            say(ln)
        say()
        checks = properties_of(env.test_file(kata))
        if s.coach:
            say(line(env, (words("interview.checks.coach"), "bold"), words("interview.checks.coach.tail")))
            for test, statement in checks:
                say(line(env, f"  • {locale.property_title(kata.module, test, statement)}", hang=4))
        else:  # their titles would hand over the classic mistakes: shown once the interview ends
            say(line(env, (words("interview.checks"), "bold"), words("interview.checks.tail", count=len(checks))))
        say()
        if not self.scripted:
            how = "interview.keys.how." + ("watch" if s.watch else "manual") + (".coach" if s.coach else "")
            say(line(env, words("interview.keys.line", keys=keep(live.keys_words()), how=words(how))))
            say(line(env, words("interview.hints-cost", cost=HINT_COST, clock=self.clock_words(p))))

    def heading(self, kata: registry.Kata, p: Problem) -> str:
        n, total = self.session.index + 1, len(self.session.queue)
        title = locale.kata_title(kata)
        head = words("interview.heading.of", number=n, total=total, title=title) if total > 1 \
            else words("interview.heading", title=title)
        return line(self.env, (head, "bold"), words("interview.heading.clock", difficulty=difficulty_words(kata),
                                                    limit=clock_text(p.limit_s)))

    def clock_words(self, p: Problem) -> str:
        return words("interview.clock-stops", limit=clock_text(p.limit_s))

    # -- one problem: the clock ----------------------------------------------------------------
    def play(self, p: Problem) -> Ended:
        a = self.playing = Attempt(self.env, p)
        if a.elapsed() >= p.limit_s:  # the deadline passed while the interview was closed
            return hard_stop(self, a, closed=True)
        if self.scripted:
            answer, at = self.script[self.session.index - self.script_base]
            return scripted.play(self, a, answer, at)
        return live.play(self, a)


def where_to_write(env, label: str, path: str) -> list[tuple]:
    """``Write your answer in: PATH``, or, where that line is wider than the screen, the folder
    beside the label and the file name under it (an attempt's path alone can pass 80 columns,
    and a path cut anywhere else reads as two paths)."""
    from dojo.text import screen

    width = screen.columns(env)
    if not width or screen.cell_len(label) + screen.cell_len(path) <= width or "/" not in path:
        return [(label, (path, "bold"))]
    folder, name = path.rsplit("/", 1)
    return [(label, (folder + "/", "bold")), (" " * screen.cell_len(label), (name, "bold"))]
