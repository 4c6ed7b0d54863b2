"""``dojo``: the practice loop. Each command is one small function taking (env, args).

Exit codes (``Exit``): 0 passed / done, 1 a kata failed (or answers disagree), 2 usage error
(bad flag, unknown kata, refused, a file that cannot be written: a full disk, a read-only
folder), 3 internal error (a bug in the tool; please report it), 130 interrupted.
"""

from __future__ import annotations

import argparse
import enum
import hashlib
import math
import os
import select
import sys
import time
from pathlib import Path

from dojo import registry
from dojo.env import Env
from dojo.render import (
    contract, docstring_of, duration, paint, properties_of, signature_of, status_text, table,
    verdict_lines,
)
from dojo.state import CannotWrite, Store, atomic_write_bytes, check_oracle_cache
from dojo.stubs import stub_source


class Exit(enum.IntEnum):
    OK = 0
    FAILED = 1
    USAGE = 2
    INTERNAL = 3
    INTERRUPTED = 130


class UsageError(Exception):
    """Something the user asked for that cannot be done as asked."""


def kata_arg(name: str) -> registry.Kata:
    """A kata by its name, or by its number in the progress table (``dojo test 2``)."""
    if name.isdigit():
        n = int(name)
        if 1 <= n <= len(registry.KATAS):
            return registry.KATAS[n - 1]
        raise UsageError(f"no kata number {n}: the katas are numbered 1 to {len(registry.KATAS)} "
                         f"({', '.join(f'{i} {k.module}' for i, k in enumerate(registry.KATAS, 1))}).")
    try:
        return registry.get(name)
    except registry.UnknownKata as e:
        raise UsageError(str(e)) from None


def number(low: float, high: float, unit: str, low_open: bool = False):
    """An argparse type: a finite number in [low, high] (or (low, high] with ``low_open``).

    nan, inf, 1e308 and negative values are usage errors (exit 2) before anything is written."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of {unit}") from None
        below = value <= low if low_open else value < low
        if not math.isfinite(value) or below or value > high:
            lower = f"more than {low:g}" if low_open else f"at least {low:g}"
            raise argparse.ArgumentTypeError(f"{text!r}: give a number of {unit}, {lower} and at most {high:g}")
        return value
    parse.__name__ = unit  # what argparse calls the type in its messages
    return parse


def shown(env: Env, path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def next_kata(store: Store) -> registry.Kata | None:
    for k in registry.KATAS:
        if (store.kata(k.module).get("verdict") or {}).get("state") != "passed":
            return k
    return None


# -- dojo, dojo list ------------------------------------------------------------------------

WELCOME = """\
Welcome to attention dojo.
You will write attention from scratch in NumPy, one kata at a time. Each kata is a file in
katas/ whose docstring is the contract; the judge runs property tests against PyTorch and
accepts any correct answer, however you write it.

  dojo show KATA     read the problem        dojo test KATA    judge your file once
  dojo watch KATA    re-judge on every save  dojo hint KATA    the next hint
  dojo interview     a timed mock interview  dojo --help       everything else
"""


def cmd_progress(env: Env, args) -> int:
    store = Store(env)
    data = store.load()
    if not data.get("welcomed"):
        env.say(WELCOME)
        data["welcomed"] = True
        store.save()
    drills = progress_table(env, store)
    from dojo.drill import due_lines

    for line in due_lines(env, drills):
        env.say(line)
    nxt = next_kata(store)
    env.say()
    if nxt is None:
        env.say(paint(env, "Every kata passes. ", "green", "bold") + "Try `dojo interview` against the clock.")
    else:
        state = (store.kata(nxt.module).get("verdict") or {}).get("state")
        any_passed = any((store.kata(k.module).get("verdict") or {}).get("state") == "passed" for k in registry.KATAS)
        verb = "Continue with" if state else ("Next:" if any_passed else "Start with")
        env.say(f"{verb} {paint(env, nxt.module, 'bold')} ({nxt.title}):")
        env.say(f"  dojo show {nxt.module}      then edit {shown(env, env.kata_file(nxt))}")
        env.say(f"  dojo watch {nxt.module}     re-judges on every save")
    return Exit.OK


def progress_table(env: Env, store: Store) -> dict:
    """Print the progress table; return the drill schedule it shows (kata -> schedule.Entry)."""
    from dojo import history, schedule

    records = history.read(env)  # read once: best times and the schedule both come from it
    best = history.best_times(records)
    drills = schedule.schedule(records, env.now())
    rows = []
    for i, k in enumerate(registry.KATAS, 1):
        entry = store.kata(k.module)
        status = status_text(env, entry.get("verdict"))
        if entry.get("gave_up"):
            status += paint(env, "  (gave up)", "yellow")
        hints = f"{entry['hints_used']}/{len(k.hints)}" if entry["hints_used"] else "—"
        drill = drills[k.module].cell() if k.module in drills else "—"
        rows.append([f"{i}. {k.module}", k.difficulty, status, hints, drill, duration(best.get(k.module))])
    # One table, so the columns line up across tracks, its rows grouped under track headings;
    # the numbers are the registry's order, running on across tracks.
    header, rule, *lines = table(rows, ["kata", "difficulty", "status", "hints", "next drill", "best interview"])
    env.say("  " + header)
    env.say("  " + rule)
    for track in registry.TRACKS:
        env.say(paint(env, track, "bold"))
        for k, line in zip(registry.KATAS, lines):
            if k.track == track:
                env.say("  " + line)
    return drills


def cmd_list(env: Env, args) -> int:
    progress_table(env, Store(env))
    return Exit.OK


# -- dojo check, dojo test ------------------------------------------------------------------


def record_verdict(store: Store, kata: registry.Kata, verdict, env: Env) -> None:
    entry = store.kata(kata.module)
    entry["verdict"] = {**verdict.summary(), "at": env.now()}
    if verdict.ok:
        entry["solved"] = True
    store.save()


def cmd_check(env: Env, args) -> int:
    from dojo.runner import judge

    store = Store(env)
    store.load()
    check_oracle_cache(env)
    all_ok = True
    n = len(registry.KATAS)
    for i, k in enumerate(registry.KATAS, 1):
        print(f"[{i}/{n}] judging {k.module}…", end="", file=env.stdout, flush=True)
        verdict = judge(env, k, env.kata_file(k).parent)
        record_verdict(store, k, verdict, env)
        all_ok &= verdict.ok
        env.say(" " + status_text(env, verdict.summary()) + f"  ({verdict.seconds:.1f} s)")
    env.say()
    progress_table(env, store)
    return Exit.OK if all_ok else Exit.FAILED


def cmd_test(env: Env, args) -> int:
    from dojo.runner import judge

    kata = kata_arg(args.kata)
    path = env.kata_file(kata)
    check_oracle_cache(env)
    verdict = judge(env, kata, path.parent)
    store = Store(env)
    record_verdict(store, kata, verdict, env)
    for line in verdict_lines(env, verdict, kata, shown(env, path)):
        env.say(line)
    if verdict.ok:
        offer_next(env, store, kata)
    elif verdict.state == "failing":
        env.say(f"Stuck? `dojo hint {kata.module}`.  Re-judge on every save: `dojo watch {kata.module}`.")
    if verdict.state == "error":
        return Exit.INTERNAL
    return Exit.OK if verdict.ok else Exit.FAILED


def offer_next(env: Env, store: Store, kata: registry.Kata) -> registry.Kata | None:
    nxt = next_kata(store)
    if nxt is None:
        env.say(paint(env, "That was the last one: every kata passes.", "green") + " Try `dojo interview`.")
    else:
        env.say(f"Next: {paint(env, nxt.module, 'bold')} — {nxt.title}.  `dojo show {nxt.module}`")
    return nxt


# -- dojo show, dojo hint -------------------------------------------------------------------


def cmd_show(env: Env, args) -> int:
    kata = kata_arg(args.kata)
    source = env.solution_file(kata)
    env.say(paint(env, f"{kata.title}", "bold") + f"   [{kata.difficulty}, about {kata.minutes} min]")
    env.say(f"Edit: {shown(env, env.kata_file(kata))}")
    env.say()
    env.say("    " + paint(env, signature_of(source, kata.function), "cyan"))
    env.say()
    for line in contract(env, docstring_of(source, kata.function)):
        env.say("    " + line if line else "")
    env.say()
    env.say(paint(env, "What the judge checks", "bold") + " (property tests against PyTorch, float64):")
    for _, statement in properties_of(env.test_file(kata)):
        env.say(f"  • {statement}")
    env.say()
    env.say(f"Judge it: dojo test {kata.module}   ·   on every save: dojo watch {kata.module}")
    return Exit.OK


def next_hint(env: Env, store: Store, kata: registry.Kata) -> None:
    entry = store.kata(kata.module)
    used = entry["hints_used"]
    total = len(kata.hints)
    if used >= total:
        env.say(f"No more hints for {kata.module}: all {total} are shown below.")
        for i, h in enumerate(kata.hints, 1):
            env.say(f"  {i}. {h}")
        return
    entry["hints_used"] = used + 1
    store.save()
    env.say(paint(env, f"hint {used + 1} of {total}", "yellow", "bold") + f" ({kata.module}): {kata.hints[used]}")


def current_kata(store: Store) -> registry.Kata | None:
    """The kata you are on: the one judged most recently, unless it passed; else the next to do."""
    judged = [(entry["verdict"].get("at") or 0, k) for k in registry.KATAS
              if isinstance((entry := store.kata(k.module)).get("verdict"), dict)]
    judged = [(at, k) for at, k in judged if isinstance(at, (int, float))]
    if judged:
        _, latest = max(judged, key=lambda pair: pair[0])
        if store.kata(latest.module)["verdict"].get("state") != "passed":
            return latest
    return next_kata(store)


def cmd_hint(env: Env, args) -> int:
    store = Store(env)
    if args.kata:
        kata = kata_arg(args.kata)
    else:
        kata = current_kata(store)
        if kata is None:
            raise UsageError("every kata passes, so there is no current one: name one, e.g. `dojo hint 1`.")
    next_hint(env, store, kata)
    return Exit.OK


# -- dojo reset, dojo restore, dojo solution ------------------------------------------------


def confirm(env: Env, question: str) -> bool:
    if not env.stdin or not env.stdin.isatty():
        raise UsageError(f"{question} Not asking without a terminal: add --yes to go ahead.")
    print(f"{question} [y/N] ", end="", file=env.stdout, flush=True)
    answer = env.stdin.readline().strip().lower()
    return answer in ("y", "yes")


def backup_first(env: Env, store: Store, path: Path, kata: registry.Kata) -> Path | None:
    """Back ``path`` up before it is replaced; when that cannot be done, nothing is replaced."""
    try:
        return store.backup(path, kata.module)
    except CannotWrite as e:
        raise CannotWrite(e.errno, f"{e.strerror}. {shown(env, path)} is left as it was: "
                                   "it is never replaced without a backup.") from None


def cmd_reset(env: Env, args) -> int:
    kata = kata_arg(args.kata)
    path = env.kata_file(kata)
    stub = stub_source(env.solution_file(kata), kata.function)
    if path.exists() and path.read_text(encoding="utf-8", errors="replace") == stub:
        env.say(f"{shown(env, path)} is already the untouched stub; nothing to do.")
        return Exit.OK
    if not args.yes and not confirm(env, f"Replace {shown(env, path)} with the untouched stub?"):
        env.say("Left as it was.")
        return Exit.OK
    store = Store(env)
    saved = backup_first(env, store, path, kata)
    if saved:
        env.say(f"Backed up your file to {shown(env, saved)}")
    atomic_write_bytes(path, stub.encode("utf-8"), env)
    entry = store.kata(kata.module)
    entry.pop("verdict", None)
    store.save()
    env.say(f"{shown(env, path)} is the untouched stub again. `dojo restore {kata.module}` brings your version back.")
    return Exit.OK


def backup_rows(env: Env, backups: list[Path], stub: bytes, current: bytes | None) -> list[list[str]]:
    """One row per backup, newest first, numbered as ``--pick`` takes them."""
    rows = []
    for n, b in enumerate(reversed(backups), 1):
        data = b.read_bytes()
        what = "the untouched stub" if data == stub else "your work"
        if data == current:
            what += " (= the file now)"
        when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(b.stat().st_mtime))
        rows.append([str(n), shown(env, b), when, f"{len(data)} bytes", what])
    return rows


def cmd_restore(env: Env, args) -> int:
    kata = kata_arg(args.kata)
    path = env.kata_file(kata)
    store = Store(env)
    backups = store.backups(kata.module)
    if not backups:
        raise UsageError(f"no backups of {kata.module} yet (they are made by `dojo reset`).")
    stub = stub_source(env.solution_file(kata), kata.function).encode("utf-8")
    current = path.read_bytes() if path.exists() else None
    newest_first = list(reversed(backups))
    if args.list:
        for line in table(backup_rows(env, backups, stub, current), ["#", "backup", "made", "size", "holds"]):
            env.say(line)
        env.say(f"`dojo restore {kata.module} --pick N` brings back number N.")
        return Exit.OK
    if args.pick is not None:
        if not 1 <= args.pick <= len(backups):
            raise UsageError(f"--pick {args.pick}: {kata.module} has backups 1 to {len(backups)} "
                             f"(`dojo restore {kata.module} --list` shows them).")
        chosen = newest_first[args.pick - 1]
    else:
        work = [b for b in newest_first if b.read_bytes() != stub]
        if not work:
            raise UsageError(f"every backup of {kata.module} is the untouched stub: none holds your work "
                             f"(`dojo restore {kata.module} --list` shows them; --pick N takes one anyway).")
        chosen = work[0]
    content = chosen.read_bytes()
    if current == content:
        env.say(f"{shown(env, path)} already matches the backup {shown(env, chosen)}.")
        return Exit.OK
    if current is not None and current != stub and all(b.read_bytes() != current for b in backups):
        saved = backup_first(env, store, path, kata)
        env.say(f"Backed up the file being replaced to {shown(env, saved)}")
    atomic_write_bytes(path, content, env)
    env.say(f"Restored {shown(env, path)} from {shown(env, chosen)}")
    from dojo.runner import judge

    check_oracle_cache(env)
    verdict = judge(env, kata, path.parent)
    record_verdict(store, kata, verdict, env)
    env.say(f"Judged it again for your progress: {status_text(env, verdict.summary())}.")
    return Exit.OK


def cmd_solution(env: Env, args) -> int:
    kata = kata_arg(args.kata)
    store = Store(env)
    entry = store.kata(kata.module)
    if not (entry["solved"] or args.give_up):
        raise UsageError(
            f"the reference answer for {kata.module} opens once your kata passes "
            f"(`dojo test {kata.module}`), or with --give-up, which is recorded in your progress."
        )
    if args.give_up and not entry["solved"]:
        entry["gave_up"] = True
    entry["revealed"] = True
    store.save()
    path = env.solution_file(kata)
    env.say(paint(env, f"Reference answer: {shown(env, path)}", "bold"))
    env.say()
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        env.say(paint(env, f"{n:4d} ", "dim") + line)
    return Exit.OK


# -- dojo followups -------------------------------------------------------------------------


def cmd_followups(env: Env, args) -> int:
    import textwrap

    from dojo import demos

    kata = kata_arg(args.kata) if args.kata else next_kata(Store(env))
    if kata is None:
        raise UsageError("every kata passes already: name one, e.g. `dojo followups softmax`.")
    env.say(paint(env, f"{kata.module} — {kata.title}", "bold"))
    env.say("The interviewer's follow-up questions:")
    for i, f in enumerate(kata.followup_answers, 1):
        env.say(textwrap.fill(f.question, 100, initial_indent=f"{i:>3}. ", subsequent_indent="     "))
        if not args.answers:
            continue
        for line in f.answer_lines():
            env.say("     " + line)
        if f.demo:
            env.say(paint(env, f"     computed now (dojo/demos.py: {f.demo}):", "cyan"))
            for line in demos.run(f.demo).lines:
                env.say("       " + line)
        env.say()
    if not args.answers:
        env.say(f"Model answers, with their numbers computed live: dojo followups {kata.module} --answers")
    return Exit.OK


# -- dojo watch -----------------------------------------------------------------------------


class Keys:
    """Single key presses from a terminal (cbreak mode), or lines from a pipe."""

    def __init__(self, stream):
        self.fd = None
        self.saved = None
        self.closed = False
        try:
            self.fd = stream.fileno()
        except (AttributeError, OSError, ValueError):
            self.closed = True
            return
        if os.isatty(self.fd):
            import termios
            import tty

            self.saved = termios.tcgetattr(self.fd)
            tty.setcbreak(self.fd)

    def poll(self, timeout: float) -> str | None:
        if self.closed:
            time.sleep(timeout)
            return None
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return None
        data = os.read(self.fd, 1)
        if not data:
            self.closed = True  # end of input: keep watching, keys are simply gone
            return None
        key = data.decode(errors="ignore")
        return key if key.strip() else None

    def restore(self) -> None:
        if self.saved is not None:
            import termios

            termios.tcsetattr(self.fd, termios.TCSADRAIN, self.saved)


def file_signature(path: Path):
    try:
        data = path.read_bytes()
    except OSError:
        return None
    return hashlib.sha1(data).hexdigest()


def cmd_watch(env: Env, args) -> int:
    from dojo.runner import WarmJudge

    store = Store(env)
    store.load()
    kata = kata_arg(args.kata) if args.kata else next_kata(store)
    if kata is None:
        env.say("Every kata passes already. Name one to keep practising: dojo watch KATA")
        return Exit.OK
    judge = WarmJudge(env)
    keys = Keys(env.stdin)
    try:
        return watch_loop(env, store, judge, keys, kata, args.debounce)
    except KeyboardInterrupt:
        env.say("\nStopped watching.")
        return Exit.INTERRUPTED
    finally:
        keys.restore()


def watch_loop(env, store, judge, keys, kata, debounce: float) -> int:
    def announce(k):
        env.say(paint(env, f"Watching {shown(env, env.kata_file(k))}", "bold")
                + " — save the file to re-judge.   keys: h hint · q quit")

    announce(kata)
    path = env.kata_file(kata)
    judged = None  # signature of the content last judged
    passed = False
    nxt = None
    while True:
        key = keys.poll(0.05)
        if key in ("q", "Q"):
            env.say("Bye.")
            return Exit.OK
        if key in ("h", "H"):
            if passed:
                env.say(f"{kata.module} passes already: no hint spent. `dojo hint {kata.module}` shows one anyway.")
            else:
                next_hint(env, store, kata)
        if key in ("n", "N") and passed and nxt is not None:
            kata, path, judged, passed, nxt = nxt, env.kata_file(nxt), None, False, None
            announce(kata)
            continue
        sig = file_signature(path)
        if sig == judged:
            continue
        env.say(paint(env, f"[{time.strftime('%H:%M:%S', time.localtime(env.now()))}] checking…", "cyan"))
        # Debounce: editors often write a file in several steps; wait until it holds still.
        settled = time.monotonic()
        while time.monotonic() - settled < debounce:
            time.sleep(0.05)
            again = file_signature(path)
            if again != sig:
                sig, settled = again, time.monotonic()
        # A save while the judge runs stops it; a verdict is shown only for what the file holds.
        verdict = judge.judge(kata, path.parent, stale=lambda: file_signature(path) != sig)
        if verdict is None or file_signature(path) != sig:
            env.say(paint(env, "saved again while checking: judging the new version instead.", "cyan"))
            continue
        judged = sig
        record_verdict(store, kata, verdict, env)
        for line in verdict_lines(env, verdict, kata, shown(env, path)):
            env.say(line)
        passed = verdict.ok
        if passed:
            nxt = offer_next(env, store, kata)
            if nxt is not None and nxt.module != kata.module:
                env.say("Press n to watch it now, q to quit.")
        env.say()


# -- the entry point ------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    names = ", ".join(f"{i} {k.module}" for i, k in enumerate(registry.KATAS, 1))
    parser = argparse.ArgumentParser(
        prog="dojo",
        description="Practise writing attention in NumPy. With no command: your progress.",
        epilog=f"Katas, by name or number: {names}.  `dojo help COMMAND` explains one command.  "
               "Exit codes: 0 ok/passed, 1 failed, 2 usage error (or a file that cannot be written), "
               "3 internal error, 130 interrupted.",
    )
    parser.add_argument("--version", action="version", version=f"dojo {version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.add_parser("list", help="the progress table").set_defaults(func=cmd_list)
    sub.add_parser("check", help="re-judge every kata and refresh the table").set_defaults(func=cmd_check)
    for name, func, help_ in (
        ("show", cmd_show, "the problem as a candidate gets it"),
        ("test", cmd_test, "judge your file and print the verdict"),
    ):
        p = sub.add_parser(name, help=help_, description=help_[0].upper() + help_[1:] + ".")
        p.add_argument("kata", help=KATA_HELP)
        p.set_defaults(func=func)
    p = sub.add_parser("hint", help="the next hint", description="The next hint, recorded in your progress.")
    p.add_argument("kata", nargs="?", help=KATA_HELP + " (default: the kata you are on)")
    p.set_defaults(func=cmd_hint)
    p = sub.add_parser(
        "restore", help="bring back a backup (the latest of your work; backs up what it replaces)",
        description="Bring back a backup made by `dojo reset` or an earlier restore: by default the "
                    "latest backup of your own work (a backup of the untouched stub is never chosen "
                    "while one of your work exists). The file it replaces is backed up first.",
    )
    p.add_argument("kata", help=KATA_HELP)
    p.add_argument("--list", action="store_true", help="list the backups, numbered, newest first")
    p.add_argument("--pick", type=int, metavar="N", help="restore backup number N of --list")
    p.set_defaults(func=cmd_restore)
    p = sub.add_parser("watch", help="re-judge on every save (keys: h hint, q quit)")
    p.add_argument("kata", nargs="?", help=KATA_HELP + " (default: the next one to do)")
    p.add_argument("--debounce", type=float, default=0.05, help=argparse.SUPPRESS)
    p.set_defaults(func=cmd_watch)
    p = sub.add_parser("reset", help="put the stub back (your file is backed up first)")
    p.add_argument("kata", help=KATA_HELP)
    p.add_argument("--yes", action="store_true", help="do not ask")
    p.set_defaults(func=cmd_reset)
    p = sub.add_parser("solution", help="the reference answer, once your kata passes")
    p.add_argument("kata", help=KATA_HELP)
    p.add_argument("--give-up", action="store_true", help="show it anyway (recorded in your progress)")
    p.set_defaults(func=cmd_solution)
    p = sub.add_parser("followups", help="the interviewer's follow-up questions (--answers: model answers)")
    p.add_argument("kata", nargs="?", help="default: the next kata to do")
    p.add_argument("--answers", action="store_true", help="show the model answers and run their demonstrations")
    p.set_defaults(func=cmd_followups)
    for extension in ("dojo.interview", "dojo.compare", "dojo.drill", "dojo.clean"):
        try:
            module = __import__(extension, fromlist=["register"])
        except ModuleNotFoundError as e:
            if e.name != extension:
                raise
            continue
        module.register(sub)
    p = sub.add_parser("help", help="help on one command: dojo help interview")
    p.add_argument("topic", nargs="?", metavar="COMMAND")
    p.set_defaults(func=lambda env, args: cmd_help(env, args, parser, sub))
    return parser


KATA_HELP = "a kata's name, or its number in the progress table (1 = the first)"


def version() -> str:
    """The installed package's version, else the one in pyproject.toml beside the package."""
    from importlib import metadata

    try:
        return metadata.version("attention-dojo")
    except metadata.PackageNotFoundError:
        import tomllib

        try:
            with open(registry.ROOT / "pyproject.toml", "rb") as f:
                return tomllib.load(f)["project"]["version"]
        except (OSError, KeyError, ValueError):
            return "unknown"


def subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices
    return {}


def parse(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace:
    """Parse ``argv``; a flag the command does not know is refused with that command's usage."""
    args, extra = parser.parse_known_args(argv)
    if extra:
        own = subparsers(parser).get(getattr(args, "command", None) or "", parser)
        own.error(f"unrecognized arguments: {' '.join(extra)}")
    return args


def cmd_help(env: Env, args, parser: argparse.ArgumentParser, sub) -> int:
    if not args.topic:
        env.say(parser.format_help().rstrip())
        return Exit.OK
    commands = sub.choices
    if args.topic not in commands:
        import difflib

        close = difflib.get_close_matches(args.topic, list(commands), n=1)
        hint = f" Did you mean {close[0]!r}?" if close else ""
        raise UsageError(f"no command called {args.topic!r}.{hint} Commands: {', '.join(commands)}.")
    env.say(commands[args.topic].format_help().rstrip())
    return Exit.OK


def main(argv: list[str] | None = None, env: Env | None = None) -> int:
    env = env or Env.from_os()
    parser = build_parser()
    try:
        args = parse(parser, sys.argv[1:] if argv is None else argv)
    except SystemExit as e:
        return Exit.OK if e.code == 0 else Exit.USAGE
    func = getattr(args, "func", cmd_progress)
    try:
        return int(func(env, args))
    except UsageError as e:
        env.warn(f"dojo: {e}")
        return Exit.USAGE
    except CannotWrite as e:  # a full disk, a read-only folder: not a bug, and nothing was lost
        env.warn(f"dojo: {e.strerror}")
        return Exit.USAGE
    except KeyboardInterrupt:
        env.warn("\ninterrupted")
        return Exit.INTERRUPTED
    except BrokenPipeError:
        return Exit.OK
    except Exception:  # a bug in the tool itself: say so plainly, keep the traceback
        import traceback

        env.warn("dojo: internal error (a bug in the tool, not in your kata). Details:")
        env.warn(traceback.format_exc().rstrip())
        return Exit.INTERNAL
