"""The entry point: the parser (the extensions' commands registered into it), ``dojo help`` and
``main``, which maps what a command raises to an exit code."""

from __future__ import annotations

import argparse
import os
import sys

from dojo.text import lang, locale
from dojo.catalogue import registry
from dojo.commands.cli.backups import cmd_reset, cmd_restore
from dojo.commands.cli.check import cmd_check, cmd_test
from dojo.commands.cli import argwords
from dojo.commands.cli.common import Exit, UsageError, words
from dojo.commands.cli.progress import cmd_list, cmd_progress
from dojo.commands.cli.show import cmd_followups, cmd_hint, cmd_show, cmd_solution
from dojo.commands.cli.watch import cmd_watch
from dojo.catalogue.env import Env, other_clone, run_in
from dojo.state.state import CannotWrite


class Formatter(argparse.HelpFormatter):
    """argparse's help, its Chinese paragraphs wrapped in cells, between characters
    (``dojo.text.cjk``); English as argparse wraps it."""

    def _split_lines(self, text, width):
        from dojo.text import cjk

        if not cjk.has_wide(text):
            return super()._split_lines(text, width)
        return cjk.wrap(" ".join(text.split()), width)

    def format_help(self):
        """A section's heading ends in a full-width colon when it is Chinese ("选项：")."""
        import re

        return re.sub(r"(?m)^(\s*\S*[\u3000-\u9fff]):$", "\\1：", super().format_help())

    def _fill_text(self, text, width, indent):
        from dojo.text import cjk

        if not cjk.has_wide(text):
            return super()._fill_text(text, width, indent)
        return "\n".join(indent + ln for ln in cjk.wrap(" ".join(text.split()), max(11, width - len(indent))))


class Parser(argparse.ArgumentParser):
    """argparse, its usage errors fitted to the terminal like every other line (its help is
    wrapped by argparse itself, at the terminal's width), its words in the tool's language
    (``dojo.commands.cli.argwords``)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str):
        self.print_usage(sys.stderr)
        said = argwords.words("%(prog)s: error: %(message)s\n") % {"prog": self.prog, "message": message}
        Env(stdout=sys.stdout, stderr=sys.stderr).warn(said.rstrip("\n"))
        self.exit(2)


def build_parser() -> argparse.ArgumentParser:
    argwords.install(locale.LANGUAGE)
    names = words("cli.join.list").join(f"{i} {k.module}" for i, k in enumerate(registry.KATAS, 1))
    parser = Parser(prog="dojo", description=words("cli.parser.description"),
                    epilog=words("cli.parser.epilog", names=names))
    parser.add_argument("--version", action="version", version=f"dojo {version()}",
                        help=argwords.words("show program's version number and exit"))
    parser.add_argument("--lang", metavar="zh|en", dest="lang_flag", help=words("cli.lang.flag"))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.add_parser("list", help=words("cli.list.help")).set_defaults(func=cmd_list)
    sub.add_parser("check", help=words("cli.check.help")).set_defaults(func=cmd_check)
    kata, current = words("cli.arg.kata"), words("cli.arg.kata-current")
    p = sub.add_parser("show", help=words("cli.show.help"), description=words("cli.show.description"))
    p.add_argument("kata", help=kata)
    p.set_defaults(func=cmd_show)
    p = sub.add_parser("test", help=words("cli.test.help"), description=words("cli.test.description"))
    p.add_argument("kata", nargs="?", help=current)
    p.add_argument("--json", metavar="FILE", dest="json_to", help=words("cli.test.json"))
    p.add_argument("--seed", type=int, metavar="N", help=words("cli.test.seed"))
    p.set_defaults(func=cmd_test)
    p = sub.add_parser("hint", help=words("cli.hint.help"), description=words("cli.hint.description"))
    p.add_argument("kata", nargs="?", help=current)
    p.set_defaults(func=cmd_hint)
    p = sub.add_parser("restore", help=words("cli.restore.help"), description=words("cli.restore.description"))
    p.add_argument("kata", help=kata)
    p.add_argument("--list", action="store_true", help=words("cli.restore.list"))
    p.add_argument("--pick", type=int, metavar="N", help=words("cli.restore.pick"))
    p.set_defaults(func=cmd_restore)
    p = sub.add_parser("watch", help=words("cli.watch.help"))
    p.add_argument("kata", nargs="?", help=words("cli.arg.kata-watch"))
    p.add_argument("--debounce", type=float, default=0.05, help=argparse.SUPPRESS)
    p.set_defaults(func=cmd_watch)
    p = sub.add_parser("reset", help=words("cli.reset.help"))
    p.add_argument("kata", help=kata)
    p.add_argument("--yes", action="store_true", help=words("cli.arg.yes"))
    p.set_defaults(func=cmd_reset)
    p = sub.add_parser("solution", help=words("cli.solution.help"))
    p.add_argument("kata", help=kata)
    p.add_argument("--give-up", action="store_true", help=words("cli.solution.give-up"))
    p.set_defaults(func=cmd_solution)
    p = sub.add_parser("followups", help=words("cli.followups.help"))
    p.add_argument("kata", nargs="?", help=words("cli.followups.kata"))
    p.add_argument("--answers", action="store_true", help=words("cli.followups.answers"))
    p.set_defaults(func=cmd_followups)
    for extension in ("dojo.commands.cli.lang", "dojo.commands.interview", "dojo.commands.compare", "dojo.commands.drill",
                      "dojo.commands.clean", "dojo.commands.notebook.generate"):
        try:
            module = __import__(extension, fromlist=["register"])
        except ModuleNotFoundError as e:
            if e.name != extension:
                raise
            continue
        module.register(sub)
    p = sub.add_parser("help", help=words("cli.help.help"))
    p.add_argument("topic", nargs="?", metavar="COMMAND")
    p.set_defaults(func=lambda env, args: cmd_help(env, args, parser, sub))
    return parser


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
        own.error(argwords.words("unrecognized arguments: %s") % " ".join(extra))
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
                raise lang.LanguageError(words("cli.main.lang-missing"))
            flag, i = argv[i + 1], i + 2
            continue
        if a.startswith("--lang="):
            flag = a.split("=", 1)[1]
        else:
            rest.append(a)
        i += 1
    if flag is not None:
        _known(flag, "--lang")
    return flag, rest


def _known(value: str, where: str) -> None:
    """A usage error, in the catalogue's words, when ``value`` is not a language dojo has."""
    try:
        lang.normalise(value, where)
    except lang.LanguageError:
        raise lang.LanguageError(words("cli.main.lang-unknown", where=where, value=repr(value),
                                       choices=", ".join(lang.LANGUAGES))) from None


def cmd_help(env: Env, args, parser: argparse.ArgumentParser, sub) -> int:
    if not args.topic:
        env.say(parser.format_help().rstrip())
        return Exit.OK
    commands = sub.choices
    if args.topic not in commands:
        import difflib

        close = difflib.get_close_matches(args.topic, list(commands), n=1)
        hint = words("cli.help.did-you-mean", name=repr(close[0])) if close else ""
        raise UsageError(words("cli.help.unknown", name=repr(args.topic), hint=hint,
                               commands=words("cli.join.list").join(commands)))
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
        if os.environ.get("DOJO_LANG") and not flag:
            _known(os.environ["DOJO_LANG"], "DOJO_LANG")
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
        env.warn("\n" + words("cli.main.interrupted"))
        return Exit.INTERRUPTED
    except BrokenPipeError:
        return Exit.OK
    except Exception:  # a bug in the tool itself: say so plainly, keep the traceback
        import traceback

        env.warn(words("cli.main.internal"))
        env.warn(traceback.format_exc().rstrip())
        return Exit.INTERNAL
