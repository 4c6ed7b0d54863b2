"""``dojo drill``: a mock interview on the kata most overdue for a re-drill.

The schedule (``dojo/state/schedule.py``) is worked out from ``history.jsonl`` alone. A drill is an
ordinary ``dojo interview`` (a blank stub in ``<state>/attempts/``, katas/ never touched),
started by parsing ``interview KATA [flags]`` through the real ``interview`` command, so it
gets every default that command has, and its record in the history is the interview's own.
"""

from __future__ import annotations

import argparse
import datetime as dt

from dojo.catalogue import registry
from dojo.state import schedule
from dojo.commands.cli.common import Exit, UsageError, kata_arg, state_now, words
from dojo.commands.cli.entry import build_parser, parse, subparsers
from dojo.catalogue.env import Env
from dojo.commands.interview.screen import around
from dojo.screens.render import line
from dojo.state.state import Store
from dojo.text.messages import listed

#: ``dojo interview`` flags that ``dojo drill`` hands on as they are (when interview has them)
PASSTHROUGH = ("--minutes", "--coach", "--manual", "--answer", "--at")


def day_text(day: dt.date | None) -> str:
    """``Fri 2027-01-22``: the weekday in the tool's language, the date in numbers."""
    if day is None:
        return "—"
    return words("drill.day", weekday=words(f"drill.weekday.{day.weekday()}"), date=f"{day:%Y-%m-%d}")


def due_words(e: schedule.Entry) -> str:
    """``overdue 3 d``, ``due today``, ``due in 5 d (Fri 2027-01-22)``."""
    if e.overdue is None:
        if e.days_left == 1:
            return words("drill.due-tomorrow", day=day_text(e.due))
        return words("drill.due-in", days=e.days_left, day=day_text(e.due))
    return e.cell()


def never_interviewed(env: Env, entries: dict) -> list[str]:
    """Katas whose file passes in practice as it is now (state.json's verdict, while the file
    still has the hash it was judged with) but have no interview in the history."""
    store = Store(env)
    return [k for k in schedule.drillable(env) if k not in entries
            and state_now(store, registry.get(k)) == "passed"]


def interview_parser(parser: argparse.ArgumentParser) -> argparse.ArgumentParser | None:
    return subparsers(parser).get("interview")


def cmd_drill(env: Env, args) -> int:
    parser = build_parser()
    interview = interview_parser(parser)
    if interview is None:
        raise UsageError(words("drill.usage.no-interview"))
    entries = schedule.for_env(env)
    if args.kata:
        kata = kata_arg(args.kata)
    else:
        first = schedule.most_overdue(entries, schedule.drillable(env))
        if first is None:
            return nothing_due(env, entries)
        kata = registry.get(first.kata)
    if not (env.state_dir / "interview.json").exists():  # else the interview says what is open
        introduce(env, kata, entries.get(kata.module))

    argv = ["interview", kata.module] + (["--loop"] if args.loop else [])
    for flag in PASSTHROUGH:
        value = getattr(args, flag[2:].replace("-", "_"), None)
        if value is True:
            argv.append(flag)
        elif isinstance(value, list):  # --answer/--at, once per stage of a loop
            argv += [part for v in value for part in (flag, str(v))]
        elif value not in (None, False):
            argv += [flag, str(value)]
    try:
        interview_args = parse(parser, argv)
    except SystemExit as e:  # cannot happen for flags drill itself accepted; said by argparse
        return Exit.OK if e.code == 0 else Exit.USAGE
    code = interview_args.func(env, interview_args)

    for e in schedule.for_env(env).values():
        if e.attempts > (entries[e.kata].attempts if e.kata in entries else 0):
            env.say()
            env.say(line(env, (words("drill.schedule", kata=e.kata, again=again(e)), "bold"),
                         " " + verdict(e, entries.get(e.kata))))
    return code


def again(e: schedule.Entry) -> str:
    """``again tomorrow (Sat 2027-01-16)``, ``again in 3 d (…)``."""
    if e.days_left == 1:
        return words("drill.again-tomorrow", day=day_text(e.due))
    return words("drill.again-in", days=e.days_left, day=day_text(e.due))


def verdict(e: schedule.Entry, before: schedule.Entry | None) -> str:
    """What the attempt just made did to the streak."""
    result = schedule.result_words(e.last or {})
    if not schedule.clean_pass(e.last or {}):
        return words("drill.verdict.reset", result=result)
    if before is not None and before.overdue is None and e.streak == before.streak:
        return words("drill.verdict.early", streak=e.streak)
    return words("drill.verdict.streak", streak=e.streak)


def introduce(env: Env, kata: registry.Kata, e: schedule.Entry | None) -> None:
    """One line before the interview: why this kata, and what a drill now does to its schedule."""
    if e is None:
        why = words("drill.why.first")
    else:
        last = words("drill.why.last", day=day_text(schedule.local_day(e.last_at)),
                     result=schedule.result_words(e.last or {}))
        streak = words("drill.why.streak." + ("one" if e.streak == 1 else "many"), count=e.streak)
        if e.overdue is not None:
            why = words("drill.why.due", cell=e.cell(), last=last, streak=streak)
        elif e.streak:
            why = words("drill.why.early-streak", day=day_text(e.due), last=last, streak=streak, count=e.streak,
                        days=schedule.interval(e.streak))
        else:
            why = words("drill.why.early", day=day_text(e.due), last=last)
    env.say(line(env, (words("drill.heading", kata=kata.module), "bold"), words("drill.heading.why", why=why)))
    env.say(words("drill.blank-stub", file=env.kata_file(kata).relative_to(env.root)))
    env.say()


def nothing_due(env: Env, entries: dict) -> int:
    soon = schedule.next_due(entries, schedule.drillable(env))
    if soon is None:
        env.say(words("drill.nothing-yet"))
    else:
        env.say(words("drill.nothing-due", kata=soon.kata, due=due_words(soon)))
    fresh = never_interviewed(env, entries)
    if fresh:
        env.say(line(env, *around("drill.never-interviewed", "command", f"`dojo drill {fresh[0]}`",
                                  katas=listed(fresh))))
    return Exit.OK


def register(sub) -> None:
    p = sub.add_parser("drill", help=words("drill.help"), description=words("drill.description"))
    p.add_argument("kata", nargs="?", metavar="KATA", help=words("drill.arg.kata"))
    p.add_argument("--loop", action="store_true", help=words("drill.arg.loop"))
    interview = sub.choices.get("interview")
    for flag in PASSTHROUGH:  # the interview's own flags, with its own checks and help
        action = interview._option_string_actions.get(flag) if interview else None
        if action is None:
            continue
        if isinstance(action, argparse._StoreTrueAction):
            p.add_argument(flag, action="store_true", help=action.help)
        else:
            repeat = "append" if isinstance(action, argparse._AppendAction) else "store"
            p.add_argument(flag, type=action.type, metavar=action.metavar, help=action.help, action=repeat)
    p.set_defaults(func=cmd_drill)
