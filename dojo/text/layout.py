"""How rich lays text out for dojo/text/screen.py: a line wrapped at word boundaries with its
continuation under a hang, a word never broken, kept text moved as one piece, tables fitted
to a width. Everything here imports rich, so only a terminal that needs fitting loads it.

Text arrives as runs (``(text, styles)``) or strings; ``NBSP`` and ``keep`` runs are glued
(``GLUE``) while rich wraps, and printed as plain spaces.
"""

from __future__ import annotations

import re

#: A space that does not break: text joined by it moves to the next line as one piece.
#: It is printed as an ordinary space.
NBSP = "\u00a0"
#: What a kept space becomes while rich wraps (rich breaks at every whitespace, NBSP included).
GLUE = "\ue000"
#: The narrowest column a hanging indent leaves for its text before the indent is given up.
MIN_TEXT = 20
#: The colours and weights a run may ask for (ANSI codes, for text printed without rich).
CODES = {"red": "31", "green": "32", "yellow": "33", "blue": "34", "magenta": "35",
         "cyan": "36", "bold": "1", "dim": "2"}


def to_text(value):
    """rich ``Text`` from a ``Line`` (its runs) or a string (colour codes in it read as colour)."""
    from rich.text import Text

    if hasattr(value, "runs"):  # a screen.Line
        return rich_text(value.runs)
    value = str(value).replace(NBSP, GLUE)
    return Text.from_ansi(value) if "\033" in value else Text(value)


def emit(out, texts) -> None:
    """Print lines that fit already (nothing is cropped or wrapped again)."""
    from rich.text import Text

    out.print(Text("\n").join(texts), no_wrap=True, overflow="ignore", crop=False, soft_wrap=False)
    out.file.flush()


def rich_text(runs):
    """rich ``Text`` from runs: styles as rich styles, kept spaces glued (no markup is ever read)."""
    from rich.text import Text

    text = Text()
    for t, styles in runs:
        colours = " ".join(s for s in styles if s in CODES)
        t = t.replace(NBSP, GLUE)
        if "keep" in styles:
            t = t.replace(" ", GLUE)
        text.append(t, style=colours or None)
    return text


def fit(console, text, hang: int | None, width: int) -> list:
    """``text`` (one line) as lines of at most ``width`` cells: wrapped at word boundaries,
    continuation lines indented by ``hang`` cells (default: its own indent)."""
    from rich.cells import cell_len as cells

    plain = text.plain
    if cells(plain) <= width:
        return [unglue(text)]
    text = glue_quoted(text)
    indent = len(plain) - len(plain.lstrip(" "))
    hang = indent if hang is None else hang
    if width - hang < MIN_TEXT:  # too little room beside the hang: continue under the indent
        hang = indent if width - indent >= MIN_TEXT else 0
    split = index_at_cells(plain, hang)
    if split is None:
        split, hang = 0, 0
    head, body = text[:split], text[split:]
    room = width - hang
    lines = wrap(body, room)
    out = []
    first = lines[0]
    if cells(first.plain) > room and head.plain.strip():
        out.append(unglue(rstripped(head)))  # a word too long to follow the head: under it
        out.append(unglue(outdent(first, hang, width)))
    elif cells(first.plain) > room:
        out.append(unglue(outdent(first, hang, width)))
    else:
        out.append(unglue(head + first))
    out += [unglue(outdent(ln, hang, width)) for ln in lines[1:]]
    return out


#: Inline code in a sentence: "`dojo test flash_attention` judges it".
QUOTED = re.compile(r"`[^`\n]+`")
#: The space between a number and its unit: "2 s", "16 MiB", "0.35 ms".
UNIT_SPACE = re.compile(r"(?<=\d) (?=(?:s|ms|µs|ns|min|h|B|KB|KiB|MB|MiB|GB|GiB|kB|%|秒|毫秒|分钟|小时|字节)(?![\w]))")


def glue_quoted(text):
    """``text`` with the spaces inside each `quoted` span and between a number and its unit
    glued: a command moves to the next line whole instead of splitting into "`dojo" / "test
    flash_attention`", a limit is never "2" / "s CPU" (kept text wider than a line still
    breaks, ``wrap``)."""
    plain = text.plain
    glued = UNIT_SPACE.sub(GLUE, QUOTED.sub(lambda m: m.group(0).replace(" ", GLUE), plain))
    if glued == plain:
        return text
    text = text.copy()
    text.plain = glued
    return text


def rstripped(text):
    text = text.copy()
    text.rstrip()
    return text


def outdent(ln, hang: int, width: int):
    """A line indented by ``hang``, or less when its one long word needs the room."""
    from rich.cells import cell_len as cells
    from rich.text import Text

    pad = max(0, min(hang, width - cells(ln.plain)))
    return Text(" " * pad) + ln


def wrap(body, width: int) -> list:
    """``body`` divided at word boundaries into lines of ``width`` cells. A word wider than
    that is not broken: it takes a line of its own and runs on. Kept text wider than a line
    breaks at its own spaces. Text with wide characters (Chinese, which does not separate words
    by spaces) also breaks between them, never before closing punctuation (``dojo.text.cjk``)."""
    from rich._wrap import divide_line  # rich's own word wrapper, the one Text.wrap uses
    from rich.cells import cell_len as cells

    plain = body.plain
    if GLUE in plain:
        for word in set(re.findall(r"\S+", plain)):
            if GLUE in word and cells(word) > width:
                plain = plain.replace(word, word.replace(GLUE, " "))
        body = body.copy()
        body.plain = plain
    if cells(plain) != len(plain):  # wide characters: Chinese breaks between them (dojo/text/cjk.py)
        from dojo.text import cjk

        lines = body.divide(cjk.offsets(plain, width))
    else:
        lines = body.divide(divide_line(plain, width, fold=False))
    for ln in lines:
        ln.rstrip()
    return list(lines)


def index_at_cells(plain: str, n: int) -> int | None:
    """The index in ``plain`` after its first ``n`` cells (None if no character ends there)."""
    from rich.cells import cell_len as cells

    if n <= 0:
        return 0
    total = 0
    for i, ch in enumerate(plain):
        total += cells(ch)
        if total == n:
            return i + 1
        if total > n:
            return None
    return None


def unglue(text):
    """Kept spaces back to plain spaces (same length, so the styles stay where they were)."""
    if GLUE in text.plain:
        text = text.copy()
        text.plain = text.plain.replace(GLUE, " ")
    return text


class _Rule:
    """The rule under a header: as wide as its column (less ``indent`` cells at its left)."""

    def __init__(self, indent: int = 0):
        self.indent = indent

    def __rich_console__(self, console, options):
        from rich.segment import Segment

        yield Segment(" " * self.indent + "─" * max(0, options.max_width - self.indent))

    def __rich_measure__(self, console, options):
        from rich.measure import Measurement

        return Measurement(1, 1)


def rich_table(out, headers, rows, indent: int, nowrap, width: int) -> list:
    """A table as lines of at most ``width`` cells, laid out by rich (``screen.table``): two
    cells between columns, a rule under each header, the first column's cells (not its
    headings) indented by ``indent``; a column in ``nowrap`` never wraps. Each column gets at
    least its longest word (rich alone would fold words to make a table fit)."""
    from rich.table import Table
    from rich.text import Text

    pad = " " * indent
    body = []
    for r in rows:
        if getattr(r, "heading", False):  # a screen.Heading
            body.append(None)
            continue
        cells = [to_text(c) for c in r]
        if indent:
            cells[0] = Text(pad) + cells[0]
        body.append(cells)
    heads = [Text(pad + h if i == 0 else h) for i, h in enumerate(headers)]
    widths = column_widths(heads, [b for b in body if b is not None], nowrap, width)
    t = Table(box=None, padding=(0, 1), pad_edge=False, show_edge=False, show_header=True,
              header_style=None, collapse_padding=False, expand=False)
    for i, h in enumerate(heads):
        t.add_column(h, no_wrap=i in nowrap, width=widths[i], overflow="fold")
    t.add_row(*[_Rule(indent if i == 0 else 0) for i in range(len(headers))])
    for r, cells in zip(rows, body):
        if cells is None:
            t.add_row(rich_text(r.runs), *[""] * (len(headers) - 1))
        else:
            t.add_row(*cells)
    lines = []
    for segments in out.render_lines(t, out.options.update(width=width), pad=False):
        text = Text.assemble(*[(s.text.replace(GLUE, " "), s.style) for s in segments if not s.control])
        text.rstrip()
        lines.append(text)
    return lines


def column_widths(heads: list, body: list[list], nowrap, width: int) -> list[int]:
    """Each column's width: its widest cell when they all fit; else the widest columns are
    narrowed together (their cells wrap), none below its longest word (a ``nowrap`` column:
    its widest cell)."""
    from rich.cells import cell_len as cells

    from dojo.text import cjk

    most, least = [], []
    for i, h in enumerate(heads):
        texts = [h.plain] + [row[i].plain for row in body]
        most.append(max(cells(t) for t in texts))
        least.append(most[-1] if i in nowrap else max(cjk.longest(t) for t in texts))
    room = width - 2 * (len(heads) - 1)
    if sum(most) <= room:
        return most
    low, high = 0, max(most)  # the highest level every column can be cut down to
    while low < high:
        level = (low + high + 1) // 2
        if sum(max(lo, min(hi, level)) for lo, hi in zip(least, most)) <= room:
            low = level
        else:
            high = level - 1
    widths = [max(lo, min(hi, low)) for lo, hi in zip(least, most)]
    spare = room - sum(widths)
    for i in range(len(widths)):  # what is left, one cell each to the first columns still cut
        if spare <= 0:
            break
        if widths[i] < most[i]:
            widths[i] += 1
            spare -= 1
    return widths


def wrap_text(text: str, width: int) -> list[str]:
    """Plain ``text`` wrapped at word boundaries into lines of ``width`` cells, for a screen
    that lays out its own columns (a word wider than that stays whole)."""
    from rich.text import Text

    return [ln.plain.replace(GLUE, " ") for ln in wrap(Text(text.replace(NBSP, GLUE)), max(1, width))]
