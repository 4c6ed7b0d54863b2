"""Attention maps: two weight matrices side by side, in the terminal.

Terminal: each cell is two characters. With colour, a 256-colour background (a viridis-like
ramp from 0 to 1); without (NO_COLOR, a pipe, TERM=dumb), shade blocks ░▒▓█. A cell that is
exactly 0 is a dot, so a weight that should be 0 but is merely small (a future leak, a masked
key that still gets weight) never hides in the lightest shade. Cells of "yours" that differ from
the reference carry a ×, NaN or inf shows as !!.

The terminal's words are in the tool's language (``dojo/text/locale/<lang>/compare.toml``).

The same maps as a PNG: ``dojo/screens/figure.py`` (matplotlib).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# -- the terminal's colour ramp (viridis anchors) ----------------------------------------------

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
    from dojo.text.screen import cell_len

    return cell_len(text)


def terminal_lines(maps: list[Map], colour: bool, gap: int = 6, width: int | None = None) -> list[str]:
    from dojo.text.messages import t

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
