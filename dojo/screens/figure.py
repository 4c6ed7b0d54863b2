"""Attention maps as a PNG, drawn by matplotlib (Agg, no pyplot): ``render_png`` returns the
bytes of one figure, for ``dojo compare --png`` and for a notebook (an ``<img>`` data URI).

The figure: a heading that names what is drawn (the kata and the case), then for each map a
pair of panels under the pair's title, "reference" on the left and "yours" on the right, each
cell ``CELL`` (32) pixels square, row numbers (queries) to the left and column numbers (keys)
above each panel. Weights are coloured by viridis from 0 to 1; a cell that is exactly 0 is light
grey with a dot (so a small leak never hides in the darkest colour), a cell the mask blocks (its
weight must be exactly 0) is hatched, NaN or inf is magenta, and a cell of yours that differs
from the reference is outlined in red. Under the maps: a colour bar from 0 to 1 and a key to
every mark. The heading is also in the PNG's metadata (``Title``; ``Description`` holds the
panel titles), so a reader or a test can find it without reading pixels.

The layout is computed here in pixels (``layout``), not by matplotlib's layout engines: the
picture's size and where each cell lands are known without drawing, and tests read pixels back
at those places. matplotlib is imported only when a figure is drawn (``dojo list`` never pays
for it), and draws with its own defaults: a matplotlibrc or a notebook's style changes nothing.

The words (the heading, the pairs' titles, "reference" / "yours", the colour bar's label and the
key; ``compare.png.*`` in ``dojo/text/locale/<lang>/compare.toml``) are in the language the figure is
drawn in, ``language`` (default English). matplotlib draws Chinese only with a font that has CJK
glyphs, which many machines lack (CI's, a fresh Docker image): ``drawn_language`` is the tool's
language when ``cjk_font`` finds such a font (installed fonts, by family name, e.g. Noto Sans CJK
SC from fonts-noto-cjk), else English, so a figure never shows tofu boxes; ``dojo compare --png``
then says in one line that the picture's words are English and which package to install. A
Chinese figure draws its words in that font (DejaVu Sans, matplotlib's own, for what it lacks);
the indices and the colour bar's ticks are the same in every language.
"""

from __future__ import annotations

import functools
import io
from dataclasses import dataclass

import numpy as np

from dojo.text import locale
from dojo.screens.heatmap import Map
from dojo.text.messages import message, text

DPI = 100  # one point of the layout below is one pixel of the PNG
CELL = 32  # pixels per cell, square: big enough to see a 0.05 step and the marks on top
GAP = 56  # between the two panels of a pair (room for the right panel's row numbers)
MARGIN = 24  # around the picture
INDEX = 28  # room for the row numbers left of a panel and the column numbers above it
TITLE = 44  # the title of a pair and the reference / yours labels above its panels
PAIR_GAP = 32  # between pairs (e.g. heads)
LEGEND = 130  # the colour bar, its label and ticks, and the key to the marks, under the last pair
BAR_WIDTH = 320  # the colour bar's length in pixels
BAR_HEIGHT = 18
HEADING_LINE = 20  # one line of the heading
HEADING_GAP = 16  # between the heading and the first pair's title
MIN_WIDTH = 720  # the heading (72 characters a line, dojo/commands/compare/maps.py) and the key fit in this
FONT = 11  # points of the heading and titles (at DPI 100: about 15 pixels)
SMALL = 9  # points of the indices, labels and key

ZERO = (232, 232, 232)  # a cell that is exactly 0
DOT = (150, 150, 150)  # the dot on it, and the indices
BAD = (255, 0, 255)  # NaN or inf
RED = (230, 20, 20)  # the outline of a differing cell
INK = (40, 40, 40)
HATCH = (90, 90, 90)  # the hatch over a light cell
HATCH_ON_DARK = (225, 225, 225)  # the hatch over a dark (low-weight) cell: light lines

#: The marks of the key, in order (their words: ``compare.png.key.<mark>``).
MARKS = ("zero", "blocked", "differs", "bad")

#: Fonts with Chinese glyphs, by family name, most wanted first (Linux, then macOS and Windows).
CJK_FAMILIES = ("Noto Sans CJK SC", "Source Han Sans SC", "Source Han Sans CN", "WenQuanYi Zen Hei",
                "WenQuanYi Micro Hei", "Microsoft YaHei", "PingFang SC", "Heiti SC", "SimHei",
                "Noto Sans CJK JP", "Droid Sans Fallback")
#: The same fonts' files, for one installed after matplotlib wrote its font cache (it never looks again).
CJK_FILES = ("notosanscjk", "sourcehansans", "wqy-zenhei", "wqy-microhei", "msyh", "pingfang", "simhei",
             "droidsansfallback")
#: Characters a CJK font must have to be used (a font named like one may be a stub).
CJK_PROBE = "注意力权重参考实现你的恰好被屏蔽"


def words(language: str = "en") -> dict[str, str]:
    """The figure's words in ``language``: reference, yours, yours-none, bar, separator, key.<mark>."""
    ids = ["reference", "yours", "yours-none", "bar", "separator"] + [f"key.{mark}" for mark in MARKS]
    return {i: text(message(f"compare.png.{i}"), language) for i in ids}


#: The key's marks and their English words (the words drawn: ``words(language)``).
KEY = tuple((mark, words()[f"key.{mark}"]) for mark in MARKS)


@functools.cache
def cjk_font() -> str | None:
    """The family name of an installed font with Chinese glyphs that matplotlib can draw with, or
    None. Cheap: the names in matplotlib's font list (its cache), then, when none is there, the
    system's font files whose names are known (``findSystemFonts``: fc-list, ~10 ms); each
    candidate must have every character of ``CJK_PROBE``. Nothing is downloaded."""
    from pathlib import Path

    from matplotlib import font_manager

    def found():
        names = {entry.name for entry in font_manager.fontManager.ttflist}
        return [name for name in CJK_FAMILIES if name in names]

    candidates = found()
    if not candidates:
        for path in font_manager.findSystemFonts():
            if any(stem in Path(path).name.lower() for stem in CJK_FILES):
                try:
                    font_manager.fontManager.addfont(path)  # this process only: the cache stays as it is
                except (OSError, RuntimeError, ValueError):
                    pass
        candidates = found()
    for name in candidates:
        try:
            font = font_manager.get_font(font_manager.findfont(font_manager.FontProperties(family=name),
                                                               fallback_to_default=False))
        except (OSError, RuntimeError, ValueError):
            continue
        if all(font.get_char_index(ord(ch)) for ch in CJK_PROBE):
            return name
    return None


def drawn_language(language: str | None = None) -> str:
    """The language a figure can be drawn in for ``language`` (default: the tool's): English as
    it is; another (Chinese) when ``cjk_font`` finds a font for it, else English."""
    language = language or locale.LANGUAGE
    return language if language == "en" or cjk_font() else "en"


def _font(language: str) -> dict:
    """Text properties for the words of a figure in ``language``: the CJK font first, matplotlib's
    DejaVu Sans for any glyph it lacks (nothing for English: matplotlib's default, as ever)."""
    if language == "en":
        return {}
    name = cjk_font()
    if name is None:
        raise ValueError(f"no font with {language!r} glyphs: draw in drawn_language({language!r})")
    return {"fontfamily": [name, "DejaVu Sans"]}


@dataclass
class Placed:
    """Where one pair of panels sits in the picture: the top-left pixel of each panel's cell
    (0, 0), counted from the picture's top-left corner."""
    title_y: int
    reference: tuple[int, int]
    yours: tuple[int, int]


def _shapes(mp: Map) -> tuple[tuple[int, int], tuple[int, int]]:
    for name, a in (("reference", mp.reference), ("yours", mp.yours)):
        if a is not None and np.ndim(a) != 2:
            raise ValueError(f"map {mp.title!r}: {name} must be a 2-D matrix, not {np.ndim(a)}-D")
    ref = tuple(np.shape(mp.reference))
    return ref, (tuple(np.shape(mp.yours)) if mp.yours is not None else ref)


def layout(maps: list[Map], heading: list[str] | tuple[str, ...] = ()) -> tuple[list[Placed], int, int, int]:
    """Each pair's position, the picture's width and height, and the legend's top (all in
    pixels), under the ``heading`` lines when there are some."""
    if not maps:
        raise ValueError("no maps to draw")
    placed = []
    width = MIN_WIDTH
    y = MARGIN + (len(heading) * HEADING_LINE + HEADING_GAP if heading else 0)
    for i, mp in enumerate(maps):
        (ref_n, ref_m), (your_n, your_m) = _shapes(mp)
        left = MARGIN + INDEX
        right = left + ref_m * CELL + GAP
        top = y + TITLE + INDEX
        placed.append(Placed(y, (left, top), (right, top)))
        width = max(width, right + your_m * CELL + MARGIN)
        y = top + max(ref_n, your_n) * CELL + (PAIR_GAP if i < len(maps) - 1 else 0)
    return placed, width, y + LEGEND + MARGIN, y + 24


def png_size(maps: list[Map], heading: list[str] | tuple[str, ...] = ()) -> tuple[int, int]:
    """(width, height) in pixels of the picture ``render_png`` draws for ``maps``."""
    _, width, height, _ = layout(maps, heading)
    return width, height


def _rgb(c) -> tuple[float, float, float]:
    return tuple(v / 255 for v in c)


def _colours(matrix: np.ndarray, cmap) -> np.ndarray:
    """The RGB image of ``matrix``: viridis for weights, grey for exactly 0, magenta for NaN/inf."""
    with np.errstate(invalid="ignore"):
        rgb = cmap(np.clip(np.nan_to_num(matrix, nan=0.0, posinf=1.0, neginf=0.0), 0.0, 1.0))[..., :3]
        rgb[matrix == 0.0] = _rgb(ZERO)
    rgb[~np.isfinite(matrix)] = _rgb(BAD)
    return rgb


def _panel(fig, box, matrix: np.ndarray, differ, blocked, cmap) -> None:
    """One panel at ``box`` (left, top, width, height in pixels): cells, indices and marks."""
    from matplotlib.patches import Rectangle

    n, m = matrix.shape
    W, H = fig.bbox.width, fig.bbox.height
    x, y, w, h = box
    ax = fig.add_axes((x / W, 1 - (y + h) / H, w / W, h / H))
    ax.imshow(_colours(matrix, cmap), interpolation="nearest", aspect="auto",
              extent=(-0.5, m - 0.5, n - 0.5, -0.5))
    ax.set_xlim(-0.5, m - 0.5)
    ax.set_ylim(n - 0.5, -0.5)
    ax.set_xticks(range(m), [str(j) for j in range(m)])
    ax.set_yticks(range(n), [str(i) for i in range(n)])
    ax.tick_params(top=False, bottom=False, left=False, labeltop=True, labelbottom=False,
                   labelsize=SMALL, labelcolor=_rgb(DOT), pad=3)
    for spine in ax.spines.values():
        spine.set_visible(False)
    finite = np.isfinite(matrix)
    zi, zj = np.nonzero(finite & (matrix == 0.0))
    if len(zi):
        ax.scatter(zj, zi, s=6, marker="s", color=_rgb(DOT), linewidths=0, zorder=3)
    if blocked is not None and np.shape(blocked) == matrix.shape:
        for i, j in zip(*np.nonzero(blocked)):
            v = float(matrix[i, j])
            dark = np.isfinite(v) and v != 0.0 and sum(cmap(min(max(v, 0.0), 1.0))[:3]) < 1.5
            ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, linewidth=0, hatch="///",
                                   hatchcolor=_rgb(HATCH_ON_DARK if dark else HATCH), zorder=2))
    if differ is not None:
        for i, j in zip(*np.nonzero(differ)):
            ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, edgecolor=_rgb(RED),
                                   linewidth=2.2, zorder=4, clip_on=False))


def _nothing(fig, box) -> None:
    """Nothing came back: a grey panel with a red cross."""
    from matplotlib.patches import Rectangle

    W, H = fig.bbox.width, fig.bbox.height
    x, y, w, h = box
    ax = fig.add_axes((x / W, 1 - (y + h) / H, w / W, h / H))
    ax.set_axis_off()
    ax.add_patch(Rectangle((0, 0), 1, 1, color=_rgb(ZERO), zorder=0))
    ax.plot([0, 1], [0, 1], color=_rgb(RED), linewidth=1.5)
    ax.plot([0, 1], [1, 0], color=_rgb(RED), linewidth=1.5)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)


def _legend(fig, x: int, y: int, cmap, said: dict, font: dict) -> None:
    """The colour bar from 0 to 1 with its ticks, then a swatch for each mark."""
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    W, H = fig.bbox.width, fig.bbox.height
    fig.text(x / W, 1 - y / H, said["bar"], fontsize=SMALL, color=_rgb(INK), va="top", **font)
    bar_y = y + 18
    bar = fig.add_axes((x / W, 1 - (bar_y + BAR_HEIGHT) / H, BAR_WIDTH / W, BAR_HEIGHT / H))
    colourbar = fig.colorbar(ScalarMappable(Normalize(0.0, 1.0), cmap), cax=bar, orientation="horizontal",
                             ticks=[0, 0.25, 0.5, 0.75, 1])
    colourbar.ax.set_xticklabels(["0", ".25", ".5", ".75", "1"])
    colourbar.ax.tick_params(labelsize=SMALL, colors=_rgb(INK), length=4)
    colourbar.outline.set_visible(False)
    handles = [
        (Patch(facecolor=_rgb(ZERO), edgecolor="none"),  # grey with the dot, as in the maps
         Line2D([], [], marker="s", markersize=2.4, color=_rgb(DOT), linestyle="none")),
        Patch(facecolor=_rgb(ZERO), edgecolor=_rgb(HATCH), hatch="///", linewidth=0),
        Patch(facecolor=cmap(0.5), edgecolor=_rgb(RED), linewidth=2.2),
        Patch(facecolor=_rgb(BAD), edgecolor="none"),
    ]
    key_y = bar_y + BAR_HEIGHT + 30
    prop = {"size": SMALL, **({"family": font["fontfamily"]} if font else {})}
    fig.legend(handles, [said[f"key.{mark}"] for mark in MARKS], loc="upper left",
               bbox_to_anchor=(x / W, 1 - key_y / H), ncol=len(MARKS), frameon=False, prop=prop, handlelength=1.4,
               handleheight=1.4, borderaxespad=0, borderpad=0, columnspacing=1.6, labelcolor=_rgb(INK))


def figure(maps: list[Map], heading: list[str] | tuple[str, ...] = (), language: str = "en"):
    """The matplotlib ``Figure`` of ``maps`` under ``heading`` (its canvas Agg; no pyplot, so a
    notebook's own backend is left alone), its words in ``language`` (the heading is given in it;
    a pair's title is a map's ``label`` in a language other than English, its ``title`` in English)."""
    from matplotlib import colormaps
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    placed, width, height, legend_y = layout(maps, heading)
    fig = Figure(figsize=(width / DPI, height / DPI), dpi=DPI, facecolor="white")
    FigureCanvasAgg(fig)
    cmap = colormaps["viridis"]
    said, font = words(language), _font(language)
    for i, line in enumerate(heading):
        fig.text(MARGIN / width, 1 - (MARGIN + i * HEADING_LINE) / height, line, fontsize=FONT,
                 color=_rgb(INK), va="top", weight="bold" if i == 0 else "normal", **font)
    for mp, at in zip(maps, placed):
        (ref_n, ref_m), (your_n, your_m) = _shapes(mp)
        (left, top), (right, _) = at.reference, at.yours
        fig.text(MARGIN / width, 1 - at.title_y / height, _title(mp, language), fontsize=FONT, color=_rgb(INK),
                 va="top", **font)
        labels_y = 1 - (at.title_y + 22) / height
        fig.text(left / width, labels_y, said["reference"], fontsize=SMALL, color=_rgb(DOT), va="top", **font)
        fig.text(right / width, labels_y, said["yours" if mp.yours is not None else "yours-none"], fontsize=SMALL,
                 color=_rgb(DOT), va="top", **font)
        reference = np.asarray(mp.reference, dtype=np.float64)
        _panel(fig, (left, top, ref_m * CELL, ref_n * CELL), reference, None, mp.blocked, cmap)
        if mp.yours is not None:
            yours = np.asarray(mp.yours, dtype=np.float64)
            _panel(fig, (right, top, your_m * CELL, your_n * CELL), yours, mp.differ, mp.blocked, cmap)
        else:
            _nothing(fig, (right, top, ref_m * CELL, ref_n * CELL))
    _legend(fig, MARGIN, legend_y, cmap, said, font)
    return fig


def _title(mp: Map, language: str) -> str:
    return mp.title if language == "en" else (mp.label or mp.title)


def maps_from_json(items: list[dict]) -> list[Map]:
    """The maps of a ``dojo compare --json`` report (its ``maps``), to draw again elsewhere (a
    notebook): null, which stands for NaN and inf in the JSON, becomes NaN (magenta either way)."""

    def matrix(rows, name: str, title: str) -> np.ndarray | None:
        if rows is None:
            return None
        try:
            a = np.array([[np.nan if v is None else v for v in row] for row in rows], dtype=np.float64)
        except (TypeError, ValueError):
            a = None
        if a is None or a.ndim != 2:
            raise ValueError(f"map {title!r}: {name} is not a matrix of numbers")
        return a

    maps = []
    for item in items:
        title = item.get("title", "")
        reference = matrix(item.get("reference"), "reference", title)
        if reference is None:
            raise ValueError(f"map {title!r}: no reference matrix")
        differ, blocked = (None if item.get(k) is None else np.array(item[k], dtype=bool) for k in ("differ", "blocked"))
        maps.append(Map(title, reference, matrix(item.get("yours"), "yours", title), differ, blocked,
                        item.get("note", "")))
    return maps


def render_png(maps: list[Map], heading: list[str] | tuple[str, ...] = (), language: str = "en",
               title: str | None = None) -> bytes:
    """The PNG bytes of the figure of ``maps`` under ``heading`` (lines of text: what is drawn,
    e.g. the kata and the case), its words in ``language`` (one ``drawn_language`` allows). The
    PNG's ``Title`` is ``title`` (default: the heading's lines joined by spaces; a Chinese heading
    wraps between characters, so give its unwrapped text), its ``Description`` the panels' titles."""
    from matplotlib import style

    separator = words(language)["separator"]
    metadata = {"Title": " ".join(heading) if title is None else title,
                "Description": separator.join(_title(mp, language) for mp in maps),
                "Software": "attention dojo (matplotlib)"}
    out = io.BytesIO()
    with style.context("default"):  # matplotlib's defaults, not a matplotlibrc's or a notebook's style
        fig = figure(maps, heading, language)
        fig.savefig(out, format="png", dpi=DPI, metadata=metadata)
    return out.getvalue()
