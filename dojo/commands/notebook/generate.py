"""``dojo notebook [KATA …]``: ``notebooks/<kata>.ipynb`` for each kata.

A notebook: the problem as Markdown (what ``dojo show`` says: the signature, the contract,
what the judge checks), ``%load_ext dojo``, a ``%%kata`` cell holding the kata file as it is
(the stub until there is work in it), and a cell that calls the function on the example
``dojo compare`` draws (the stub's NotImplementedError is its result, so the notebook runs
top to bottom). Written with nbformat (the notebook
extra); a notebook already there that differs is backed up first (``<state>/backups/notebooks``).
Imported when the parser is built: only the standard library at the top.
"""

from __future__ import annotations

from pathlib import Path


def register(subparsers) -> None:
    from dojo.text.messages import t

    p = subparsers.add_parser("notebook", help=t("notebook.help"), description=t("notebook.description"))
    p.add_argument("katas", nargs="*", metavar="KATA", help=t("notebook.arg.katas"))
    p.set_defaults(func=cmd_notebook)


def cmd_notebook(env, args) -> int:
    from dojo.commands.cli.common import Exit, UsageError, current_kata, kata_arg, shown, words
    from dojo.state.state import Store

    katas = [kata_arg(k) for k in args.katas] if args.katas else [current_kata(Store(env))]
    if katas == [None]:
        raise UsageError(words("usage.no-current-kata", command="notebook"))
    try:
        import nbformat
    except ModuleNotFoundError:
        raise UsageError(words("notebook.usage.extra")) from None
    for kata in dict.fromkeys(katas):  # a kata named twice is written once
        path = env.root / "notebooks" / f"{kata.module}.ipynb"
        data = nbformat.writes(notebook(env, kata)).encode("utf-8")
        said, backup = write(env, path, data)
        if backup is not None:
            env.say(words("notebook.kept-backup", path=shown(env, backup)))
        env.say(words(said, path=shown(env, path)))
    written = list(dict.fromkeys(katas))
    if len(written) == 1:
        env.say(words("notebook.open", path=shown(env, env.root / "notebooks" / f"{written[0].module}.ipynb")))
    else:
        env.say(words("notebook.open-many", path=shown(env, env.root / "notebooks") + "/"))
    return Exit.OK


def write(env, path: Path, data: bytes) -> tuple[str, Path | None]:
    """Write the notebook; one already there that differs is copied to the state folder's
    backups first (when that copy fails, nothing is replaced). Returns what to say (an id)
    and the backup made, if any."""
    import time

    from dojo.state.state import atomic_write_bytes

    if path.exists():
        old = path.read_bytes()
        if old == data:
            return "notebook.same", None
        folder = env.state_dir / "backups" / "notebooks"
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(env.now()))
        target, n = folder / f"{path.stem}-{stamp}.ipynb", 1
        while target.exists():
            target, n = folder / f"{path.stem}-{stamp}-{n}.ipynb", n + 1
        atomic_write_bytes(target, old, env)
        atomic_write_bytes(path, data, env)
        return "notebook.wrote", target
    atomic_write_bytes(path, data, env)
    return "notebook.wrote", None


def work_of(env, kata) -> str | None:
    """The kata file as it is, when it holds work (not the untouched stub): a notebook opens
    where the person is, and running its cell then rewrites the file with the same bytes."""
    from dojo.commands.cli.backups import stub_test
    from dojo.text import safe_read

    try:
        data = safe_read.read_bytes(env.kata_file(kata))
        text = data.decode("utf-8") if data is not None else None
    except (OSError, ValueError):  # not a regular file, too large, not UTF-8: the stub, as before
        return None
    if not text or not text.strip() or stub_test(env, kata)(data):
        return None
    return text


def notebook(env, kata):
    """The notebook of ``kata`` (an ``nbformat`` v4 node), in the tool's language."""
    import nbformat.v4 as nb

    from dojo.text import locale
    from dojo.commands.cli.show import the_contract
    from dojo.text.messages import t
    from dojo.screens.render import properties_of, signature_of
    from dojo.catalogue.stubs import stub_source

    file = f"katas/{kata.module}.py"
    checks = "\n".join(f"- {locale.property_title(kata.module, test, statement)}"
                       for test, statement in properties_of(env.test_file(kata)))
    statement = "\n\n".join([
        f"# {kata.module} — {locale.kata_title(kata)}",
        t("notebook.md.edit", path=file, function=f"{kata.function}(…)", kata=kata.module),
        t("notebook.md.signature") + "\n\n```python\n" + signature_of(env.solution_file(kata), kata.function) + "\n```",
        "```text\n" + the_contract(env, kata).strip("\n") + "\n```",
        t("notebook.md.checks") + "\n\n" + checks,
        t("notebook.md.more", kata=kata.module, minutes=kata.minutes),
    ])
    source = work_of(env, kata) or stub_source(env.solution_file(kata), kata.function, language=None)
    trying = (f"from dojo.catalogue.batteries import BATTERIES\n\n"
              f"example = BATTERIES[{kata.module!r}].map_inputs()  # the example `dojo compare` draws\n"
              f"try:\n"
              f"    result = {kata.function}(**example)\n"
              f"except NotImplementedError as e:  # {t('notebook.try.stub-comment')}\n"
              f"    result = e\n"
              f"result")
    cells = [nb.new_markdown_cell(statement), nb.new_markdown_cell(t("notebook.md.load")),
             nb.new_code_cell("%load_ext dojo"), nb.new_code_cell(f"%%kata {kata.module}\n{source.rstrip()}\n"),
             nb.new_markdown_cell(t("notebook.md.try")), nb.new_code_cell(trying)]
    for i, cell in enumerate(cells):  # fixed ids: the same kata gives the same bytes
        cell["id"] = f"{kata.module.replace('_', '-')}-{i}"
    return nb.new_notebook(cells=cells, metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
        "language_info": {"name": "python"}})
