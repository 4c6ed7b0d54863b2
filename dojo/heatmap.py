"""Attention maps: two weight matrices side by side, in the terminal or as a PNG.

Terminal: each cell is two characters. With colour, a 256-colour background (a viridis-like
ramp from 0 to 1); without (NO_COLOR, a pipe, TERM=dumb), shade blocks ░▒▓█. A cell that is
exactly 0 is a dot, so a weight that should be 0 but is merely small (a future leak, a masked
key that still gets weight) never hides in the lightest shade. Cells of "yours" that differ from
the reference carry a ×, NaN or inf shows as !!.

PNG: written with zlib and struct alone. Each cell is ``CELL`` pixels square, the two panels of
a pair sit ``GAP`` pixels apart under a small pixel-font label, differing cells are outlined in
red, cells that are exactly 0 are light grey with a dot, NaN/inf are magenta.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass

import numpy as np

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
    import re

    return len(re.sub(r"\033\[[0-9;]*m", "", text))


def terminal_lines(maps: list[Map], colour: bool, gap: int = 6) -> list[str]:
    out = []
    for mp in maps:
        rows = max(mp.reference.shape[0], mp.yours.shape[0] if mp.yours is not None else 0)
        label_width = len(str(max(rows - 1, 0))) + 2
        left = ["reference"] + _panel(mp.reference, None, colour, label_width)
        if mp.yours is not None:
            right = ["yours" + (f" ({mp.note})" if mp.note else "")] + _panel(mp.yours, mp.differ, colour, label_width)
        else:
            right = ["yours: nothing to draw (see below)"]
        width = max(_visible_width(s) for s in left)
        out.append(mp.title)
        for i in range(max(len(left), len(right))):
            a = left[i] if i < len(left) else ""
            b = right[i] if i < len(right) else ""
            out.append(("  " + a + " " * (width - _visible_width(a) + gap) + b).rstrip())
        out.append("")
    if colour:
        scale = "".join(f"\033[48;5;{c}m \033[0m" for c in XTERM_RAMP)
        out.append(f"0 {scale} 1    \033[2m·\033[0m exactly 0    \033[1;91m×\033[0m differs from the reference    "
                   "\033[1;97;41m!!\033[0m NaN or inf")
    else:
        out.append("· exactly 0   ░ ▒ ▓ █ up to .25 .5 .75 1   × differs from the reference   !! NaN or inf")
    return out


# -- PNG --------------------------------------------------------------------------------------

CELL = 16  # pixels per cell, square
GAP = 32  # between the two panels of a pair
MARGIN = 16  # around the picture
LABEL = 36  # the label strip above each pair: the title, then reference / yours
PAIR_GAP = 24  # between pairs (e.g. heads)
FONT_SCALE = 2

WHITE = (255, 255, 255)
ZERO = (232, 232, 232)
DOT = (150, 150, 150)
BAD = (255, 0, 255)
RED = (230, 20, 20)
INK = (40, 40, 40)

# A 3×5 pixel font: each glyph is five rows of three bits.
_FONT = {
    "A": "010101111101101", "B": "110101110101110", "C": "011100100100011", "D": "110101101101110",
    "E": "111100110100111", "F": "111100110100100", "G": "011100101101011", "H": "101101111101101",
    "I": "111010010010111", "J": "001001001101010", "K": "101101110101101", "L": "100100100100111",
    "M": "101111111101101", "N": "110101101101101", "O": "010101101101010", "P": "110101110100100",
    "Q": "010101101110011", "R": "110101110101101", "S": "011100010001110", "T": "111010010010010",
    "U": "101101101101111", "V": "101101101101010", "W": "101101111111101", "X": "101101010101101",
    "Y": "101101010010010", "Z": "111001010100111",
    "0": "111101101101111", "1": "010110010010111", "2": "110001010100111", "3": "110001010001110",
    "4": "101101111001001", "5": "111100110001110", "6": "011100111101111", "7": "111001010010010",
    "8": "111101111101111", "9": "111101111001110",
    "-": "000000111000000", ":": "000010000010000", ".": "000000000000010", "(": "010100100100010",
    ")": "010001001001010", ",": "000000000010100", "=": "000111000111000", " ": "000000000000000",
}


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

    def text(self, x: int, y: int, text: str, rgb=INK, scale: int = FONT_SCALE) -> None:
        for ch in text.upper():
            bits = _FONT.get(ch, _FONT[" "])
            for r in range(5):
                for c in range(3):
                    if bits[r * 3 + c] == "1":
                        self.fill(x + c * scale, y + r * scale, scale, scale, rgb)
            x += 4 * scale

    def png(self) -> bytes:
        raw = b"".join(
            b"\x00" + bytes(self.pixels[y * self.width * 3:(y + 1) * self.width * 3]) for y in range(self.height)
        )

        def chunk(kind: bytes, data: bytes) -> bytes:
            return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

        header = struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0)  # 8-bit RGB
        return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def png_size(maps: list[Map]) -> tuple[int, int]:
    """(width, height) in pixels of the picture ``write_png`` draws for ``maps``."""
    width = 0
    height = MARGIN
    for i, mp in enumerate(maps):
        ref_n, ref_m = mp.reference.shape
        your_n, your_m = mp.yours.shape if mp.yours is not None else mp.reference.shape
        width = max(width, 2 * MARGIN + (ref_m + your_m) * CELL + GAP)
        height += LABEL + max(ref_n, your_n) * CELL + (PAIR_GAP if i < len(maps) - 1 else 0)
    return width, height + MARGIN


def _draw_matrix(canvas: Canvas, x: int, y: int, matrix: np.ndarray, differ) -> None:
    n, m = matrix.shape
    for i in range(n):
        for j in range(m):
            v = float(matrix[i, j])
            cx, cy = x + j * CELL, y + i * CELL
            if not np.isfinite(v):
                canvas.fill(cx, cy, CELL - 1, CELL - 1, BAD)
            elif v == 0.0:
                canvas.fill(cx, cy, CELL - 1, CELL - 1, ZERO)
                canvas.fill(cx + CELL // 2 - 2, cy + CELL // 2 - 2, 3, 3, DOT)
            else:
                canvas.fill(cx, cy, CELL - 1, CELL - 1, ramp(v))
            if differ is not None and differ[i, j]:
                canvas.outline(cx - 1, cy - 1, CELL + 1, CELL + 1, RED, 2)


def render_png(maps: list[Map]) -> bytes:
    width, height = png_size(maps)
    canvas = Canvas(width, height)
    y = MARGIN
    for mp in maps:
        ref_n, ref_m = mp.reference.shape
        your_n = mp.yours.shape[0] if mp.yours is not None else ref_n
        left_x = MARGIN
        right_x = MARGIN + ref_m * CELL + GAP
        canvas.text(left_x, y + 2, mp.title)
        canvas.text(left_x, y + 20, "reference", DOT)
        canvas.text(right_x, y + 20, "yours" if mp.yours is not None else "yours: none", DOT)
        top = y + LABEL
        _draw_matrix(canvas, left_x, top, mp.reference, None)
        if mp.yours is not None:
            _draw_matrix(canvas, right_x, top, mp.yours, mp.differ)
        else:  # nothing came back: a grey panel with a red cross
            canvas.fill(right_x, top, ref_m * CELL - 1, ref_n * CELL - 1, ZERO)
            for t in range(min(ref_n, ref_m) * CELL):
                fx = right_x + t * ref_m // min(ref_n, ref_m)
                fy = top + t * ref_n // min(ref_n, ref_m)
                canvas.fill(fx, fy, 2, 2, RED)
                canvas.fill(right_x + ref_m * CELL - 3 - (fx - right_x), fy, 2, 2, RED)
        y = top + max(ref_n, your_n) * CELL + PAIR_GAP
    return canvas.png()
