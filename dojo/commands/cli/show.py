"""What the dojo tells about a kata: ``dojo show`` (the problem), ``dojo hint``, ``dojo solution``
(the reference answer) and ``dojo followups`` (the interviewer's next questions)."""

from __future__ import annotations

from dojo.text import locale
from dojo.catalogue import registry
from dojo.commands.cli.common import Exit, UsageError, current_kata, kata_arg, next_kata, shown, styled, words
from dojo.catalogue.env import Env
from dojo.screens.render import contract, docstring_of, line, properties_of, signature_of
from dojo.state.state import Store


def cmd_show(env: Env, args) -> int:
    from dojo.judge import warm
    from dojo.commands.cli.progress import difficulty

    kata = kata_arg(args.kata)
    warm.start_ahead(env.root)  # while the candidate reads, the judge warms up
    source = env.solution_file(kata)
    about = words("cli.show.about", difficulty=difficulty(kata), minutes=kata.minutes)
    env.say(line(env, (locale.kata_title(kata), "bold"), f"   {about}"))
    env.say(line(env, words("cli.show.edit", path=shown(env, env.kata_file(kata)))))
    env.say()
    signature = signature_of(source, kata.function)
    env.say(line(env, "    ", (signature, "cyan"), hang=5 + signature.index("(")))
    env.say()
    for ln in contract(env, the_contract(env, kata), indent=4):
        env.say(ln)
    env.say()
    env.say(styled(env, "cli.show.checks", {"heading": "bold"}, heading=words("cli.show.checks-heading")))
    for test, statement in properties_of(env.test_file(kata)):
        env.say(line(env, f"  • {locale.property_title(kata.module, test, statement)}", hang=4))
    env.say()
    env.say(styled(env, "cli.show.judge-it", {"test": "keep", "watch": "keep"},
                   test=f"dojo test {kata.module}", watch=f"dojo watch {kata.module}", kata=kata.module))
    return Exit.OK


def the_contract(env: Env, kata: registry.Kata) -> str:
    """The stub's docstring as the candidate's file has it in the tool's language: the Chinese
    one when there is one (``dojo.text.locale.stub_docstring``), else the solution's."""
    source = env.solution_file(kata)
    if locale.stub_docstring(kata.module) is None:
        return docstring_of(source, kata.function)
    import ast

    from dojo.catalogue.stubs import stub_source

    tree = ast.parse(stub_source(source, kata.function, language=None))
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == kata.function)
    return ast.get_docstring(fn) or ""


def next_hint(env: Env, store: Store, kata: registry.Kata) -> None:
    entry = store.kata(kata.module)
    used = entry["hints_used"]
    total = len(kata.hints)
    hints = locale.kata_hints(kata)
    if used >= total:
        env.say(words("cli.hint.none-left", kata=kata.module, total=total))
        for i, h in enumerate(hints, 1):
            env.say(line(env, f"  {i}. {h}", hang=5))
        return
    entry["hints_used"] = used + 1
    store.save()
    env.say(styled(env, "cli.hint.line", {"label": "yellow bold"}, hang=2, kata=kata.module, hint=hints[used],
                   label=words("cli.hint.label", n=used + 1, total=total)))


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
        raise UsageError(words("cli.solution.locked", kata=kata.module))
    if args.give_up and not entry["solved"]:
        entry["gave_up"] = True
    entry["revealed"] = True
    store.save()
    path = env.solution_file(kata)
    env.say(line(env, (words("cli.solution.title", path=shown(env, path)), "bold")))
    env.say()
    from dojo.catalogue.stubs import source_in

    for n, code in enumerate(source_in(path, kata.function).splitlines(), 1):  # its contract in your language
        env.say(line(env, (f"{n:4d} ", "dim"), code, hang=5 + len(code) - len(code.lstrip(" "))))
    return Exit.OK


def cmd_followups(env: Env, args) -> int:
    from dojo.text import cjk, screen
    from dojo.catalogue import demos

    kata = kata_arg(args.kata) if args.kata else next_kata(Store(env))
    if kata is None:
        raise UsageError(words("cli.followups.none"))
    env.say(line(env, (f"{kata.module} — {locale.kata_title(kata)}", "bold")))
    env.say(words("cli.followups.heading"))
    fitted = screen.columns(env) is not None  # on a terminal rich wraps; a pipe gets the fixed widths
    for i, f in enumerate(locale.kata_followups(kata), 1):
        if fitted:
            env.say(line(env, f"{i:>3}. {f.question}", hang=5))
        elif cjk.has_wide(f.question):
            for n, ln in enumerate(cjk.wrap(cjk.join_lines(f.question), 95)):
                env.say((f"{i:>3}. " if n == 0 else "     ") + ln)
        else:
            import textwrap

            env.say(textwrap.fill(f.question, 100, initial_indent=f"{i:>3}. ", subsequent_indent="     "))
        if not args.answers:
            continue
        if fitted:
            joined = cjk.join_lines(f.answer) if cjk.has_wide(f.answer) else " ".join(f.answer.split())
            env.say(line(env, "     " + joined, hang=5))
        else:
            for ln in f.answer_lines():
                env.say("     " + ln)
        if f.demo:
            where = demos.DEMOS[f.demo].__module__.replace(".", "/") + ".py"
            env.say(line(env, ("     " + words("cli.followups.computed", where=where, demo=f.demo), "cyan"), hang=7))
            for ln in demos.run(f.demo).lines:
                env.say("       " + ln)
        env.say()
    if not args.answers:
        env.say(styled(env, "cli.followups.more", {"command": "keep"}, command=f"dojo followups {kata.module} --answers"))
    return Exit.OK
