"""``dojo interview``: a timed mock interview.  ``dojo history``: the interviews so far.

One interview is a queue of problems (katas), each with its own clock. For each problem:

1. a fresh attempt file, copied from the kata's stub, goes into
   ``<state>/attempts/<stamp>-<kata>/<kata>.py`` (katas/ is never touched, and practice
   verdicts in state.json are never changed);
2. the statement is shown (the same contract ``dojo show`` prints) and the clock starts;
3. the attempt file is polled (content hash, debounced); every save is judged by a warm
   judge and only the count of passing properties is shown (``--coach``: the whole verdict).
   Keys: ``s`` submit, ``t`` run the tests now, ``h`` hint (costs points), ``q`` abandon;
4. it ends on submit, abandon, Ctrl-C (an abandon that keeps everything) or time running
   out. Time running out is a hard stop: the file as last seen before the deadline is frozen
   into ``final/<kata>.py`` and that copy is graded;
5. a report (time, properties, judge runs, hints, first failing property, score, follow-up
   questions) is printed and one record is appended to ``<state>/history.jsonl``.

Time. While the process runs, elapsed time comes from ``env.clock`` (monotonic: changing
the wall clock, or suspending the machine, does not move it). A monotonic reading means
nothing to another process or after a reboot, so the running interview is persisted to
``<state>/interview.json`` on every tick as *elapsed seconds* plus the *wall-clock time of
that tick*. ``--resume`` adds the wall-clock gap since the last tick (never negative) to the
elapsed time: the time the interview was closed counts, as it would if you left the room,
so closing the terminal is never a way to pause the clock. If the deadline passed while the
interview was closed, the frozen copy is the file as the interview last saw it: edits made
while it was closed cannot be timed, so they do not count.

Score (also in docs/interview.md): ``100 × passed/total − 10 per hint``, plus a time bonus
of up to 20 points (``20 × time left / limit``) for a passing answer submitted in time;
rounded, never below 0. An untouched attempt is "no attempt" (no score), and an abandoned
one is not scored.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import signal
import time
from pathlib import Path

from dojo import history, registry
from dojo.cli import Exit, Keys, UsageError, kata_arg, number, shown
from dojo.env import Env
from dojo.render import (
    STATE_LABELS, contract, docstring_of, duration, paint, pass_count, properties_of, signature_of,
    table, verdict_lines,
)
from dojo.state import (
    CannotWrite, Store, atomic_write_bytes, atomic_write_text, check_oracle_cache, read_error,
    read_text, reason, set_aside, where,
)
from dojo.stubs import stub_source

SESSION_VERSION = 1
RECORD_VERSION = 1
HINT_COST = 10  #: points per hint
TIME_BONUS = 20  #: points for a passing answer submitted at 0:00, falling to 0 at the limit
TICK = 0.05  #: seconds between looks at the keys, the clock and the attempt file
KEYS_HELP = "s submit · t test · h hint · q abandon"
MAX_MINUTES = 24 * 60  #: --minutes: at most a day per problem
MAX_AT = 24 * 3600.0  #: --at: at most a day into the interview


# -- the score ------------------------------------------------------------------------------


def score(passed: int, total: int, hints: int, used_s: float, limit_s: float, in_time: bool) -> int:
    """``100 × passed/total − 10 × hints``, + ``20 × time left / limit`` when it passed in time."""
    base = 100 * passed / total if total else 0.0
    bonus = TIME_BONUS * max(0.0, limit_s - used_s) / limit_s if in_time and limit_s > 0 else 0.0
    return max(0, round(base - HINT_COST * hints + bonus))


def score_formula(rec: dict) -> str:
    in_time = rec["outcome"] == "passed"
    bonus = round(TIME_BONUS * max(0.0, rec["limit_s"] - rec["used_s"]) / rec["limit_s"]) if in_time else 0
    parts = f"100 × {rec['passed']}/{rec['total']}"
    if rec["hints"]:
        parts += f" − {HINT_COST} × {rec['hints']} hint{'s' if rec['hints'] != 1 else ''}"
    parts += f" + {bonus} time bonus" if in_time else " (no time bonus: not submitted passing in time)"
    return parts


# -- the running interview, persisted for --resume --------------------------------------------


def session_path(env: Env) -> Path:
    return env.state_dir / "interview.json"


def _seconds(value, what: str, positive: bool = False) -> float:
    """A finite, non-negative number of seconds from the session file (more than 0 if ``positive``)."""
    v = history.finite(value)
    if v is None or v < 0 or (positive and v <= 0):
        raise ValueError(f"{what} is not a number of seconds")
    return float(v)


def inside(env: Env, relative) -> Path:
    """``state_dir / relative``, refusing any path that would lead out of the state folder."""
    if not isinstance(relative, str) or not relative or Path(relative).is_absolute():
        raise ValueError(f"folder {relative!r} is not a path inside the state folder")
    base = env.state_dir.resolve()
    path = (base / relative).resolve()
    if path == base or base not in path.parents:
        raise ValueError(f"folder {relative!r} leads outside the state folder")
    return path


def session_problem(env: Env, data) -> str | None:
    """What makes ``data`` an interview that cannot be resumed (None: it can be)."""
    try:
        if not isinstance(data, dict) or data.get("version") != SESSION_VERSION:
            raise ValueError("not a dojo interview (or an unknown version)")
        queue, index = data.get("queue"), data.get("index")
        if not isinstance(queue, list) or not queue:
            raise ValueError("no problems in its queue")
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(queue):
            raise ValueError(f"index {index!r} is not a problem of its queue")
        for entry in queue:
            registry.get(entry["kata"])
            _seconds(entry["limit_s"], "a time limit", positive=True)
        current = data.get("current")
        if current is not None:
            if current["kata"] != queue[index]["kata"]:
                raise ValueError("the running problem is not the one its queue is at")
            for key in ("elapsed_s", "tick_wall", "closed_s"):
                _seconds(current.get(key, 0.0), key)
            _seconds(current["limit_s"], "limit_s", positive=True)
            for key in ("hints", "judge_runs", "resumed"):
                if isinstance(current.get(key, 0), bool) or not isinstance(current.get(key, 0), int):
                    raise ValueError(f"{key} is not a count")
            if not isinstance(current.get("warned", []), list):
                raise ValueError("warned is not a list")
            inside(env, current["folder"])
            str(current["id"])
    except (KeyError, TypeError) as e:
        return f"missing or odd field {e}"
    except ValueError as e:
        return str(e)
    return None


def load_session(env: Env) -> dict | None:
    """The open interview, or None. One that cannot be read or resumed is set aside with a warning."""
    path = session_path(env)
    try:
        text = read_text(path)
        if text is None:
            return None
        data = json.loads(text)
        problem = session_problem(env, data)
        if problem:
            raise ValueError(f"it cannot be resumed: {problem}")
    except (ValueError, OSError) as e:
        set_aside(path, env, read_error(e))
        return None
    return data


def save_session(env: Env, session: dict) -> None:
    """Persist the running interview; when that fails the interview goes on (said once)."""
    try:
        atomic_write_text(session_path(env), json.dumps(session, indent=1, sort_keys=True) + "\n", env)
    except CannotWrite as e:
        env.warn_once(f"dojo: {e.strerror}. The interview goes on, but cannot be resumed if it is closed.")


def clear_session(env: Env) -> None:
    try:
        session_path(env).unlink(missing_ok=True)
    except OSError as e:
        env.warn(f"dojo: cannot remove {where(session_path(env), env)}: {reason(e)}. "
                 "Delete it by hand, or the next interview will offer to resume this one.")


# -- small helpers ----------------------------------------------------------------------------


def sha(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha1(data).hexdigest()


def read_bytes(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def write_bytes(path: Path, data: bytes, env: Env | None = None) -> None:
    atomic_write_bytes(path, data, env)


def soft_write(env: Env, path: Path, data: bytes) -> bool:
    """A write the interview can do without: on failure say so once and carry on."""
    try:
        atomic_write_bytes(path, data, env)
    except CannotWrite as e:
        env.warn_once(f"dojo: {e.strerror}.")
        return False
    return True


def clock_text(seconds: float) -> str:
    return duration(max(0.0, seconds))


def failure_words(first: str | None) -> str | None:
    """A first failure as a person says it: a property's title, or what is wrong with the file."""
    if first in STATE_LABELS:
        return {"not-started": "not started (the function still raises NotImplementedError)",
                "cannot-import": "the file does not import",
                "numpy-only": "breaks the NumPy-only rule",
                "timed-out": "the code did not return in time"}.get(first, STATE_LABELS[first][0])
    return first


class Signals:
    """Ctrl-C, hang-up and terminate become flags the loop reads, so no write is cut in half."""

    WATCHED = (signal.SIGINT, signal.SIGHUP, signal.SIGTERM)

    def __init__(self):
        self.got: int | None = None
        self.old: dict = {}

    def _on(self, signum, frame):
        if self.got is None:
            self.got = signum

    def __enter__(self):
        for s in self.WATCHED:
            try:
                self.old[s] = signal.signal(s, self._on)
            except (ValueError, OSError):  # not the main thread: leave the defaults
                pass
        return self

    def __exit__(self, *exc):
        for s, old in self.old.items():
            signal.signal(s, old)


class Detached(Exception):
    """The terminal went away (hang-up or terminate): keep the interview for --resume."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


class Screen:
    """Lines for the record, plus one live countdown line redrawn in place on a terminal."""

    def __init__(self, env: Env):
        self.env = env
        try:
            self.live = env.stdout.isatty()
        except (AttributeError, ValueError):
            self.live = False
        self.status_shown = ""

    def say(self, text: str = "") -> None:
        if self.status_shown:
            self.env.stdout.write("\r\033[K")
            self.status_shown = ""
        self.env.say(text)

    def status(self, text: str) -> None:
        if self.live and text != self.status_shown:
            self.env.stdout.write("\r" + text + "\033[K")
            self.env.stdout.flush()
            self.status_shown = text

    def columns(self) -> int:
        """The width of the terminal written to (the one that wraps the line), 80 if unknown."""
        try:
            return os.get_terminal_size(self.env.stdout.fileno()).columns
        except (AttributeError, OSError, ValueError):
            return 80

    def wrap(self, text: str, indent: str) -> str:
        """On a terminal, long text wrapped at word boundaries (a pipe gets it as one line)."""
        if not self.live:
            return text
        import textwrap

        return textwrap.fill(text, width=min(100, self.columns() - 1), subsequent_indent=indent)

    def clear(self) -> None:
        if self.status_shown:
            self.env.stdout.write("\r\033[K")
            self.env.stdout.flush()
            self.status_shown = ""


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

    if args.at is not None and args.answer is None:
        raise UsageError("--at SECONDS goes with --answer FILE.")
    if args.random and args.katas:
        raise UsageError("--random picks the kata for you; name katas or use --random, not both.")
    if args.answer is not None and not Path(args.answer).is_file():
        raise UsageError(f"--answer {args.answer}: no such file.")
    session = load_session(env)
    if args.resume:
        if session is None:
            raise UsageError("no interview to resume. Start one with `dojo interview`.")
        if args.katas or args.random or args.minutes is not None:
            raise UsageError("--resume continues the interview as it was: no katas, --random or --minutes.")
        session["coach"] = session.get("coach", False) or args.coach
        session["watch"] = session.get("watch", True) and not args.manual
    else:
        if session is not None:
            cur = session.get("current") or {"kata": session["queue"][session["index"]]["kata"]}
            raise UsageError(
                f"an interview ({cur['kata']}) is still open. Continue it with `dojo interview --resume` "
                f"(press q there to abandon it)."
            )
        katas = pick(env, args)
        session = {
            "version": SESSION_VERSION,
            "queue": [{"kata": k.module, "limit_s": 60.0 * (args.minutes or k.minutes)} for k in katas],
            "index": 0,
            "current": None,
            "coach": bool(args.coach),
            "watch": not args.manual,
        }
    if args.answer is not None and len(session["queue"]) - session["index"] != 1:
        raise UsageError("--answer FILE answers one problem: name one kata.")
    check_oracle_cache(env)
    judge = WarmJudge(env)  # the expensive imports happen before any clock starts
    keys = None if args.answer is not None else Keys(env.stdin)
    try:
        with Signals() as signals:
            return Interview(env, session, judge, keys, signals, args).run()
    finally:
        if keys is not None:
            try:
                keys.restore()
            except OSError:  # the terminal is gone (hang-up)
                pass


class Interview:
    def __init__(self, env: Env, session: dict, judge, keys, signals: Signals, args):
        self.env = env
        self.session = session
        self.judge = judge
        self.keys = keys
        self.signals = signals
        self.answer = Path(args.answer).resolve() if args.answer is not None else None
        self.at = args.at
        self.debounce = args.debounce
        self.screen = Screen(env)
        self.say = self.screen.say
        self.elapsed = None  # the running problem's clock, once it runs

    # -- the queue ---------------------------------------------------------------------------
    def run(self) -> int:
        records = []
        try:
            while self.session["index"] < len(self.session["queue"]):
                if self.session.get("current") is None:
                    if records and not self.ready_for_next():
                        break
                    cur = self.start(self.session["queue"][self.session["index"]])
                elif self.session["current"]["id"] in {r.get("id") for r in history.read(self.env)}:
                    self.file_record(None)  # recorded already; only the session was not updated
                    continue
                else:
                    cur = self.resume(self.session["current"])
                rec = self.play(cur)
                self.file_record(rec)
                records.append(rec)
                if rec["outcome"] == "abandoned":
                    break
        except Detached as d:
            cur = self.session.get("current")
            if cur is not None and self.elapsed is not None:
                self.persist(cur, self.elapsed())
            try:  # the terminal may be gone already
                self.screen.clear()
                self.env.warn("\nInterview paused: `dojo interview --resume` continues it "
                              "(the clock keeps counting).")
            except OSError:
                pass
            return 128 + d.signum
        clear_session(self.env)
        left = len(self.session["queue"]) - self.session["index"]
        if left > 0:
            self.say(f"Not started: {', '.join(e['kata'] for e in self.session['queue'][-left:])}.")
        if any(r["ended_by"] == "interrupt" for r in records):
            return Exit.INTERRUPTED
        return Exit.OK if records and all(r["outcome"] == "passed" for r in records) else Exit.FAILED

    def ready_for_next(self) -> bool:
        entry = self.session["queue"][self.session["index"]]
        n, total = self.session["index"] + 1, len(self.session["queue"])
        self.say()
        limit = clock_text(entry["limit_s"])
        self.say(paint(self.env, f"Next: problem {n} of {total}, {entry['kata']} ({limit} on the clock).", "bold")
                 + " Press n to start it (the clock starts then), q to stop here.")
        save_session(self.env, self.session)
        while True:
            got = self.signals.got
            if got == signal.SIGINT:
                self.signals.got = None
                return False
            if got is not None:
                raise Detached(got)
            if self.keys is None or self.keys.closed:
                return True
            key = self.keys.poll(TICK)
            if key in ("n", "N"):
                return True
            if key in ("q", "Q"):
                return False

    def file_record(self, rec: dict | None) -> None:
        if rec is not None:
            history.append(self.env, rec)
        self.session["current"] = None
        self.elapsed = None
        self.session["index"] += 1
        if self.session["index"] < len(self.session["queue"]):
            save_session(self.env, self.session)

    # -- one problem: set up -------------------------------------------------------------------
    def start(self, entry: dict) -> dict:
        env = self.env
        kata = registry.get(entry["kata"])
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(env.now()))
        folder = env.state_dir / "attempts" / f"{stamp}-{kata.module}"
        n = 1
        while folder.exists():
            folder = env.state_dir / "attempts" / f"{stamp}-{n}-{kata.module}"
            n += 1
        stub = self.stub(kata)
        write_bytes(folder / f"{kata.module}.py", stub, env)
        soft_write(env, folder / ".last-seen.py", stub)
        now = env.now()
        cur = {
            "id": folder.name, "kata": kata.module, "folder": str(folder.relative_to(env.state_dir)),
            "limit_s": float(entry["limit_s"]), "started_at": now, "elapsed_s": 0.0, "tick_wall": now,
            "closed_s": 0.0, "resumed": 0, "hints": 0, "judge_runs": 0, "warned": [],
            "seen": sha(stub), "judged": None, "verdict": None,
        }
        self.session["current"] = cur
        save_session(env, self.session)
        self.statement(kata, cur)
        return cur

    def resume(self, cur: dict) -> dict:
        env = self.env
        kata = registry.get(cur["kata"])
        gap = max(0.0, env.now() - cur["tick_wall"])
        cur["elapsed_s"] += gap
        cur["closed_s"] = cur.get("closed_s", 0.0) + gap
        cur["resumed"] = cur.get("resumed", 0) + 1
        cur["tick_wall"] = env.now()
        path = self.attempt_file(cur)
        if not path.exists():
            last = read_bytes(path.parent / ".last-seen.py")
            write_bytes(path, last if last is not None else self.stub(kata))
            env.warn(f"warning: {path} was missing; put back the version the interview last saw.")
        save_session(env, self.session)
        self.statement(kata, cur)
        self.say(paint(env, "Resumed: ", "bold") + f"{clock_text(cur['elapsed_s'])} used, "
                 f"{clock_text(gap)} of it while the interview was closed; "
                 f"{clock_text(cur['limit_s'] - cur['elapsed_s'])} left.")
        return cur

    def stub(self, kata: registry.Kata) -> bytes:
        return stub_source(self.env.solution_file(kata), kata.function).encode("utf-8")

    def attempt_file(self, cur: dict) -> Path:
        inside(self.env, cur["folder"])  # never a path outside the state folder
        return self.env.state_dir / cur["folder"] / f"{cur['kata']}.py"

    def statement(self, kata: registry.Kata, cur: dict) -> None:
        env, say = self.env, self.say
        source = env.solution_file(kata)
        n = self.session["index"] + 1
        of = f"problem {n} of {len(self.session['queue'])}: " if len(self.session["queue"]) > 1 else ""
        say(paint(env, f"Interview {of}{kata.title}", "bold")
            + f"   [{kata.difficulty}, {clock_text(cur['limit_s'])} on the clock]")
        say(f"Write your answer in: {paint(env, str(self.attempt_file(cur)), 'bold')}")
        say()
        say("    " + paint(env, signature_of(source, kata.function), "cyan"))
        say()
        for line in contract(env, docstring_of(source, kata.function)):
            say("    " + line if line else "")
        say()
        checks = properties_of(env.test_file(kata))
        if self.session.get("coach"):
            say(paint(env, "What the judge checks", "bold") + " (property tests against PyTorch, float64):")
            for _, statement in checks:
                say(f"  • {statement}")
        else:  # their titles would hand over the classic mistakes: shown once the interview ends
            say(paint(env, "What the judge checks:", "bold") + f" {len(checks)} property tests against PyTorch "
                "(float64). Their titles are shown when the interview ends (--coach shows them now).")
        say()
        if self.answer is None:
            judged = "every save is judged" if self.session.get("watch", True) else "press t to judge"
            shown_ = "the whole verdict" if self.session.get("coach") else "how many properties pass"
            say(f"Keys: {KEYS_HELP}.  {judged.capitalize()} and you see {shown_}.")
            say(f"Hints cost {HINT_COST} points each. At {clock_text(cur['limit_s'])} the clock stops hard: "
                "what is saved then is graded.")

    # -- one problem: the clock ----------------------------------------------------------------
    def play(self, cur: dict) -> dict:
        kata = registry.get(cur["kata"])
        self.kata = kata
        self.path = self.attempt_file(cur)
        self.stub_bytes = self.stub(kata)
        # What the interview last saw before the deadline (kept on disk for --resume).
        self.seen_bytes = read_bytes(self.path.parent / ".last-seen.py")
        if self.seen_bytes is None or sha(self.seen_bytes) != cur["seen"]:
            self.seen_bytes = read_bytes(self.path) or self.stub_bytes
            cur["seen"] = sha(self.seen_bytes)
        base, t0 = cur["elapsed_s"], self.env.clock()
        self.elapsed = lambda: base + max(0.0, self.env.clock() - t0)
        self.last_second = None
        self.last_bucket = None
        if self.elapsed() >= cur["limit_s"]:  # the deadline passed while the interview was closed
            return self.hard_stop(cur, closed=True)
        if self.answer is not None:
            return self.play_scripted(cur)
        return self.play_live(cur)

    def persist(self, cur: dict, elapsed: float) -> None:
        cur["elapsed_s"] = elapsed
        cur["tick_wall"] = self.env.now()
        save_session(self.env, self.session)

    def tick(self, cur: dict, e: float) -> None:
        """Persist the clock once a second, give the warnings, draw the countdown."""
        limit = cur["limit_s"]
        second = int(e)
        if second != self.last_second:
            self.last_second = second
            self.persist(cur, e)
        warnings = [
            ("half", 0.5, f"Half time: {clock_text(limit - e)} left."),
            ("last", 0.9, f"{clock_text(limit - e)} left (the last 10%): make sure your answer is saved; "
                          "s submits it."),
        ]
        due = [w for w in warnings if e >= w[1] * limit and w[0] not in cur["warned"]]
        if due:  # after a jump (a resume) only the latest warning is worth saying
            cur["warned"] += [name for name, _, _ in due]
            save_session(self.env, self.session)
            self.say(paint(self.env, f"[{clock_text(e)}] {due[-1][2]}", "yellow", "bold"))
        left = limit - e
        colour = "red" if left <= 0.1 * limit else ("yellow" if left <= 0.5 * limit else "green")
        v = cur.get("verdict")
        if not v:
            judged = "not judged yet"
        elif v.get("total"):
            judged = pass_count(v["passed"], v["total"])
        else:
            judged = STATE_LABELS.get(v.get("state"), (str(v.get("state")),))[0]
        if self.screen.live:
            head = f"⏱ {clock_text(e)} used · "
            tail = f" │ {judged} │ {KEYS_HELP}"
            room = self.screen.columns() - 1 - len(head) - len(f"{clock_text(left)} left")
            if len(tail) > room:  # a line that wraps cannot be redrawn in place: say less
                tail = f" │ {judged}"[: max(0, room)]
            self.screen.status(head + paint(self.env, f"{clock_text(left)} left", colour) + tail)
        else:
            every = min(60.0, max(10.0, limit / 10))
            bucket = int(e // every)
            if bucket != self.last_bucket:
                self.last_bucket = bucket
                self.say(f"⏱ {clock_text(e)} used · {clock_text(left)} left")

    def observe(self, cur: dict) -> bool:
        """Read the attempt file; True when it holds something not seen before the deadline."""
        data = read_bytes(self.path)
        if data is None or self.elapsed() >= cur["limit_s"]:
            return False  # read at or after the deadline: it does not count
        digest = sha(data)
        if digest == cur["seen"]:
            return False
        self.seen_bytes = data
        cur["seen"] = digest
        soft_write(self.env, self.path.parent / ".last-seen.py", data)
        return True

    def play_live(self, cur: dict) -> dict:
        noticed = cur["seen"]
        changed_at = time.monotonic()
        pending = None  # ("submit", frozen bytes, summary) or ("abandon",): waiting for y/n
        while True:
            got, self.signals.got = self.signals.got, None
            if got == signal.SIGINT:
                self.say()
                self.say(paint(self.env, "Ctrl-C: the interview is abandoned.", "yellow")
                         + " Your attempt file stays and the attempt is recorded.")
                return self.finish(cur, "interrupt", self.elapsed())
            if got is not None:
                raise Detached(got)
            e = self.elapsed()
            if e >= cur["limit_s"]:
                return self.hard_stop(cur)
            self.tick(cur, e)
            key = self.keys.poll(TICK)
            if self.signals.got is not None or self.elapsed() >= cur["limit_s"]:
                continue
            if pending is not None and key is not None:
                if key in ("y", "Y"):
                    if pending[0] == "abandon":
                        return self.finish(cur, "abandon", self.elapsed())
                    return self.finish(cur, "submit", self.elapsed(), frozen=pending[1], graded=pending[2])
                pending = None
                self.say("Carrying on.")
                continue
            if key in ("q", "Q"):
                pending = ("abandon",)
                self.say("Abandon this interview? The attempt is recorded as abandoned. [y/N]")
            elif key in ("h", "H"):
                self.hint(cur)
            elif key in ("t", "T"):
                self.observe(cur)
                noticed = cur["seen"]
                self.test_now(cur)
            elif key in ("s", "S"):
                self.observe(cur)
                noticed = cur["seen"]
                frozen = self.seen_bytes
                if frozen == self.stub_bytes:
                    pending = ("submit", frozen, None)
                    self.say("Nothing is written yet. Submit anyway (recorded as no attempt)? [y/N]")
                    continue
                pressed = self.elapsed()
                summary = self.test_now(cur, follow=False)
                if summary["state"] == "passed":  # submitted when s was pressed, however long the judge took
                    return self.finish(cur, "submit", pressed, frozen=frozen, graded=summary)
                if self.elapsed() >= cur["limit_s"]:
                    continue
                pending = ("submit", frozen, summary)
                self.say(f"{pass_count(summary['passed'], summary['total'])}. Submit anyway? [y/N]")
            if self.observe(cur):
                changed_at = time.monotonic()
            if cur["seen"] != noticed and time.monotonic() - changed_at >= self.debounce:
                noticed = cur["seen"]
                if self.session.get("watch", True):
                    self.check(cur)
                else:
                    self.say(f"[{clock_text(self.elapsed())}] saved.  (t runs the tests)")

    def test_now(self, cur: dict, follow: bool = True) -> dict:
        """The verdict for the content last seen: the cached one, or a fresh judge run."""
        if cur["judged"] is not None and cur["judged"] == cur["seen"] and cur.get("verdict"):
            self.say(f"[{clock_text(self.elapsed())}] unchanged since the last run: "
                     f"{pass_count(cur['verdict']['passed'], cur['verdict']['total'])}.")
            return cur["verdict"]
        return self.check(cur, follow)

    def check(self, cur: dict, follow: bool = True) -> dict:
        """Judge the attempt file (a counted judge run) and show as much as an interviewer would.

        ``follow``: a save while the judge runs stops that run and judges the new content, so
        no verdict is ever shown for content that is no longer in the file. (A submission
        judges what was there when s was pressed, and does not follow.)"""
        tagged = cur["seen"]
        self.say(paint(self.env, f"[{clock_text(self.elapsed())}] checking…", "cyan"))
        while True:
            stale = (lambda: sha(read_bytes(self.path)) != tagged) if follow else None
            v = self.judge.judge(self.kata, self.path.parent, stale=stale)
            if v is not None and not (follow and stale()):
                break
            self.observe(cur)
            tagged = cur["seen"]
            self.say(paint(self.env, f"[{clock_text(self.elapsed())}] saved again: checking the new version…", "cyan"))
        cur["judge_runs"] += 1
        cur["verdict"] = {**v.summary(), "seconds": round(v.seconds, 2)}
        # Cache the verdict for the final grade only if the file did not change under the judge.
        cur["judged"] = tagged if sha(read_bytes(self.path)) == tagged else None
        save_session(self.env, self.session)
        self.screen.clear()
        if self.session.get("coach"):
            lines = verdict_lines(self.env, v, self.kata, str(self.path))
        elif v.state == "passed":
            lines = [paint(self.env, f"  ✓ passed: {pass_count(v.total, v.total)}", "green", "bold")
                     + f"  ({v.seconds:.1f} s)" + ("" if self.answer else "   s submits")]
        elif v.state == "failing" or (v.state == "timed-out" and v.total):
            hung = " (one of them timed out)" if v.state == "timed-out" else ""
            lines = [f"  {pass_count(v.passed, v.total)}{hung}.  ({v.seconds:.1f} s)"]
        else:  # the file itself cannot be judged: saying why hands over no test case
            lines = verdict_lines(self.env, v, self.kata, str(self.path))[1:]
        for line in lines:
            self.say(line)
        return cur["verdict"]

    def hint(self, cur: dict) -> None:
        hints = self.kata.hints
        used = cur["hints"]
        if used >= len(hints):
            self.say(f"No more hints: all {len(hints)} are shown above.")
            return
        cur["hints"] = used + 1
        save_session(self.env, self.session)
        head = f"hint {used + 1} of {len(hints)}"
        text = self.screen.wrap(f"{head} (−{HINT_COST} points): {hints[used]}", "  ")
        self.say(paint(self.env, head, "yellow", "bold") + text[len(head):])

    def play_scripted(self, cur: dict) -> dict:
        """--answer FILE [--at SECONDS]: the answer is saved at that time, judged and submitted."""
        e0 = self.elapsed()
        at = e0 if self.at is None else self.at
        if at < e0:
            raise UsageError(f"--at {self.at:g}: the clock already shows {clock_text(e0)}.")
        self.observe(cur)  # the file as it stands is what the interview sees until the answer
        limit = cur["limit_s"]
        for name, frac, text in (("half", 0.5, "Half time."), ("last", 0.9, "The last 10%.")):
            if min(at, limit) >= frac * limit and name not in cur["warned"]:
                cur["warned"].append(name)
                self.say(f"[{clock_text(frac * limit)}] {text}")
        answer = self.answer.read_bytes()
        if at >= limit:
            self.say(paint(self.env, f"[{clock_text(limit)}] Time is up: hard stop.", "red", "bold"))
            frozen = self.seen_bytes
            write_bytes(self.path, answer)
            self.say(f"The answer arrived at {clock_text(at)}, after the hard stop: it is copied into "
                     f"{self.path} but not graded.")
            return self.finish(cur, "time", limit, frozen=frozen)
        write_bytes(self.path, answer)
        self.say(f"[{clock_text(at)}] answer copied in from {shown(self.env, self.answer)}")
        base = at
        self.elapsed = lambda: base  # the scripted clock stands still at the answer
        self.observe(cur)
        graded = None
        if self.session.get("watch", True) and answer != self.stub_bytes:
            graded = self.check(cur)
        if self.signals.got == signal.SIGINT:
            self.say(paint(self.env, "Ctrl-C: the interview is abandoned.", "yellow"))
            return self.finish(cur, "interrupt", at)
        self.say(f"[{clock_text(at)}] submitted.")
        return self.finish(cur, "submit", at, frozen=answer, graded=graded)

    # -- one problem: the end ------------------------------------------------------------------
    def hard_stop(self, cur: dict, closed: bool = False) -> dict:
        limit = cur["limit_s"]
        self.screen.clear()
        self.say()
        self.say(paint(self.env, f"[{clock_text(limit)}] Time is up: hard stop.", "red", "bold"))
        if closed:
            self.say("The deadline passed while the interview was closed: the file as the interview last "
                     "saw it is graded (edits made while it was closed cannot be timed).")
        return self.finish(cur, "time", limit, frozen=self.seen_bytes)

    def finish(self, cur: dict, ended_by: str, used: float, frozen: bytes | None = None,
               graded: dict | None = None) -> dict:
        self.screen.clear()
        env, kata = self.env, self.kata
        used = min(used, cur["limit_s"])
        final = None
        if ended_by in ("submit", "time"):
            final = self.path.parent / "final" / f"{kata.module}.py"
            kept = soft_write(env, final, frozen)
            attempted = frozen != self.stub_bytes
            if attempted and graded is None:
                if sha(frozen) == cur["judged"] and cur.get("verdict"):
                    graded = cur["verdict"]
                else:
                    self.say(f"Grading the frozen copy {final} …")
                    graded = self.grade(frozen, final if kept else None)
            if not kept:
                final = None
            if graded is not None and graded.get("state") == "not-started":
                attempted = False
            passed = bool(graded) and graded.get("state") == "passed"
            outcome = ("passed" if passed else "failed") if ended_by == "submit" else "timed-out"
        else:
            attempted = cur["seen"] != sha(self.stub_bytes)
            graded = cur.get("verdict") if attempted else None
            outcome = "abandoned"
        graded = graded or {}
        rec = {
            "v": RECORD_VERSION,
            "id": cur["id"],
            "kata": kata.module,
            "started_at": cur["started_at"],
            "ended_at": env.now(),
            "limit_s": cur["limit_s"],
            "used_s": round(used, 1),
            "outcome": outcome,
            "ended_by": ended_by,
            "attempted": attempted,
            "state": graded.get("state"),
            "passed": graded.get("passed", 0),
            "total": graded.get("total", 0),
            "first_failure": graded.get("first_failure"),
            "diagnosis": graded.get("diagnosis"),
            "judge_runs": cur["judge_runs"],
            "hints": cur["hints"],
            "score": None,
            "coach": bool(self.session.get("coach")),
            "scripted": self.answer is not None,
            "resumed": cur.get("resumed", 0),
            "closed_s": round(cur.get("closed_s", 0.0), 1),
            "attempt": cur["folder"],
        }
        if attempted and outcome != "abandoned":
            rec["score"] = score(rec["passed"], rec["total"], rec["hints"], used, cur["limit_s"],
                                 outcome == "passed")
        self.report(rec, final, graded.get("properties"))
        return rec

    def grade(self, frozen: bytes, final: Path | None) -> dict:
        """Judge the frozen copy: where it was kept, else (a full disk) from a temporary folder."""
        if final is not None:
            v = self.judge.judge(self.kata, final.parent)
        else:
            import tempfile

            with tempfile.TemporaryDirectory(prefix="dojo-final-") as tmp:
                (Path(tmp) / f"{self.kata.module}.py").write_bytes(frozen)
                v = self.judge.judge(self.kata, Path(tmp))
        return {**v.summary(), "seconds": round(v.seconds, 2)}

    def report(self, rec: dict, final: Path | None, properties: list | None = None) -> None:
        env, kata, say = self.env, self.kata, self.say
        ended = ENDED_WORDS[rec["ended_by"]]
        if not rec["attempted"]:
            result = paint(env, "no attempt", "bold") + f" ({ended}; nothing written yet)"
        else:
            result = {
                "passed": paint(env, "passed", "green", "bold") + ": all properties pass, submitted in time",
                "failed": paint(env, "failed", "red", "bold") + ": submitted with failing properties",
                "timed-out": paint(env, "time ran out", "red", "bold") + " (hard stop; the frozen copy is graded)",
                "abandoned": paint(env, ended, "yellow", "bold"),
            }[rec["outcome"]]
        if rec["outcome"] == "abandoned" and rec["attempted"] and rec["total"]:
            props = f"{pass_count(rec['passed'], rec['total'])} (at the last judge run)"
        elif rec["total"]:
            props = pass_count(rec["passed"], rec["total"])
        elif rec["state"]:
            props = failure_words(rec["state"])
        else:
            props = "—"
        if rec["score"] is not None:
            points = f"{rec['score']}   = {score_formula(rec)}"
        elif not rec["attempted"]:
            points = "— (no attempt)"
        else:
            points = "— (abandoned attempts are not scored)"
        first = failure_words(rec["first_failure"]) if rec["state"] != "passed" else None
        rows = [
            ("result", result),
            ("time", f"{clock_text(rec['used_s'])} of {clock_text(rec['limit_s'])}"
                     + (f"  ({clock_text(rec['closed_s'])} while closed)" if rec["closed_s"] else "")),
            ("properties", props),
            ("judge runs", str(rec["judge_runs"])),
            ("hints", f"{rec['hints']}" + (f" (−{HINT_COST * rec['hints']} points)" if rec["hints"] else "")),
            ("first failure", first or "—"),
            *([("behaves like", rec["diagnosis"])] if rec.get("diagnosis") and first else []),
            ("score", points),
            ("attempt", str(self.path)),
        ]
        if final is not None:
            rows.append(("graded copy", str(final)))
        say()
        say(paint(env, f"Interview over: {kata.module} — {kata.title}", "bold"))
        for name, value in rows:
            say(f"  {name:<15}{value}")
        if properties and rec["attempted"]:
            say()
            say(paint(env, "What the judge checked", "bold") + " (the graded copy):")
            for title, passed in properties:
                say(self.screen.wrap(paint(env, "  ✓ ", "green") + title if passed else paint(env, "  ✗ ", "red") + title, "    "))
        if rec["attempted"] and rec["state"] != "passed" and final is not None:
            say()
            say(f"Next: `dojo compare {kata.module} --file {final}` shows where your answer and the "
                "reference part ways.")
        say()
        say(paint(env, "The interviewer's follow-up questions:", "bold"))
        for i, q in enumerate(kata.followups, 1):
            say(self.screen.wrap(f"  {i}. {q}", "     "))


# -- dojo history ---------------------------------------------------------------------------

RESULT_WORDS = {"passed": "passed", "failed": "failed", "timed-out": "time ran out", "abandoned": "abandoned"}
ENDED_WORDS = {"submit": "submitted", "time": "time ran out", "abandon": "abandoned",
               "interrupt": "abandoned with Ctrl-C"}


num = history.finite


def text_or_dash(value) -> str:
    return value if isinstance(value, str) and value else "—"


def cmd_history(env: Env, args) -> int:
    records = history.read(env)
    if args.kata:
        kata = kata_arg(args.kata)
        records = [r for r in records if r.get("kata") == kata.module]
    if not records:
        env.say("No interviews yet. `dojo interview` starts one.")
        return Exit.OK
    shown_from = 0 if args.all or len(records) <= 20 else len(records) - 20
    rows = []
    for i, r in enumerate(records[shown_from:], shown_from + 1):
        used, limit = num(r.get("used_s")), num(r.get("limit_s"))
        started = num(r.get("started_at"))
        try:
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(started)) if started else "—"
        except (OverflowError, OSError, ValueError):
            when = "—"
        outcome = r.get("outcome")
        result = RESULT_WORDS.get(outcome, "—") if isinstance(outcome, str) else "—"
        if r.get("attempted") is False:
            ended = r.get("ended_by")
            result = f"no attempt ({ENDED_WORDS.get(ended, result) if isinstance(ended, str) else result})"
        passed, total = num(r.get("passed")), num(r.get("total"))
        props = f"{passed:g} of {total:g}" if total and passed is not None else "—"
        chart = history.bar(used / limit) if used is not None and limit and limit > 0 else ""
        score_ = num(r.get("score"))
        hints = num(r.get("hints"))
        rows.append([
            str(i), when, text_or_dash(r.get("kata")), result,
            f"{duration(used)} / {duration(limit)}", chart, props,
            "—" if hints is None else f"{hints:g}", "—" if score_ is None else f"{score_:g}",
        ])
    env.say(paint(env, f"Interview history ({len(records)} attempt{'s' if len(records) != 1 else ''})", "bold"))
    if shown_from:
        env.say(f"(the last 20; `dojo history --all` shows all {len(records)})")
    env.say()
    headers = ["#", "date", "kata", "result", "time used", "of the limit", "props", "hints", "score"]
    for line in table(rows, headers):
        env.say(line)
    bests = history.personal_bests(records)
    if not bests:
        return Exit.OK
    env.say()
    env.say(paint(env, "Personal bests", "bold"))
    rows = [[k, str(b["attempts"]), str(b["passed"]), duration(b["fastest"]),
             "—" if b["best_score"] is None else f"{b['best_score']:g}"] for k, b in bests.items()]
    for line in table(rows, ["kata", "attempts", "passed", "fastest pass", "best score"]):
        env.say(line)
    env.say()
    env.say(paint(env, "Time used per attempt", "bold") + " (oldest → newest; full height is the time limit)")
    width = max(len(k) for k in bests)
    for kata in bests:
        mine = [(used, limit) for r in records if r.get("kata") == kata
                and (used := num(r.get("used_s"))) is not None and (limit := num(r.get("limit_s"))) and limit > 0]
        if not mine:
            continue
        spark = history.sparkline([used / limit for used, limit in mine], top=1.0)
        env.say(f"  {kata:<{width}}  {spark}  last {duration(mine[-1][0])}")
    return Exit.OK


# -- registration ---------------------------------------------------------------------------


def register(sub) -> None:
    p = sub.add_parser(
        "interview", help="a timed mock interview (keys: s submit, t test, h hint, q abandon)",
        description="A timed mock interview: a fresh attempt file per kata, a countdown, every save "
                    "judged (you see how many properties pass), a hard stop, a report and follow-up "
                    "questions. See docs/interview.md.",
    )
    p.add_argument("katas", nargs="*", metavar="KATA", help="the problems (default: the next unsolved kata)")
    p.add_argument("--minutes", type=number(0, MAX_MINUTES, "minutes", low_open=True),
                   help="minutes per problem (default: the kata's own)")
    p.add_argument("--random", action="store_true", help="pick an unsolved kata at random")
    p.add_argument("--coach", action="store_true", help="show the whole verdict, failing inputs included")
    p.add_argument("--manual", action="store_true", help="do not judge on save; press t to run the tests")
    p.add_argument("--resume", action="store_true", help="continue an interview whose terminal was closed")
    p.add_argument("--answer", metavar="FILE", help="scripted: copy FILE in as the answer, judge and submit it")
    p.add_argument("--at", type=number(0, MAX_AT, "seconds"), metavar="SECONDS",
                   help="with --answer: when it is copied in (clock time)")
    p.add_argument("--debounce", type=number(0, 10, "seconds"), default=0.05, help=argparse.SUPPRESS)
    p.set_defaults(func=cmd_interview)
    p = sub.add_parser("history", help="past interviews, personal bests and a chart of time used")
    p.add_argument("kata", nargs="?", help="only this kata")
    p.add_argument("--all", action="store_true", help="every attempt, not just the last 20")
    p.set_defaults(func=cmd_history)
