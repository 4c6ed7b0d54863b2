"""``dojo lang [zh|en]``: the tool's language, where it came from, and saving a choice.

Saving a language also rewrites the docstrings of the stubs you have not touched, so the
contract you read is in that language (``dojo.catalogue.stubs``); a stub you have edited is left alone.
"""

from __future__ import annotations

import os

from dojo.text import lang, locale
from dojo.catalogue import registry
from dojo.commands.cli.common import Exit, UsageError, shown, words
from dojo.catalogue.env import Env


def register(sub) -> None:
    p = sub.add_parser("lang", help=words("cli.lang.help"), description=words("cli.lang.description"))
    p.add_argument("language", nargs="?", choices=lang.LANGUAGES, metavar="zh|en")
    p.set_defaults(func=cmd_lang)


def cmd_lang(env: Env, args) -> int:
    if args.language is None:
        return _tell(env)
    try:
        path = lang.save(env.state_dir, args.language)
    except OSError as e:
        raise UsageError(words("cli.lang.cannot-save", path=shown(env, env.state_dir / lang.SAVED_FILE),
                               error=e.strerror or str(e))) from None
    if not os.environ.get("DOJO_LANG") and not getattr(args, "lang_flag", None):
        locale.set_language(args.language)
    env.say(words("cli.lang.saved", name=words(f"cli.lang.name.{args.language}"), path=shown(env, path)))
    rewritten, edited = rewrite_stubs(env, args.language)
    if rewritten:
        env.say(words("cli.lang.stubs-rewritten", count=len(rewritten), files=words("cli.join.list").join(rewritten)))
    if edited:
        env.say(words("cli.lang.stubs-edited", files=words("cli.join.list").join(shown(env, env.kata_file(k)) for k in edited),
                      first=edited[0].module))
    flag = getattr(args, "lang_flag", None)
    winner = lang.source(flag, state_dir=env.state_dir)
    if winner in ("flag", "env") and lang.choose(flag, state_dir=env.state_dir) != args.language:  # wins, and differs
        env.say(words(f"cli.lang.overridden.{winner}", value=os.environ.get("DOJO_LANG", "")))
    return Exit.OK


def _tell(env: Env) -> int:
    from_where = lang.source(None, state_dir=env.state_dir)
    name = words(f"cli.lang.name.{locale.LANGUAGE}")
    if from_where == "locale":
        variable = next(v for v in ("LC_ALL", "LC_MESSAGES", "LANG") if os.environ.get(v))
        env.say(words("cli.lang.now.locale", name=name, variable=variable, value=os.environ[variable]))
    elif from_where == "saved":
        env.say(words("cli.lang.now.saved", name=name, path=shown(env, env.state_dir / lang.SAVED_FILE)))
    elif from_where == "env":
        env.say(words("cli.lang.now.env", name=name, value=os.environ.get("DOJO_LANG", "")))
    else:
        env.say(words("cli.lang.now.default", name=name))
    env.say(words("cli.lang.how"))
    return Exit.OK


def rewrite_stubs(env: Env, language: str) -> tuple[list[str], list]:
    """Write the stub of ``language`` over every kata file that is an untouched stub in another
    language. Returns (files rewritten, katas left alone because they were edited)."""
    from dojo.catalogue.stubs import stub_source, untouched

    rewritten, edited = [], []
    for kata in registry.KATAS:
        path = env.kata_file(kata)
        solution = env.solution_file(kata)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue  # missing or unreadable: `dojo` says so; nothing here to rewrite
        was = untouched(text, solution, kata.function)
        want = stub_source(solution, kata.function, language)
        if was is None:
            if text != want:
                edited.append(kata)
            continue
        if text == want:
            continue
        tmp = path.with_name(f".{path.name}.lang-tmp")
        tmp.write_text(want, encoding="utf-8")
        os.replace(tmp, path)
        rewritten.append(shown(env, path))
    return rewritten, edited
