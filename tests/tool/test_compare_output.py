"""``dojo compare`` as a person reads it: lines that fit the terminal, JSON on standard output with
``--json -``, a diff that a give-up unlocks, and a PNG with a legend (issue: rough edges)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from dojo.screens.figure import BAR_HEIGHT, BAR_WIDTH, CELL, MARGIN, layout, render_png
from dojo.screens.heatmap import Map
from tests.tool.harness import REPO
from tests.tool.test_compare import LEAKING_CAUSAL, dark_grey, pixel, read_png, section

RIGHT = REPO / "tests" / "katas"  # then KATA / "right" / FILE


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
    sandbox.write_kata("softmax", RIGHT / "softmax" / "right" / "logsumexp.py")
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
    from dojo.screens.figure import BAD, DOT, ZERO

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


# -- the PNG in Chinese (dojo.screens.figure.drawn_language) -------------------------------------------


def chinese_font() -> str:
    """The CJK font the figure draws Chinese with, or a visible skip on a machine without one."""
    from dojo.screens.figure import cjk_font

    name = cjk_font()
    if name is None:
        pytest.skip("no font with Chinese glyphs for matplotlib (e.g. fonts-noto-cjk): "
                    "the Chinese PNG is not drawn here")
    return name


def zh_words() -> dict[str, str]:
    """The figure's words as dojo/text/locale/zh/compare.toml writes them (compare.png.*)."""
    import tomllib

    table = tomllib.loads((REPO / "dojo" / "text" / "locale" / "zh" / "compare.toml").read_text(encoding="utf-8"))
    return {key.removeprefix("compare.png."): value for key, value in table.items() if key.startswith("compare.png.")}


def drawn_in_chinese(modules, monkeypatch) -> None:
    """Each battery's figure in Chinese: its heading (the tool's language, wrapped by cells), the
    pairs' Chinese titles, the labels, the colour bar's label and the key are its text artists,
    inside the picture, and drawing it warns of no missing glyph (a tofu box)."""
    import warnings

    from dojo.text import locale
    from dojo.catalogue import registry
    from dojo.catalogue.batteries import BATTERIES, panel_title
    from dojo.commands.compare.maps import HEADING_CHARS, png_heading
    from dojo.screens.figure import drawn_language, figure
    from dojo.text.screen import cell_len

    chinese_font()
    monkeypatch.setattr(locale, "LANGUAGE", "zh")
    assert drawn_language() == "zh"
    said = zh_words()
    for module in modules:
        battery = BATTERIES[module]
        titles = [panel.title for panel in battery.panels(battery.map_inputs())]
        maps = [Map(title, np.eye(3), np.eye(3), np.zeros((3, 3), bool), label=panel_title(battery, title))
                for title in titles] + [Map("nothing", np.eye(2), None, None, label="没有返回")]
        heading = png_heading(registry.get(module), battery)
        assert heading[0].startswith(f"{module} —— {locale.kata_title(registry.get(module), 'zh')}"[:30]), heading
        assert all(cell_len(line) <= HEADING_CHARS for line in heading), heading
        fig = figure(maps, heading, "zh")
        with warnings.catch_warnings():
            warnings.filterwarnings("error", message=".*[Gg]lyph.*missing")
            fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        texts = [t for t in fig.texts if t.get_text()]
        drawn = [t.get_text() for t in texts]
        chinese = [panel_title(battery, title) for title in titles]
        labels = [said["reference"], said["yours"], said["yours-none"], said["bar"]]
        for line in heading + chinese + ["没有返回"] + labels:
            assert line in drawn, (module, line)
        english = {title for title, zh in zip(titles, chinese) if title != zh}  # "softmax(x, axis=-1)" is both
        assert not english & set(drawn), (module, "an English title is drawn")
        legend = [t.get_text() for t in fig.legends[0].get_texts()]
        assert legend == [said[f"key.{mark}"] for mark in ("zero", "blocked", "differs", "bad")]
        for t in texts + fig.legends[0].get_texts():
            box = t.get_window_extent(renderer)
            assert box.x0 >= 0 and box.x1 <= fig.bbox.width - MARGIN / 2, (module, t.get_text(), box.x1)


def test_a_chinese_figure_draws_its_words_in_chinese_with_every_glyph(monkeypatch):
    drawn_in_chinese(["flash_attention", "multihead_attention", "paged_attention"], monkeypatch)


@pytest.mark.contributors  # every battery drawn: the contributors' suite
def test_every_battery_draws_its_chinese_figure_with_every_glyph(monkeypatch):
    from dojo.catalogue.batteries import BATTERIES

    drawn_in_chinese(sorted(BATTERIES), monkeypatch)


def test_compare_png_in_chinese_draws_chinese_when_a_font_is_found(sandbox, tmp_path):
    """Through the command: the PNG's Title and Description are Chinese, and nothing is said about fonts."""
    from dojo.text import locale
    from dojo.catalogue import registry
    from dojo.catalogue.batteries import BATTERIES
    from dojo.commands.compare.maps import heading_parts
    from tests.tool.test_compare import png_text

    chinese_font()
    sandbox.write_kata("causal_self_attention", REPO / "solutions" / "causal_self_attention.py")
    png = tmp_path / "maps.png"
    r = sandbox.run("compare", "causal_self_attention", "--no-speed", "--png", str(png), env={"DOJO_LANG": "zh"})
    assert r.code == 0, r.out + r.err
    assert zh_words()["no-font"] not in r.out and "热力图已写入" in r.out
    parts = heading_parts(registry.get("causal_self_attention"), BATTERIES["causal_self_attention"], "zh")
    assert png_text(png)["Title"] == " ".join(parts)
    assert parts[0] == f"causal_self_attention —— {locale.kata_title(registry.get('causal_self_attention'), 'zh')}"
    assert png_text(png)["Description"] == "注意力权重"


def test_without_a_chinese_font_the_png_stays_english_and_compare_says_so(sandbox, tmp_path):
    """The font lookup forced to find nothing (as on a machine without CJK fonts): the figure is
    the English one, pixel for pixel, and `dojo compare --png` in Chinese says why in one line."""
    from dojo.catalogue import registry
    from dojo.catalogue.batteries import BATTERIES
    from dojo.commands.compare.maps import png_heading
    from dojo.screens.figure import maps_from_json
    from tests.tool.test_compare import png_text

    hide = tmp_path / "hide"
    hide.mkdir()
    (hide / "sitecustomize.py").write_text("import dojo.screens.figure\ndojo.screens.figure.cjk_font = lambda: None  # no CJK font\n")
    sandbox.write_kata("causal_self_attention", LEAKING_CAUSAL)
    png, report = tmp_path / "maps.png", tmp_path / "report.json"
    r = sandbox.run("compare", "causal_self_attention", "--no-speed", "--png", str(png), "--json", str(report),
                    env={"DOJO_LANG": "zh", "PYTHONPATH": f"{hide}:{REPO}"})
    assert r.code == 1, r.out + r.err
    lines = r.out.splitlines()
    note = zh_words()["no-font"]
    assert note in lines and "fonts-noto-cjk" in note
    assert lines[lines.index(note) - 1].startswith("热力图已写入")  # right under the line that names the file
    heading = png_heading(registry.get("causal_self_attention"), BATTERIES["causal_self_attention"], lang="en")
    assert png_text(png)["Title"] == " ".join(heading) and png_text(png)["Description"] == "weights"
    data = json.loads(report.read_text())
    english = tmp_path / "english.png"
    english.write_bytes(render_png(maps_from_json(data["maps"]), heading))
    assert read_png(png)[2].tobytes() == read_png(english)[2].tobytes()
    r = sandbox.run("compare", "causal_self_attention", "--no-speed", "--png", str(png),
                    env={"DOJO_LANG": "en", "PYTHONPATH": f"{hide}:{REPO}"})
    assert r.code == 1 and "English" not in r.out and note not in r.out  # English needs no font of its own
