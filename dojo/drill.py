"""``dojo drill``: a mock interview on the kata most overdue for a re-drill.

The schedule (``dojo/schedule.py``) is worked out from ``history.jsonl`` alone. A drill is an
ordinary ``dojo interview`` (a blank stub in ``<state>/attempts/``, katas/ never touched),
started by parsing ``interview KATA [flags]`` through the real ``interview`` command, so it
gets every default that command has, and its record in the history is the interview's own.
"""

from __future__ import annotations

import argparse
import datetime as dt

from dojo import registry, schedule
from dojo.cli.common import Exit, UsageError, kata_arg, state_now
from dojo.cli.entry import build_parser, parse, subparsers
from dojo.env import Env
from dojo.render import keep, line
from dojo.state import Store

#: ``dojo interview`` flags that ``dojo drill`` hands on as they are (when interview has them)
PASSTHROUGH = ("--minutes", "--coach", "--manual", "--answer", "--at")


def day_text(day: dt.date | None) -> str:
    return "—" if day is None else f"{day:%a %Y-%m-%d}"


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 'es' if word.endswith('s') else 's'}"


def due_words(e: schedule.Entry) -> str:
    """``overdue 3 d``, ``due today``, ``due in 5 d (Fri 2027-01-22)``."""
    if e.overdue is None:
        when = "tomorrow" if e.days_left == 1 else f"in {e.days_left} d"
        return f"due {when} ({day_text(e.due)})"
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
        raise UsageError("this dojo has no `dojo interview` command, which a drill runs.")
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
            env.say(line(env, (f"Schedule: {e.kata} {again(e)}.", "bold"), " " + verdict(e, entries.get(e.kata))))
    return code


def again(e: schedule.Entry) -> str:
    """``again tomorrow (Sat 2027-01-16)``, ``again in 3 d (…)``."""
    return f"again {'tomorrow' if e.days_left == 1 else f'in {e.days_left} d'} ({day_text(e.due)})"


def verdict(e: schedule.Entry, before: schedule.Entry | None) -> str:
    """What the attempt just made did to the streak."""
    result = schedule.result_words(e.last or {})
    if not schedule.clean_pass(e.last or {}):
        return f"This drill: {result}, so the streak starts again from 0."
    if before is not None and before.overdue is None and e.streak == before.streak:
        return f"This drill: a clean pass ahead of its day, so the streak stays at {e.streak}."
    return f"This drill: a clean pass, {e.streak} in a row."


def introduce(env: Env, kata: registry.Kata, e: schedule.Entry | None) -> None:
    """One line before the interview: why this kata, and what a drill now does to its schedule."""
    if e is None:
        why = "its first interview; a clean pass puts it on the schedule (again tomorrow)."
    else:
        last = f"last drilled {day_text(schedule.local_day(e.last_at))}: {schedule.result_words(e.last or {})}"
        streak = f"{plural(e.streak, 'clean pass')} in a row"
        if e.overdue is not None:
            why = f"{e.cell()} ({last}; {streak})."
        elif e.streak:
            why = (f"not due until {day_text(e.due)} ({last}; {streak}). Drilling early: a clean pass "
                   f"keeps the streak at {e.streak} and restarts its {schedule.interval(e.streak)}-day "
                   "interval from today; anything else sets the streak back to 0.")
        else:
            why = f"not due until {day_text(e.due)} ({last}). Drilling early: it is due again tomorrow either way."
    env.say(line(env, (f"Drill: {kata.module}", "bold"), f" — {why}"))
    env.say(f"A blank stub in the attempts folder; your {env.kata_file(kata).relative_to(env.root)} is not touched.")
    env.say()


def nothing_due(env: Env, entries: dict) -> int:
    soon = schedule.next_due(entries, schedule.drillable(env))
    if soon is None:
        env.say("Nothing to drill yet: a kata joins the schedule once you have interviewed on it "
                "(`dojo interview`, or `dojo drill KATA`).")
    else:
        env.say(f"Nothing is due today. Next: {soon.kata}, {due_words(soon)}.")
    fresh = never_interviewed(env, entries)
    if fresh:
        env.say(line(env, f"Passed in practice, never interviewed: {', '.join(fresh)}. ",
                     keep(f"`dojo drill {fresh[0]}`"), " interviews you on it now."))
    return Exit.OK


def register(sub) -> None:
    p = sub.add_parser(
        "drill", help="an interview on the kata most overdue for a re-drill",
        description="A timed mock interview on the kata most overdue for a re-drill (or on KATA), "
                    "from a blank stub: your katas/ file is never touched. The schedule comes from "
                    "the interview history: again 1, 3, 7, 21, then 60 days after each clean pass "
                    "(passed, no hint) in a row; tomorrow after anything else. See docs/state.md.",
    )
    p.add_argument("kata", nargs="?", metavar="KATA", help="drill this kata (default: the most overdue)")
    p.add_argument("--loop", action="store_true",
                   help="an interview loop from the kata: it and its next questions on one clock (dojo interview --loop)")
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
