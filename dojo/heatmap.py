"""Attention maps: two weight matrices side by side, in the terminal or as a PNG.

Terminal: each cell is two characters. With colour, a 256-colour background (a viridis-like
ramp from 0 to 1); without (NO_COLOR, a pipe, TERM=dumb), shade blocks ░▒▓█. A cell that is
exactly 0 is a dot, so a weight that should be 0 but is merely small (a future leak, a masked
key that still gets weight) never hides in the lightest shade. Cells of "yours" that differ from
the reference carry a ×, NaN or inf shows as !!.

The terminal's words are in the tool's language (``dojo/locale/<lang>/compare.toml``); the
PNG's are English in every language: its font has no Chinese glyphs.

PNG: written with zlib and struct alone, its text in a small bitmap font with upper and lower
case (``dojo/pngfont.py``). A heading names what is drawn (the kata and the case). Each cell is
``CELL`` (32) pixels square, with row numbers (queries) to the left and column numbers (keys)
above each panel; the two panels of a pair sit side by side under the pair's title. Differing cells are outlined in red, cells that
are exactly 0 are light grey with a dot, cells the mask blocks (their weight must be exactly 0)
are hatched, NaN/inf are magenta. Under the maps: a colour bar from 0 to 1 with ticks, and a key
to every mark.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass

import numpy as np

from dojo import pngfont
from dojo.pngfont import glyph

# -- the colour ramp (viridis anchors), shared by the terminal and the PNG -------------------

_ANCHORS = [(0.0, (68, 1, 84)), (0.25, (59, 82, 139)), (0.5, (33, 145, 140)),
            (0.75, (94, 201, 98)), (1.0, (253, 231, 37))]


def ramp(v: float) -> tuple[int, int, int]:
    v = min(max(float(v), 0.0), 1.0)
    for (a, ca), (b, cb) in zip(_ANCHORS, _ANCHORS[1:]):
        if v <= b:
            t = (v - a) / (b - a)
            return tuple(int(round(x + (y - x) * t)) for x, y in zip(ca, cb))
    return _ANCHORS[-1][1]


def _xterm(rgb) -> int:
    """The nearest colour of the xterm-256 palette (6×6×6 cube or the grey ramp)."""
    levels = [0, 95, 135, 175, 215, 255]
    best, index = None, 16
    for i, r in enumerate(levels):
        for j, g in enumerate(levels):
            for k, b in enumerate(levels):
                d = (r - rgb[0]) ** 2 + (g - rgb[1]) ** 2 + (b - rgb[2]) ** 2
                if best is None or d < best:
                    best, index = d, 16 + 36 * i + 6 * j + k
    for n in range(24):
        v = 8 + 10 * n
        d = sum((v - c) ** 2 for c in rgb)
        if d < best:
            best, index = d, 232 + n
    return index


STEPS = 12
XTERM_RAMP = [_xterm(ramp(i / (STEPS - 1))) for i in range(STEPS)]
SHADES = "░▒▓█"


# -- what to draw -----------------------------------------------------------------------------


@dataclass
class Map:
    title: str
    reference: np.ndarray  # 2-D
    yours: np.ndarray | None  # 2-D, or None when there is nothing to draw (see ``note``)
    differ: np.ndarray | None  # bool, same shape as reference; None when not comparable
    blocked: np.ndarray | None = None
    note: str = ""
    label: str = ""  # the title on the terminal, in the tool's language ("": the title)


def differing(yours, reference, rtol: float, atol: float) -> np.ndarray | None:
    """Cells where ``yours`` is not within the judge's tolerance of ``reference`` (None if shapes differ)."""
    if yours is None or yours.shape != reference.shape:
        return None
    finite = reference[np.isfinite(reference)]
    scale = max(1.0, float(np.max(np.abs(finite), initial=0.0)))
    with np.errstate(invalid="ignore", over="ignore"):
        close = np.isclose(yours, reference, rtol=rtol, atol=atol * scale)
    return ~close


# -- terminal ---------------------------------------------------------------------------------


def _cell(v: float, differs: bool, colour: bool) -> str:
    mark = "×" if differs else None
    if not np.isfinite(v):
        text = "!!"
        return f"\033[1;97;41m{text}\033[0m" if colour else text
    if v == 0.0:
        if colour:
            return "\033[2m·\033[0m" + (f"\033[1;91m{mark}\033[0m" if mark else " ")
        return "·" + (mark or " ")
    v = min(max(v, 0.0), 1.0)
    if colour:
        bg = XTERM_RAMP[min(STEPS - 1, int(round(v * (STEPS - 1))))]
        fg = "\033[1;38;5;196m" if v > 0.55 else "\033[1;38;5;210m"
        body = f"{fg} ×" if mark else "  "
        return f"\033[48;5;{bg}m{body}\033[0m"
    shade = SHADES[min(3, max(0, int(np.ceil(v * 4)) - 1))]
    return shade + (mark or shade)


def _panel(matrix: np.ndarray | None, differ, colour: bool, label_width: int) -> list[str]:
    n, m = matrix.shape
    head = " " * label_width + "".join(f"{j % 10:<2}" for j in range(m))
    rows = [head]
    for i in range(n):
        cells = "".join(
            _cell(float(matrix[i, j]), bool(differ is not None and differ[i, j]), colour) for j in range(m)
        )
        rows.append(f"{i:>{label_width - 1}} " + cells)
    return rows


def _visible_width(text: str) -> int:
    """Terminal cells, colour codes left out (a Chinese label takes two a character)."""
    from dojo.screen import cell_len

    return cell_len(text)


def terminal_lines(maps: list[Map], colour: bool, gap: int = 6, width: int | None = None) -> list[str]:
    from dojo.messages import t

    out = []
    for mp in maps:
        rows = max(mp.reference.shape[0], mp.yours.shape[0] if mp.yours is not None else 0)
        label_width = len(str(max(rows - 1, 0))) + 2
        left = [t("compare.map.reference")] + _panel(mp.reference, None, colour, label_width)
        if mp.yours is not None:
            yours = t("compare.map.yours-note", note=mp.note) if mp.note else t("compare.map.yours")
            right = [yours] + _panel(mp.yours, mp.differ, colour, label_width)
        else:
            right = [t("compare.map.nothing")]
        left_width = max(_visible_width(s) for s in left)
        out.append(mp.label or mp.title)
        for i in range(max(len(left), len(right))):
            a = left[i] if i < len(left) else ""
            b = right[i] if i < len(right) else ""
            out.append(("  " + a + " " * (left_width - _visible_width(a) + gap) + b).rstrip())
        out.append("")
    if colour:
        scale = "".join(f"\033[48;5;{c}m \033[0m" for c in XTERM_RAMP)
        items = [f"0 {scale} 1", f"\033[2m·\033[0m {t('compare.map.key.zero')}",
                 f"\033[1;91m×\033[0m {t('compare.map.key.differs')}", f"\033[1;97;41m!!\033[0m {t('compare.map.key.bad')}"]
    else:
        items = [f"· {t('compare.map.key.zero')}", f"░ ▒ ▓ █ {t('compare.map.key.shades')}",
                 f"× {t('compare.map.key.differs')}", f"!! {t('compare.map.key.bad')}"]
    line = ""
    for item in items:  # the key, on as few lines as the width allows
        joined = f"{line}   {item}" if line else item
        if line and width is not None and _visible_width(joined) > width:
            out.append(line)
            joined = item
        line = joined
    out.append(line)
    return out


# -- PNG --------------------------------------------------------------------------------------

CELL = 32  # pixels per cell, square: big enough to see a 0.05 step and the marks on top
GAP = 56  # between the two panels of a pair (room for the right panel's row numbers)
MARGIN = 24  # around the picture
INDEX = 28  # room for the row numbers left of a panel and the column numbers above it
TITLE = 44  # the title of a pair and the reference / yours labels above its panels
PAIR_GAP = 32  # between pairs (e.g. heads)
LEGEND = 110  # the colour bar and the key to the marks, under the last pair
BAR_WIDTH = 320  # the colour bar's length in pixels
FONT_SCALE = 2
HEADING_LINE = 20  # one line of the heading: a glyph's 7 rows at FONT_SCALE, and room between lines
HEADING_GAP = 16  # between the heading and the first pair's title

WHITE = (255, 255, 255)
ZERO = (232, 232, 232)
DOT = (150, 150, 150)
BAD = (255, 0, 255)
RED = (230, 20, 20)
INK = (40, 40, 40)
HATCH = (90, 90, 90)
HATCH_ON_DARK = (225, 225, 225)  # the hatch over a dark (low-weight) cell: light lines

class Canvas:
    def __init__(self, width: int, height: int):
        self.width, self.height = width, height
        self.pixels = bytearray(bytes(WHITE) * (width * height))

    def fill(self, x: int, y: int, w: int, h: int, rgb) -> None:
        x0, y0 = max(0, x), max(0, y)
        x1, y1 = min(self.width, x + w), min(self.height, y + h)
        if x1 <= x0 or y1 <= y0:
            return
        row = bytes(rgb) * (x1 - x0)
        for yy in range(y0, y1):
            start = (yy * self.width + x0) * 3
            self.pixels[start:start + len(row)] = row

    def outline(self, x: int, y: int, w: int, h: int, rgb, thickness: int = 2) -> None:
        self.fill(x, y, w, thickness, rgb)
        self.fill(x, y + h - thickness, w, thickness, rgb)
        self.fill(x, y, thickness, h, rgb)
        self.fill(x + w - thickness, y, thickness, h, rgb)

    def hatch(self, x: int, y: int, w: int, h: int, rgb, every: int = 8) -> None:
        """Diagonal lines (top-left to bottom-right) across a box: the mark of a blocked cell."""
        for yy in range(h):
            for xx in range(w):
                if (xx - yy) % every == 0:
                    self.fill(x + xx, y + yy, 1, 1, rgb)

    def text(self, x: int, y: int, text: str, rgb=INK, scale: int = FONT_SCALE) -> None:
        """``text`` as written, upper and lower case (``dojo/pngfont.py``), its capitals' tops at ``y``."""
        for ch in text:
            for r, row in enumerate(glyph(ch)):
                for c, ink in enumerate(row):
                    if ink == "#":
                        self.fill(x + c * scale, y + r * scale, scale, scale, rgb)
            x += pngfont.advance(ch) * scale

    def png(self) -> bytes:
        raw = b"".join(
            b"\x00" + bytes(self.pixels[y * self.width * 3:(y + 1) * self.width * 3]) for y in range(self.height)
        )

        def chunk(kind: bytes, data: bytes) -> bytes:
            return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

        header = struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0)  # 8-bit RGB
        return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def text_width(text: str, scale: int = FONT_SCALE) -> int:
    return pngfont.text_width(text, scale)


@dataclass
class Placed:
    """Where one pair of panels sits in the picture: the top-left pixel of each panel's cell (0, 0)."""
    title_y: int
    reference: tuple[int, int]
    yours: tuple[int, int]


def layout(maps: list[Map], heading: list[str] | tuple[str, ...] = ()) -> tuple[list[Placed], int, int, int]:
    """Each pair's position, the picture's width and height, and the legend's top (under the
    ``heading`` lines, when there are some)."""
    placed = []
    width = 2 * MARGIN + max([BAR_WIDTH, legend_width()] + [text_width(line) for line in heading])
    y = MARGIN + (len(heading) * HEADING_LINE + HEADING_GAP if heading else 0)
    for i, mp in enumerate(maps):
        ref_n, ref_m = mp.reference.shape
        your_n, your_m = mp.yours.shape if mp.yours is not None else mp.reference.shape
        left = MARGIN + INDEX
        right = left + ref_m * CELL + GAP
        top = y + TITLE + INDEX
        placed.append(Placed(y, (left, top), (right, top)))
        width = max(width, right + your_m * CELL + MARGIN, MARGIN + text_width(mp.title) + MARGIN)
        y = top + max(ref_n, your_n) * CELL + (PAIR_GAP if i < len(maps) - 1 else 0)
    return placed, width, y + LEGEND + MARGIN, y + 24


def png_size(maps: list[Map], heading: list[str] | tuple[str, ...] = ()) -> tuple[int, int]:
    """(width, height) in pixels of the picture ``render_png`` draws for ``maps``."""
    _, width, height, _ = layout(maps, heading)
    return width, height


def _indices(canvas: Canvas, x: int, y: int, n: int, m: int) -> None:
    """Column numbers above a panel, row numbers to its left (row = query, column = key)."""
    for j in range(m):
        label = str(j)
        canvas.text(x + j * CELL + (CELL - text_width(label)) // 2, y - INDEX + 8, label, DOT)
    for i in range(n):
        label = str(i)
        canvas.text(x - 6 - text_width(label), y + i * CELL + (CELL - 10) // 2, label, DOT)


def _draw_matrix(canvas: Canvas, x: int, y: int, matrix: np.ndarray, differ, blocked=None) -> None:
    n, m = matrix.shape
    _indices(canvas, x, y, n, m)
    for i in range(n):
        for j in range(m):
            v = float(matrix[i, j])
            cx, cy = x + j * CELL, y + i * CELL
            if not np.isfinite(v):
                canvas.fill(cx, cy, CELL - 1, CELL - 1, BAD)
            elif v == 0.0:
                canvas.fill(cx, cy, CELL - 1, CELL - 1, ZERO)
            else:
                canvas.fill(cx, cy, CELL - 1, CELL - 1, ramp(v))
            if blocked is not None and blocked.shape == matrix.shape and blocked[i, j]:
                dark = np.isfinite(v) and v != 0.0 and sum(ramp(v)) < 3 * 128
                canvas.hatch(cx, cy, CELL - 1, CELL - 1, HATCH_ON_DARK if dark else HATCH)
            if np.isfinite(v) and v == 0.0:
                canvas.fill(cx + CELL // 2 - 2, cy + CELL // 2 - 2, 4, 4, DOT)
            if differ is not None and differ[i, j]:
                canvas.outline(cx - 1, cy - 1, CELL + 1, CELL + 1, RED, 3)


KEY = (("zero", "exactly 0"), ("blocked", "must be 0 (blocked)"),
       ("differ", "differs from reference"), ("bad", "NaN or inf"))


def legend_width() -> int:
    return sum(28 + text_width(label) + 28 for _, label in KEY) - 28


def _legend(canvas: Canvas, x: int, y: int) -> None:
    """The colour bar from 0 to 1 with its ticks, then a swatch for each mark."""
    canvas.text(x, y, "weight   (rows: queries, columns: keys)", INK)
    bar_y = y + 16
    for px in range(BAR_WIDTH):
        canvas.fill(x + px, bar_y, 1, 18, ramp(px / (BAR_WIDTH - 1)))
    for value, label in ((0.0, "0"), (0.25, ".25"), (0.5, ".5"), (0.75, ".75"), (1.0, "1")):
        tx = x + round(value * (BAR_WIDTH - 1))
        canvas.fill(tx, bar_y + 18, 1, 5, INK)
        canvas.text(min(tx - text_width(label) // 2, x + BAR_WIDTH - text_width(label)), bar_y + 26, label, INK)
    row = bar_y + 48
    sx = x
    for kind, label in KEY:
        if kind == "zero":
            canvas.fill(sx, row, 20, 20, ZERO)
            canvas.fill(sx + 8, row + 8, 4, 4, DOT)
        elif kind == "blocked":
            canvas.fill(sx, row, 20, 20, ZERO)
            canvas.hatch(sx, row, 20, 20, HATCH)
        elif kind == "differ":
            canvas.fill(sx, row, 20, 20, ramp(0.5))
            canvas.outline(sx - 1, row - 1, 22, 22, RED, 3)
        else:
            canvas.fill(sx, row, 20, 20, BAD)
        canvas.text(sx + 28, row + 5, label, INK)
        sx += 28 + text_width(label) + 28


def render_png(maps: list[Map], heading: list[str] | tuple[str, ...] = ()) -> bytes:
    """The maps as a PNG, under ``heading`` (lines of text: what is drawn, e.g. the kata and the case)."""
    placed, width, height, legend_y = layout(maps, heading)
    canvas = Canvas(width, height)
    for i, line in enumerate(heading):
        canvas.text(MARGIN, MARGIN + i * HEADING_LINE, line, INK)
    for mp, at in zip(maps, placed):
        ref_n, ref_m = mp.reference.shape
        (left_x, top), (right_x, _) = at.reference, at.yours
        canvas.text(MARGIN, at.title_y, mp.title)
        canvas.text(left_x, at.title_y + 20, "reference", DOT)
        canvas.text(right_x, at.title_y + 20, "yours" if mp.yours is not None else "yours: none", DOT)
        _draw_matrix(canvas, left_x, top, mp.reference, None, mp.blocked)
        if mp.yours is not None:
            _draw_matrix(canvas, right_x, top, mp.yours, mp.differ, mp.blocked)
        else:  # nothing came back: a grey panel with a red cross
            canvas.fill(right_x, top, ref_m * CELL - 1, ref_n * CELL - 1, ZERO)
            for t in range(min(ref_n, ref_m) * CELL):
                fx = right_x + t * ref_m // min(ref_n, ref_m)
                fy = top + t * ref_n // min(ref_n, ref_m)
                canvas.fill(fx, fy, 2, 2, RED)
                canvas.fill(right_x + ref_m * CELL - 3 - (fx - right_x), fy, 2, 2, RED)
    _legend(canvas, MARGIN, legend_y)
    return canvas.png()
