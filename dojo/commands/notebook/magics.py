"""``%%kata KATA`` and ``%kata show|hint|compare|interview|submit|abandon KATA``.

``%%kata KATA``: the cell is written to ``katas/<kata>.py`` (work there that this kernel did
not write, and that is not the untouched stub, is backed up first, as ``dojo reset`` keeps it),
run in the notebook's namespace (so the function can be called there), then judged exactly as
``dojo test`` judges it, in a child process (``process.py``); the verdict is shown as HTML,
with compare's heatmap when properties fail. During a notebook interview of that kata the cell
is a save of the attempt file instead (``interview.py``).
"""

from __future__ import annotations

import hashlib
import io
import json
import shlex
from pathlib import Path

#: sha256 of what this kernel last wrote to each kata file: rewriting its own work needs no backup.
#: Anything else is backed up first, also what this notebook wrote before a restart: a backup
#: too many costs nothing, one too few loses work (another notebook of the same kata, an editor).
WRITTEN: dict[str, str] = {}
#: The notebook interview running in this kernel (``interview.NotebookInterview``), if any.
INTERVIEW = {"now": None}


def register(ipython) -> None:
    ipython.register_magic_function(kata_magic, magic_kind="line_cell", magic_name="kata")


def setup():
    """The environment and language, as ``dojo`` sets them up for a command."""
    from dojo.text import lang, locale
    from dojo.catalogue.env import Env

    env = Env.from_os()
    env.color = False
    locale.set_language(lang.choose(None, state_dir=env.state_dir))
    locale.set_front("notebook")  # "%kata hint softmax", not "dojo hint softmax"
    return env


def show(html: str, handle=None):
    from dojo.commands.notebook.html import show as shown

    return shown(html, handle)


def kata_magic(line: str, cell: str | None = None):
    from dojo.commands.cli.common import UsageError
    from dojo.commands.notebook import html

    env = setup()
    try:
        words = shlex.split(line)
    except ValueError as e:
        show(html.error(f"%kata: {e}"))
        return None
    try:  # the screens are displayed; the magic returns nothing (no stray "Out[12]: <DisplayHandle…>")
        if cell is not None:
            kata_cell(env, words, cell)
        else:
            kata_line(env, words)
    except UsageError as e:
        show(html.error(f"%kata: {e}"))
    except KeyboardInterrupt:  # the cell already says what stopped; no traceback through the magics
        raise Interrupted() from None
    return None


def _one_line(self) -> list[str]:
    return [t_("notebook.interrupted")]


#: Kernel → Interrupt during a ``%kata`` or ``%%kata`` run, after the cell said what it
#: stopped: still a KeyboardInterrupt by name and kind (a Run All stops at this cell, a client
#: sees the error it expects), shown as one line (IPython's ``_render_traceback_``).
Interrupted = type("KeyboardInterrupt", (KeyboardInterrupt,), {"_render_traceback_": _one_line})


def kata_line(env, words: list[str]):
    from dojo.commands.cli.common import UsageError, kata_arg
    from dojo.text.messages import t

    commands = ("show", "hint", "followups", "compare", "interview", "submit", "abandon")
    if not words or words[0] not in commands:
        raise UsageError(t("notebook.usage.line", commands=" | ".join(commands)))
    command, rest = words[0], words[1:]
    if command in ("submit", "abandon"):
        from dojo.commands.notebook import interview

        return interview.control(env, INTERVIEW, command, rest)
    if command == "interview":
        from dojo.commands.notebook import interview

        return interview.start(env, INTERVIEW, rest)
    answers = command == "followups" and "--answers" in rest
    rest = [w for w in rest if not answers or w != "--answers"]
    if len(rest) != 1:
        raise UsageError(t("notebook.usage.one-kata", command=command))
    kata = kata_arg(rest[0])
    if command == "compare":
        return compare(env, kata)
    running = INTERVIEW["now"]
    if command == "hint" and running is not None and running.kata.module == kata.module and not running.ended():
        return running.hint()  # the interview's hint, which costs points, not the practice one
    return screen_of(env, command, kata, answers)


def screen_of(env, command: str, kata, answers: bool = False) -> None:
    """``dojo show``, ``dojo hint`` and ``dojo followups [--answers]``, as the terminal says
    them, in a notebook output."""
    import argparse

    from dojo.commands.cli.show import cmd_followups, cmd_hint, cmd_show
    from dojo.commands.notebook import html

    out = io.StringIO()
    env.stdout = out
    run = {"show": cmd_show, "hint": cmd_hint, "followups": cmd_followups}[command]
    run(env, argparse.Namespace(kata=kata.module, answers=answers))
    show(html.screen(out.getvalue().splitlines()))


def compare(env, kata) -> None:
    """``dojo compare KATA`` in a child process: its screen, and its heatmap as an image."""
    from dojo.commands.notebook import html

    keep = env.state_dir / "notebook" / f"{kata.module}-maps.png"  # where compare says it wrote them
    keep.parent.mkdir(parents=True, exist_ok=True)
    keep.unlink(missing_ok=True)  # never an earlier run's picture
    code, said, png = run_compare(env, kata, speed=True, png_to=keep)
    lines = said.splitlines()
    if not png:
        show(html.screen(lines))
        return
    # the agreement and the picture first (the child drew no text maps: DOJO_FRONT=notebook),
    # then speed and code
    speed = t_("compare.heading.speed")[:8]
    cut = next((i for i, line in enumerate(lines) if line.startswith(speed)), len(lines))
    parts = [html.screen(lines[:cut]), html.png_img(png, t_("notebook.heatmap-alt", kata=kata.module))]
    if lines[cut:]:
        parts.append(html.screen(lines[cut:]))
    show("".join(parts))


def run_compare(env, kata, speed: bool = False, render=None, png_to: Path | None = None):
    """(exit code, screen, PNG bytes or None) of ``dojo compare`` run in a child. Its progress
    goes to ``render`` (a function of an HTML fragment: a verdict shows it where the heatmap
    goes), else to a display of its own, emptied at the end. The PNG goes to ``png_to`` (else a
    temporary file)."""
    from dojo.text import locale
    from dojo.commands.notebook import html
    from dojo.commands.notebook.process import Run

    own = render is None
    if own:
        handle = show(html.progress(kata, 0.0, what="comparing"))
        render = lambda fragment: show(fragment, handle)  # noqa: E731
    else:
        render(html.progress(kata, 0.0, what="comparing"))
    with Run(env.root, "dojo", [], locale.LANGUAGE) as run:
        png = png_to or run.scratch / "maps.png"
        run.argv += ["compare", kata.module, "--png", str(png)] + ([] if speed else ["--no-speed"])
        try:
            code, said = run.run(lambda r: render(html.progress(kata, r.seconds(), what="comparing")))
        except KeyboardInterrupt:
            render(html.stopped(kata, "compare"))
            raise
        data = png.read_bytes() if png.is_file() else None
    if own:
        render("")
    return code, said, data


def kata_cell(env, words: list[str], cell: str):
    from dojo.commands.cli.common import UsageError, kata_arg
    from dojo.text.messages import t

    if len(words) != 1:
        raise UsageError(t("notebook.usage.cell"))
    kata = kata_arg(words[0])
    session = INTERVIEW["now"]
    if session is not None and session.kata.module == kata.module:
        return session.save(cell, run_here)
    path = env.kata_file(kata)
    source = cell if cell.endswith("\n") else cell + "\n"
    saved = write(env, kata, path, source.encode("utf-8"))
    try:
        compile(source, str(path), "exec")
    except SyntaxError as e:  # said at once, by the cell's own line (the %%kata line is its first)
        return syntax_error(env, path, e, saved)
    run_here(source, path)
    return judge(env, kata, path, saved)


def syntax_error(env, path: Path, error: SyntaxError, saved: Path | None) -> None:
    from dojo.commands.notebook import html

    if saved is not None:
        show(html.note(t_("notebook.backed-up", path=where(env, saved))))
    line = (error.lineno or 0) + 1
    text = (error.text or "").rstrip("\n")
    caret = " " * max(0, (error.offset or 1) - 1) + "^" if text else ""
    show(html.box(html.error(t_("notebook.syntax-error", line=line, message=error.msg, path=where(env, path)))
                  + (html.pre(f"{line:>4} | {text}\n       {caret}") if text else "")))


def write(env, kata, path: Path, data: bytes) -> Path | None:
    """Write the cell to the kata file; work there that differs, that this kernel did not
    write and that is not the untouched stub is backed up first. Returns the backup."""
    from dojo.commands.cli.backups import backup_first, stub_test
    from dojo.state.state import Store, atomic_write_bytes

    saved = None
    if path.exists():
        old = path.read_bytes()
        if old != data and hashlib.sha256(old).hexdigest() != WRITTEN.get(str(path)) and not stub_test(env, kata)(old):
            saved = backup_first(env, Store(env), path, kata)
    atomic_write_bytes(path, data, env)
    WRITTEN[str(path)] = hashlib.sha256(data).hexdigest()
    return saved


def run_here(source: str, path: Path) -> None:
    """The cell in the notebook's namespace, as if it were the file: its functions can be
    called there. An exception is shown as IPython shows one; the judge still runs."""
    from IPython import get_ipython

    ip = get_ipython()
    try:
        exec(compile(source, str(path), "exec"), ip.user_ns)
    except KeyboardInterrupt:
        raise
    except BaseException:  # noqa: BLE001 - the candidate's code: shown, then judged as it is
        ip.showtraceback()


def judge(env, kata, path: Path, saved: Path | None = None) -> None:
    """Judge the kata file in a child of the kernel and show the verdict (progress meanwhile)."""
    from dojo.text import locale
    from dojo.commands.notebook import html
    from dojo.commands.notebook.process import Run
    from dojo.screens.render import properties_of, verdict_lines
    from dojo.judge.verdict import Verdict

    if saved is not None:
        show(html.note(t_("notebook.backed-up", path=where(env, saved))))
    handle = show(html.progress(kata, 0.0))
    total = len(properties_of(env.test_file(kata)))  # not what the shards announced so far

    def counted(r):
        done, expected = r.progress()
        return done, max(expected, total) if expected else 0

    with Run(env.root, "dojo.commands.notebook.child", [], locale.LANGUAGE) as run:
        out = run.scratch / "verdict.json"
        run.argv += [kata.module, str(out)]
        try:
            code, said = run.run(lambda r: show(html.progress(kata, r.seconds(), *counted(r)), handle))
        except KeyboardInterrupt:
            show(html.stopped(kata), handle)
            raise
        if not out.is_file():
            show(html.box(html.error(t_("notebook.judge-failed", code=code)) + html.pre(said)), handle)
            return None
        v = Verdict(**json.loads(out.read_text(encoding="utf-8")))
    shown_file = where(env, path)
    lines = verdict_lines(env, v, kata, shown_file)
    images = []
    if v.state == "failing":  # the verdict at once; compare's heatmap fills in below it
        _, _, png = run_compare(env, kata, render=lambda fragment: show(
            html.verdict(v, kata, shown_file, [fragment], lines), handle))
        if png:
            images.append(html.png_img(png, t_("notebook.heatmap-alt", kata=kata.module)))
    show(html.verdict(v, kata, shown_file, images, lines), handle)
    return None


def t_(id: str, **params) -> str:
    from dojo.text.messages import t

    return t(id, **params)


def where(env, path: Path) -> str:
    """A file as the notebook names it: from the repository's root (a notebook runs in
    notebooks/, where ``shown`` would give the whole path)."""
    try:
        return str(path.resolve().relative_to(env.root.resolve()))
    except ValueError:
        return str(path)
