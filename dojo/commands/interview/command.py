"""``dojo interview``: the command.

`cmd_interview` checks the arguments, picks the katas, opens (or resumes) the session and hands
it to an `Interview` (queue.py), or a `LoopInterview` (loop.py) for ``--loop``, which plays it.
"""

from __future__ import annotations

import random
from pathlib import Path

from dojo.catalogue import registry
from dojo.commands.cli import Keys, UsageError, kata_arg, shown, words
from dojo.commands.cli.common import state_now
from dojo.catalogue.env import Env
from dojo.commands.interview import loop, state
from dojo.commands.interview.loop import LoopInterview
from dojo.commands.interview.queue import Interview
from dojo.commands.interview.screen import Signals
from dojo.commands.interview.state import Entry, Session
from dojo.state.state import Store


# -- picking the problems -------------------------------------------------------------------


def judged_katas(env: Env) -> list[registry.Kata]:
    """Katas whose judge exists (every registered kata, once the repository is complete)."""
    return [k for k in registry.KATAS if env.test_file(k).is_file()]


def pick(env: Env, args) -> list[registry.Kata]:
    if args.katas:
        katas = [kata_arg(name) for name in args.katas]
        for k in katas:
            if not env.test_file(k).is_file():
                raise UsageError(words("interview.usage.no-judge", kata=k.module, path=shown(env, env.test_file(k))))
        return katas
    pool = judged_katas(env)
    if not pool:
        raise UsageError(words("interview.usage.no-judges"))
    store = Store(env)
    store.load()
    unsolved = [k for k in pool if state_now(store, k) != "passed"]  # passes as the file is now
    if args.random:
        return [random.choice(unsolved or pool)]
    if unsolved:
        return [unsolved[0]]
    choice = random.choice(pool)
    env.say(words("interview.picked-at-random", kata=choice.module))
    return [choice]


# -- dojo interview ---------------------------------------------------------------------------


def cmd_interview(env: Env, args) -> int:
    from dojo.judge.runner import WarmJudge

    answers = args.answer or []
    ats = args.at or []
    if ats and not answers:
        raise UsageError(words("interview.usage.at-without-answer"))
    if len(ats) > len(answers):
        raise UsageError(words("interview.usage.at-count"))
    if args.random and args.katas:
        raise UsageError(words("interview.usage.random-and-katas"))
    if args.loop and not args.resume:  # what is wrong with the flags, before what is open
        if args.random:
            raise UsageError(words("usage.loop-random", first=registry.KATAS[0].module))
        if len(args.katas) > 1:
            raise UsageError(words("usage.loop-katas", count=len(args.katas), first=registry.KATAS[0].module))
    for answer in answers:
        if not Path(answer).is_file():
            raise UsageError(words("interview.usage.no-answer-file", answer=answer))
    session = state.load(env)
    if args.resume:
        if session is None:
            raise UsageError(words("interview.usage.nothing-to-resume"))
        if args.katas or args.random or args.minutes is not None or args.loop:
            raise UsageError(words("interview.usage.resume-as-it-was"))
        session.coach = session.coach or args.coach
        session.watch = session.watch and not args.manual
    else:
        if session is not None:
            cur = session.current.kata if session.current else session.entry.kata
            raise UsageError(words("interview.usage.still-open", kata=cur))
        if args.loop:
            start = kata_arg(args.katas[0]) if args.katas else registry.KATAS[0]
            session = loop.new_session(env, start, args.minutes, bool(args.coach), not args.manual)
        else:
            katas = pick(env, args)
            session = Session(queue=[Entry(k.module, 60.0 * (args.minutes or k.minutes)) for k in katas],
                              coach=bool(args.coach), watch=not args.manual)
    left = len(session.queue) - session.index
    if answers and session.loop is None and (len(answers) != 1 or left != 1):
        raise UsageError(words("interview.usage.one-answer"))
    if len(answers) > left:
        many = "one" if left == 1 else "many"
        raise UsageError(words(f"interview.usage.too-many-answers.{many}", count=len(answers), left=left))
    judge = WarmJudge(env)  # the expensive imports happen before any clock starts
    keys = None if answers else Keys(env.stdin)
    script = [(Path(a).resolve(), ats[i] if i < len(ats) else None) for i, a in enumerate(answers)]
    kind = Interview
    if session.loop is not None:
        kind = LoopInterview
    try:
        with Signals() as signals:
            return kind(env, session, judge, keys, signals, script, args.debounce).run()
    finally:
        if keys is not None:
            try:
                keys.restore()
            except OSError:  # the terminal is gone (hang-up)
                pass
