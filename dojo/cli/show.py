"""What the dojo tells about a kata: ``dojo show`` (the problem), ``dojo hint``, ``dojo solution``
(the reference answer) and ``dojo followups`` (the interviewer's next questions)."""

from __future__ import annotations

from dojo import registry
from dojo.cli.common import Exit, UsageError, current_kata, kata_arg, next_kata, shown, words
from dojo.env import Env
from dojo.render import contract, docstring_of, keep, line, properties_of, signature_of
from dojo.state import Store


def cmd_show(env: Env, args) -> int:
    kata = kata_arg(args.kata)
    source = env.solution_file(kata)
    env.say(line(env, (kata.title, "bold"), f"   [{kata.difficulty}, about {kata.minutes} min]"))
    env.say(line(env, f"Edit: {shown(env, env.kata_file(kata))}"))
    env.say()
    signature = signature_of(source, kata.function)
    env.say(line(env, "    ", (signature, "cyan"), hang=5 + signature.index("(")))
    env.say()
    for ln in contract(env, docstring_of(source, kata.function), indent=4):
        env.say(ln)
    env.say()
    env.say(line(env, ("What the judge checks", "bold"), " (property tests against PyTorch, float64):"))
    for _, statement in properties_of(env.test_file(kata)):
        env.say(line(env, f"  • {statement}", hang=4))
    env.say()
    env.say(line(env, "Judge it: ", keep(f"dojo test {kata.module}"), "   ·   on every save: ",
                 keep(f"dojo watch {kata.module}")))
    return Exit.OK


def next_hint(env: Env, store: Store, kata: registry.Kata) -> None:
    entry = store.kata(kata.module)
    used = entry["hints_used"]
    total = len(kata.hints)
    if used >= total:
        env.say(f"No more hints for {kata.module}: all {total} are shown below.")
        for i, h in enumerate(kata.hints, 1):
            env.say(line(env, f"  {i}. {h}", hang=5))
        return
    entry["hints_used"] = used + 1
    store.save()
    env.say(line(env, (f"hint {used + 1} of {total}", "yellow bold"), f" ({kata.module}): {kata.hints[used]}", hang=2))


def cmd_hint(env: Env, args) -> int:
    store = Store(env)
    if args.kata:
        kata = kata_arg(args.kata)
    else:
        kata = current_kata(store)
        if kata is None:
            raise UsageError(words("usage.no-current-kata", command="hint"))
    next_hint(env, store, kata)
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
    env.say(line(env, (f"Reference answer: {shown(env, path)}", "bold")))
    env.say()
    for n, code in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        env.say(line(env, (f"{n:4d} ", "dim"), code, hang=5 + len(code) - len(code.lstrip(" "))))
    return Exit.OK


def cmd_followups(env: Env, args) -> int:
    from dojo import demos, screen

    kata = kata_arg(args.kata) if args.kata else next_kata(Store(env))
    if kata is None:
        raise UsageError("every kata passes already: name one, e.g. `dojo followups softmax`.")
    env.say(line(env, (f"{kata.module} — {kata.title}", "bold")))
    env.say("The interviewer's follow-up questions:")
    fitted = screen.columns(env) is not None  # on a terminal rich wraps; a pipe gets the fixed widths
    for i, f in enumerate(kata.followup_answers, 1):
        if fitted:
            env.say(line(env, f"{i:>3}. {f.question}", hang=5))
        else:
            import textwrap

            env.say(textwrap.fill(f.question, 100, initial_indent=f"{i:>3}. ", subsequent_indent="     "))
        if not args.answers:
            continue
        if fitted:
            env.say(line(env, "     " + " ".join(f.answer.split()), hang=5))
        else:
            for ln in f.answer_lines():
                env.say("     " + ln)
        if f.demo:
            where = demos.DEMOS[f.demo].__module__.replace(".", "/") + ".py"
            env.say(line(env, (f"     computed now ({where}: {f.demo}):", "cyan"), hang=7))
            for ln in demos.run(f.demo).lines:
                env.say("       " + ln)
        env.say()
    if not args.answers:
        env.say(line(env, "Model answers, with their numbers computed live: ",
                     keep(f"dojo followups {kata.module} --answers")))
    return Exit.OK
