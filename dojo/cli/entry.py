"""The entry point: the parser (the extensions' commands registered into it), ``dojo help`` and
``main``, which maps what a command raises to an exit code."""

from __future__ import annotations

import argparse
import sys

from dojo import lang, locale, registry
from dojo.cli.backups import cmd_reset, cmd_restore
from dojo.cli.check import cmd_check, cmd_test
from dojo.cli.common import Exit, UsageError, words
from dojo.cli.progress import cmd_list, cmd_progress
from dojo.cli.show import cmd_followups, cmd_hint, cmd_show, cmd_solution
from dojo.cli.watch import cmd_watch
from dojo.env import Env, other_clone, run_in
from dojo.state import CannotWrite


class Parser(argparse.ArgumentParser):
    """argparse, its usage errors fitted to the terminal like every other line (its help is
    wrapped by argparse itself, at the terminal's width)."""

    def error(self, message: str):
        self.print_usage(sys.stderr)
        Env(stdout=sys.stdout, stderr=sys.stderr).warn(f"{self.prog}: error: {message}")
        self.exit(2)


def build_parser() -> argparse.ArgumentParser:
    names = ", ".join(f"{i} {k.module}" for i, k in enumerate(registry.KATAS, 1))
    parser = Parser(
        prog="dojo",
        description="Practise writing attention in NumPy. With no command: your progress.",
        epilog=f"Katas, by name or number: {names}.  `dojo help COMMAND` explains one command.  "
               "Exit codes: 0 ok/passed, 1 failed, 2 usage error (or a file that cannot be written), "
               "3 internal error, 130 interrupted.",
    )
    parser.add_argument("--version", action="version", version=f"dojo {version()}")
    parser.add_argument("--lang", metavar="zh|en", dest="lang_flag", help=words("cli.lang.flag"))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.add_parser("list", help="the progress table").set_defaults(func=cmd_list)
    sub.add_parser("check", help="re-judge every kata and refresh the table").set_defaults(func=cmd_check)
    p = sub.add_parser("show", help="the problem as a candidate gets it",
                       description="The problem as a candidate gets it.")
    p.add_argument("kata", help=KATA_HELP)
    p.set_defaults(func=cmd_show)
    p = sub.add_parser("test", help="judge your file and print the verdict (default: the kata you are on)",
                       description="Judge your file and print the verdict. Without KATA: the kata you are "
                                   "on, as for `dojo hint` (the one judged last, unless it passes; else the "
                                   "next to do).")
    p.add_argument("kata", nargs="?", help=KATA_HELP + " (default: the kata you are on)")
    p.add_argument("--json", metavar="FILE", dest="json_to",
                   help="also write the verdict as exercism's results.json (version 3) to FILE; "
                        "`-`: only the JSON, on standard output (docs/verdict.md)")
    p.set_defaults(func=cmd_test)
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
    p.add_argument("kata", nargs="?", help=KATA_HELP + " (default: the kata you are on, as for `dojo hint`)")
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
    for extension in ("dojo.cli.lang", "dojo.interview", "dojo.compare", "dojo.drill", "dojo.clean"):
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
        command = getattr(args, "command", None) or ""
        own = subparsers(parser).get(command, parser)
        if command == "drill" and "--resume" in extra:  # say what is meant, not only what is not known
            own.error(words("usage.drill-resume"))
        if not any(e.startswith("-") for e in extra) and isinstance(getattr(args, "kata", None), str):
            own.error(words("usage.one-kata", command=command, extra=" ".join(extra)))
        own.error(f"unrecognized arguments: {' '.join(extra)}")
    return args


def lang_flag(argv: list[str]) -> tuple[str | None, list[str]]:
    """``--lang X`` (or ``--lang=X``) taken out of ``argv`` wherever it is, before the parser is
    built: the parser's own help is in the chosen language. The last one given wins."""
    flag, rest, i = None, [], 0
    while i < len(argv):
        a = argv[i]
        if a == "--":
            rest += argv[i:]
            break
        if a == "--lang":
            if i + 1 >= len(argv):
                raise lang.LanguageError("--lang needs a language: zh or en")
            flag, i = argv[i + 1], i + 2
            continue
        if a.startswith("--lang="):
            flag = a.split("=", 1)[1]
        else:
            rest.append(a)
        i += 1
    if flag is not None:
        lang.normalise(flag, "--lang")
    return flag, rest


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
    if env is None:  # a real run: in another clone, that clone's own dojo works on its files
        clone = other_clone()
        if clone is not None:
            run_in(clone, sys.argv[1:] if argv is None else argv)
    env = env or Env.from_os()
    argv = sys.argv[1:] if argv is None else argv
    try:
        flag, argv = lang_flag(argv)
        locale.set_language(lang.choose(flag, state_dir=env.state_dir))
    except lang.LanguageError as e:
        env.warn(f"dojo: {e}")
        return Exit.USAGE
    parser = build_parser()
    try:
        args = parse(parser, argv)
    except SystemExit as e:
        return Exit.OK if e.code == 0 else Exit.USAGE
    args.lang_flag = flag
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
