"""The console every screen prints through: the terminal's width, colour when it helps, and the
layout done by rich (word wrapping, terminal cell widths, tables), loaded only when needed.

- **Off a terminal** (a pipe, a file) with ``$COLUMNS`` unset nothing is wrapped or coloured:
  every line goes out as the screen wrote it, so piped output stays stable and greppable, and
  rich's console is not loaded (a table's columns are measured with its ``cell_len``). Nor is
  it on a terminal, for lines and tables that fit as they are.
- **On a terminal** (or with ``$COLUMNS`` set) every line is fitted to the width by rich:
  wrapped at word boundaries, each continuation under the text it continues (a line's *hang*:
  by default its own indent), widths measured in terminal cells (``rich.cells.cell_len``: a
  Chinese character takes two). A word is never broken: one longer than the room left moves
  to a line of its own, pulled left so that it ends at the margin (a path longer than the whole
  terminal runs past it, unbroken). Text in a ``keep`` run (a command) or joined by
  ``NBSP`` ("(shape (2, 3), float64)") moves as one piece while it fits on a line.
- **Colour** follows ``env.color``: a terminal, ``NO_COLOR`` unset, ``TERM`` not ``dumb``.

Text in, layout out: a screen says what to show, as lines made of runs (``line``: plain text
or ``(text, style)`` pairs) and tables (``table``), and prints them here (``say``); it never
measures or wraps anything itself. A ``Line`` is also a plain ``str`` (what a pipe gets), so
code that joins lines or searches them keeps working.

The judge formats arrays before anyone prints them: the tool hands it the width in
``$DOJO_COLUMNS`` (``judge_environ``), and off a terminal it keeps its fixed widths.
"""

from __future__ import annotations

import os
import re

from dojo.text import layout
from dojo.text.layout import CODES, NBSP, wrap_text  # noqa: F401 (part of the screen's interface)

_SGR = re.compile(r"\033\[[0-9;]*m")


def paint(color: bool, text: str, *styles: str) -> str:
    """``text`` in ANSI colours when ``color``; ``keep`` is a layout mark, not a colour."""
    codes = [CODES[s] for s in styles if s in CODES]
    if not color or not codes:
        return text
    return "".join(f"\033[{c}m" for c in codes) + text + "\033[0m"


# -- what a screen says ---------------------------------------------------------------------


class Line(str):
    """One line as a pipe gets it (``str``), and how to lay it out on a terminal: its runs
    (``(text, styles)``) and its hang (the cells its continuation lines are indented by; None:
    its own indent)."""

    runs: tuple
    hang: int | None

    def __new__(cls, color: bool, runs, hang: int | None = None):
        parts = tuple(_run(r) for r in runs)
        self = super().__new__(cls, "".join(paint(color, t, *s) for t, s in parts).replace(NBSP, " "))
        self.runs = parts
        self.hang = hang
        return self


def _run(run) -> tuple[str, tuple[str, ...]]:
    if isinstance(run, str):
        return run, ()
    text, styles = run
    return text, tuple(styles.split()) if isinstance(styles, str) else tuple(styles)


def line(env, *runs, hang: int | None = None) -> Line:
    """A line made of runs: ``"text"`` or ``("text", "red bold")``; ``keep`` in the styles
    keeps a run in one piece (a command). ``hang``: the cells continuation lines are indented
    by (default: the line's own indent)."""
    return Line(env.color, runs, hang)


def keep(text: str) -> str:
    """``text`` whose spaces do not break while it fits on a line (printed with plain spaces)."""
    return text.replace(" ", NBSP)


# -- the width ------------------------------------------------------------------------------


def columns(env, stream=None) -> int | None:
    """The width to fit: ``$COLUMNS`` when set, else the terminal ``stream`` (default: the
    output) is; None for a pipe or a file, which get every line whole."""
    raw = os.environ.get("COLUMNS", "")
    if raw.isdigit() and int(raw) > 0:
        return int(raw)
    stream = env.stdout if stream is None else stream
    try:
        if stream.isatty():
            return os.get_terminal_size(stream.fileno()).columns or None
    except (AttributeError, OSError, ValueError):
        return None
    return None


def judge_environ(env, base: dict) -> dict:
    """The environment of a judge run: the tool's language (``$DOJO_LANG``) and the width its
    arrays are formatted for (``$DOJO_COLUMNS``), only when the verdict will be shown at a width."""
    from dojo.text import locale

    out = dict(base)
    out["DOJO_LANG"] = locale.LANGUAGE  # the judge speaks the language the command was given
    width = columns(env)
    if width:
        out["DOJO_COLUMNS"] = str(width)
    else:
        out.pop("DOJO_COLUMNS", None)
    return out


def judge_columns() -> int | None:
    """In the judge: the width the verdict will be shown at (None: keep the fixed widths)."""
    raw = os.environ.get("DOJO_COLUMNS", "")
    return int(raw) if raw.isdigit() and int(raw) > 0 else None


#: The narrowest an array's printout is made, whatever the terminal (NumPy needs some room).
MIN_ARRAY = 40


def array_width(fixed: int, column: int) -> int:
    """In the judge: the width to print an array at whose rows start ``column`` cells into the
    line; ``fixed`` when no width was handed down (a pipe: the widths it always had)."""
    width = judge_columns()
    return fixed if width is None else max(MIN_ARRAY, width - column)


def cell_len(text: str) -> int:
    """The cells ``text`` takes on a terminal (colour codes take none)."""
    from rich.cells import cell_len as cells

    return cells(_SGR.sub("", text))


def pad(text: str, width: int) -> str:
    """``text`` and spaces, ``width`` cells in all (``str.ljust`` counts characters: a label in
    Chinese would come out too wide)."""
    return text + " " * max(0, width - cell_len(text))


# -- printing -------------------------------------------------------------------------------


def say(env, text="", stream=None) -> None:
    """Print ``text`` (a ``Line``, or a string of one or more lines) fitted to the width of
    ``stream`` (default: the output)."""
    stream = env.stdout if stream is None else stream
    width = columns(env, stream)
    shown = str(text).replace(NBSP, " ")
    if width is None or all(cell_len(ln) <= width for ln in shown.split("\n")):
        print(shown, file=stream, flush=True)  # nothing to fit: as it is, without loading rich
        return
    out = _console(env, stream, width)
    texts = []
    if isinstance(text, Line):
        texts += layout.fit(out, layout.rich_text(text.runs), text.hang, width)
    else:
        for ln in str(text).split("\n"):
            texts += layout.fit(out, layout.to_text(ln), None, width)
    layout.emit(out, texts)


_CONSOLES: dict = {}


def _console(env, stream, width: int):
    """A rich console writing to ``stream`` at ``width``, in colour when ``env.color``."""
    key = (id(stream), width, bool(env.color))
    cached = _CONSOLES.get(key)
    if cached is not None and cached.file is stream:
        return cached
    from rich.console import Console

    console = Console(file=stream, width=width, color_system="standard" if env.color else None,
                      force_terminal=bool(env.color), no_color=not env.color, highlight=False,
                      markup=False, emoji=False, soft_wrap=False)
    _CONSOLES.clear()
    _CONSOLES[key] = console
    return console


def console(env, stream=None):
    """The rich console for ``stream`` (default: the output) at its width, for a screen that
    draws with rich itself (a live region). Off a terminal: 10 000 columns, never wrapping."""
    stream = env.stdout if stream is None else stream
    return _console(env, stream, columns(env, stream) or 10_000)


# -- tables ---------------------------------------------------------------------------------


class Heading(Line):
    """A row of a table that is a heading over the rows after it (a track of katas): at the
    left margin, the columns still lined up across headings."""

    heading = True


def heading(env, text: str) -> Heading:
    return Heading(env.color, [(text, "bold")])


def _cell_text(cell) -> str:
    return str(cell).replace(NBSP, " ")


def natural_width(headers: list[str], rows: list, indent: int = 0) -> int:
    """The width of a table when nothing in it is wrapped (two cells between columns)."""
    cols = _natural_columns(headers, rows, indent)
    return sum(cols) + 2 * (len(cols) - 1)


def _natural_columns(headers, rows, indent: int) -> list[int]:
    cols = [cell_len(h) for h in headers]
    cols[0] += indent
    for r in rows:
        if isinstance(r, Heading):
            continue
        for i, c in enumerate(r):
            cols[i] = max(cols[i], cell_len(_cell_text(c)) + (indent if i == 0 else 0))
    return cols


def least_width(headers: list[str], rows: list, indent: int = 0, nowrap=()) -> int:
    """The narrowest a table can be with no word broken: a column in ``nowrap`` as wide as its
    widest cell, any other as its longest word (two cells between columns)."""
    cols = []
    for i, h in enumerate(headers):
        cells = [h] + [_glued(r[i]) for r in rows if not isinstance(r, Heading)]
        if i in nowrap:
            cols.append(max(cell_len(c) for c in cells))
        else:
            # a Chinese phrase counts as one word here: a table that could fit only by breaking
            # one takes its narrow form instead (the history drops its bar), which reads better
            cols.append(max(cell_len(w) for c in cells for w in (c.split() or [""])))
    cols[0] += indent
    return sum(cols) + 2 * (len(cols) - 1)


def _glued(cell) -> str:
    """A cell's text with its kept spaces glued (so that ``split`` finds what may not break)."""
    if isinstance(cell, Line):
        text = "".join(t.replace(" ", layout.GLUE) if "keep" in styles else t for t, styles in cell.runs)
    else:
        text = str(cell)
    return text.replace(NBSP, layout.GLUE)


def fits(env, headers: list[str], rows: list, indent: int = 0, nowrap=None) -> bool:
    """Whether the table fits the width (always, off a terminal): unwrapped, or with
    ``nowrap`` given, wrapped at word boundaries (``least_width``)."""
    width = columns(env)
    if width is None:
        return True
    if nowrap is None:
        return natural_width(headers, rows, indent) <= width
    return least_width(headers, rows, indent, nowrap) <= width


def table(env, headers: list[str], rows: list, indent: int = 0, nowrap=()) -> None:
    """Print a table: the headers, a rule under each, the rows (cells: strings or ``Line``\\ s;
    a ``Heading`` row is a heading line). Off a terminal, columns are padded to their widest
    cell. On one, rich lays it out at the width: a column in ``nowrap`` (its index) never
    wraps, the others wrap at word boundaries when the table is wider than the terminal. A
    terminal too narrow even for that gets each row as a block: its first two cells, then one
    line for each other column ("header  value")."""
    width = columns(env)
    if width is None or natural_width(headers, rows, indent) <= width:
        # Nothing to wrap: the columns padded to their widest cells, as rich would lay them
        # out (without loading it: bare `dojo` and `dojo list` start fast).
        for ln in _plain_table(headers, rows, indent):
            say(env, ln)
        return
    if least_width(headers, rows, indent, nowrap) > width:
        _stacked(env, headers, rows, indent)
        return
    out = _console(env, env.stdout, width)
    layout.emit(out, layout.rich_table(out, headers, rows, indent, nowrap, width))


def _stacked(env, headers: list[str], rows: list, indent: int) -> None:
    margin = " " * indent
    label = max(cell_len(h) for h in headers[2:]) if len(headers) > 2 else 0
    for r in rows:
        if isinstance(r, Heading):
            say(env, r)
            continue
        say(env, line(env, margin, *_runs(r[0]), *(["  ", *_runs(r[1])] if len(r) > 1 else []), hang=indent + 3))
        for h, c in zip(headers[2:], r[2:]):
            if _cell_text(c).strip():
                say(env, line(env, f"{margin}   {pad(h, label)}  ", *_runs(c), hang=indent + 5 + label))


def _runs(cell) -> list:
    return list(cell.runs) if isinstance(cell, Line) else [_cell_text(cell)]


def _plain_table(headers, rows, indent: int) -> list[str]:
    """The table unwrapped: each column as wide as its widest cell, two cells between them."""
    cols = _natural_columns(headers, rows, indent)
    margin = " " * indent

    def cells(values):
        shown = []
        for i, c in enumerate(values):
            text = (margin if i == 0 else "") + _cell_text(c)
            shown.append(pad(text, cols[i]))
        return "  ".join(shown).rstrip()

    out = [cells(headers), cells(["─" * (c - (indent if i == 0 else 0)) for i, c in enumerate(cols)])]
    for r in rows:
        out.append(str(r) if isinstance(r, Heading) else cells(r))
    return out


