"""``dojo compare`` as a person reads it: lines that fit the terminal, JSON on standard output with
``--json -``, a diff that a give-up unlocks, and a PNG with a legend (issue: rough edges)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from dojo.figure import BAR_HEIGHT, BAR_WIDTH, CELL, MARGIN, layout, render_png
from dojo.heatmap import Map
from tests.tool.harness import REPO
from tests.tool.test_compare import LEAKING_CAUSAL, dark_grey, pixel, read_png, section

RIGHT = REPO / "tests" / "meta" / "right"


@pytest.mark.parametrize("columns", [60, 80, 132])
def test_every_line_fits_the_terminal_width(sandbox, columns):
    sandbox.write_kata("causal_self_attention", LEAKING_CAUSAL)
    r = sandbox.run("compare", "causal_self_attention", "--no-speed", env={"COLUMNS": str(columns)})
    assert r.code == 1, r.err
    too_wide = [ln for ln in r.out.splitlines() if len(ln) > columns]
    assert not too_wide, "\n".join(too_wide)
    # wrapped, not cut: every word of a long row is still there
    flat = " ".join(r.out.split())
    assert "first at (0, 0): yours 0.2124053422, reference 1" in flat
    assert "✗ Yours disagrees with the reference on 18 of 32 cases" in flat
    # a pipe without $COLUMNS gets one line a row, for grep
    piped = sandbox.run("compare", "causal_self_attention", "--no-speed", env={"COLUMNS": None})
    assert any(len(ln) > 132 for ln in piped.out.splitlines())


def test_json_dash_writes_the_json_to_stdout_and_the_report_to_stderr(sandbox, wrong):
    sandbox.write_kata("softmax", wrong("softmax", "global_max_shift"))
    r = sandbox.run("compare", "softmax", "--no-speed", "--json", "-")
    assert r.code == 1
    data = json.loads(r.out)  # nothing but the JSON on stdout
    assert data["kata"] == "softmax" and data["agree"] is False
    assert "1. Agreement" in r.err and "Wrote the comparison" not in r.err
    assert not (sandbox.root / "-").exists()


def test_giving_up_with_dojo_solution_unlocks_the_diff(sandbox):
    sandbox.write_kata("softmax", RIGHT / "softmax" / "logsumexp.py")
    assert "Locked until" in section(sandbox.run("compare", "softmax", "--no-speed").out, 4)
    assert sandbox.run("solution", "softmax", "--give-up").code == 0
    code = section(sandbox.run("compare", "softmax", "--no-speed").out, 4)
    assert "Locked" not in code
    assert "--- solutions/softmax.py (reference)" in code and "@@" in code


def test_the_png_is_readable_cells_indices_a_colour_bar_and_blocked_cells_marked(tmp_path):
    ref = np.tril(np.full((6, 6), 1 / 6))
    yours = np.full((6, 6), 1 / 6)
    blocked = ~np.tril(np.ones((6, 6), bool))
    maps = [Map("weights", ref, yours, ref != yours, blocked)]
    path = tmp_path / "maps.png"
    path.write_bytes(render_png(maps))
    width, height, image = read_png(path)
    (placed,), w, h, legend_y = layout(maps)
    assert (width, height) == (w, h) and CELL >= 24
    (left, top), (right, _) = placed.reference, placed.yours
    # row and column numbers: ink above the first column and left of the first row, none in the
    # same strips beyond the last row and column (there is no index 6)
    ink = lambda xs, ys: any(pixel(image, x, y) != (255, 255, 255) for x in xs for y in ys)  # noqa: E731
    assert ink(range(left, left + CELL), range(top - 20, top - 2))
    assert ink(range(left - 20, left - 2), range(top, top + CELL))
    assert not ink(range(left + 6 * CELL + 2, left + 7 * CELL), range(top - 20, top - 2))
    assert not ink(range(left - 20, left - 2), range(top + 6 * CELL + 2, top + 6 * CELL + 20))
    # blocked cells are hatched in both panels: a leak (yours, dark) with light lines, an exact
    # 0 (the reference, light grey) with dark ones
    leak = {pixel(image, right + 5 * CELL + d, top + d) for d in range(4, CELL - 4)}
    assert any(min(c) > 190 for c in leak), leak
    zero = {pixel(image, left + 5 * CELL + d, top + d) for d in range(2, CELL - 2)}
    assert any(dark_grey(c) for c in zero), zero
    # the colour bar runs from viridis's 0 to its 1, under the maps
    from matplotlib import colormaps

    def near(rgb, value) -> bool:
        want = [round(255 * c) for c in colormaps["viridis"](value)[:3]]
        return all(abs(a - b) <= 8 for a, b in zip(rgb, want))

    bar_y = legend_y + 18 + BAR_HEIGHT // 2
    assert near(pixel(image, MARGIN + 2, bar_y), 0.0), pixel(image, MARGIN + 2, bar_y)
    assert near(pixel(image, MARGIN + BAR_WIDTH - 3, bar_y), 1.0), pixel(image, MARGIN + BAR_WIDTH - 3, bar_y)
    assert near(pixel(image, MARGIN + BAR_WIDTH // 2, bar_y), 0.5), pixel(image, MARGIN + BAR_WIDTH // 2, bar_y)
    assert top + 6 * CELL < legend_y < height


def test_the_png_marks_nan_and_exact_zeros(tmp_path):
    """NaN and inf are magenta, an exact 0 is light grey with a grey dot in the middle, a small
    weight that is not 0 is coloured (the darkest viridis), with no dot."""
    from dojo.figure import BAD, DOT, ZERO

    yours = np.array([[np.nan, np.inf, 0.0, 1e-9], [0.25, 0.25, 0.25, 0.25]])
    maps = [Map("weights", np.full((2, 4), 0.25), yours, np.array([[1, 1, 1, 1], [0, 0, 0, 0]], bool))]
    path = tmp_path / "maps.png"
    path.write_bytes(render_png(maps))
    _, _, image = read_png(path)
    (placed,), _, _, _ = layout(maps)
    x, y = placed.yours
    centre = lambda j: pixel(image, x + j * CELL + CELL // 2, y + CELL // 2)  # noqa: E731
    off_centre = lambda j: pixel(image, x + j * CELL + 6, y + 6)  # noqa: E731
    assert centre(0) == BAD and centre(1) == BAD
    assert off_centre(2) == ZERO and max(abs(a - b) for a, b in zip(centre(2), DOT)) <= 20, centre(2)
    assert off_centre(3) == centre(3) and centre(3) not in (ZERO, BAD)


def test_the_png_ignores_a_matplotlib_style(tmp_path):
    """A user's matplotlibrc or a notebook's style (another colour map, font size, dpi, a tight
    bounding box, a dark background) does not change the figure: the same pixels either way."""
    import matplotlib

    ref = np.tril(np.full((4, 4), 0.25))
    maps = [Map("weights", ref, np.full((4, 4), 0.25), ref != 0.25, ref == 0)]
    plain = render_png(maps, ["a heading"])
    style = {"image.cmap": "magma", "font.size": 30, "savefig.dpi": 50, "figure.dpi": 200,
             "savefig.bbox": "tight", "figure.facecolor": "black", "savefig.facecolor": "black",
             "text.color": "red", "hatch.linewidth": 4.0, "lines.linewidth": 9.0}
    with matplotlib.rc_context(style):
        styled = render_png(maps, ["a heading"])
    (tmp_path / "plain.png").write_bytes(plain)
    (tmp_path / "styled.png").write_bytes(styled)
    assert read_png(tmp_path / "styled.png")[2].tobytes() == read_png(tmp_path / "plain.png")[2].tobytes()
    assert matplotlib.rcParams["image.cmap"] != "magma"  # and the style is left as it was
