"""``dojo compare``, driven through the real entry point (``python -m dojo``) in a sandbox.

Each test puts a known implementation in the sandbox's katas/ (or passes it with --file) and reads
what a person would read: the agreement rows, the maps, the speed verdict, the code section, the
exit code, and the JSON and PNG files. Most runs pass --no-speed: only the speed test pays for
importing torch.
"""

from __future__ import annotations

import functools
import io
import json
import re
from pathlib import Path

import numpy as np
import pytest

from dojo.text import messages
from dojo.catalogue import registry
from dojo.catalogue.batteries import BATTERIES
from dojo.commands.compare import pick
from dojo.commands.compare.maps import png_heading
from dojo.catalogue.env import Env
from dojo.screens.figure import CELL, MARGIN, ZERO, layout, png_size, render_png
from dojo.screens.heatmap import Map, terminal_lines
from dojo.worker.loader import load_kata
from dojo.state.state import Store
from tests.tool.harness import REPO

RIGHT = REPO / "tests" / "katas"  # then KATA / "right" / FILE

LEAKING_CAUSAL = '''"""Forgets the causal mask: every position also attends to the future."""
import numpy as np


def causal_self_attention(x, w_q, w_k, w_v):
    x, w_q, w_k, w_v = (np.asarray(a, dtype=np.float64) for a in (x, w_q, w_k, w_v))
    for a in (x, w_q, w_k, w_v):
        if a.ndim != 2 or 0 in a.shape or not np.isfinite(a).all():
            raise ValueError("bad input")
    if not w_q.shape[0] == w_k.shape[0] == w_v.shape[0] == x.shape[1] or w_q.shape[1] != w_k.shape[1]:
        raise ValueError("shapes")
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    s = q @ k.T / np.sqrt(q.shape[1])
    if not np.isfinite(s).all():
        raise ValueError("overflow")
    w = np.exp(s - s.max(axis=1, keepdims=True))
    w /= w.sum(axis=1, keepdims=True)
    return w @ v, w
'''

QUERY_AXIS_SOFTMAX = '''"""Masks correctly, then normalises over the queries (axis 0) instead of the keys."""
import numpy as np


def scaled_dot_product_attention(q, k, v, mask=None):
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    s = q @ k.T / np.sqrt(q.shape[1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    w = np.exp(s - s.max(axis=0, keepdims=True))
    w /= w.sum(axis=0, keepdims=True)
    return w @ v, w
'''

SLOW_SOFTMAX = '''"""Right answers, but every call on a sizeable input burns 0.03 s of CPU."""
import time

import numpy as np


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=np.float64)
    if x.ndim == 0 or not -x.ndim <= axis < x.ndim or x.shape[axis] == 0:
        raise ValueError("bad shape or axis")
    if np.isnan(x).any() or np.isposinf(x).any():
        raise ValueError("NaN or +inf")
    peak = x.max(axis=axis, keepdims=True)
    if np.isneginf(peak).any():
        raise ValueError("a slice is all -inf")
    if x.size >= 64 * 64:
        start = time.process_time()
        while time.process_time() - start < 0.03:
            pass
    e = np.exp(x - peak)
    return e / e.sum(axis=axis, keepdims=True)
'''

MISBEHAVING_SOFTMAX = '''"""Exits on 3-D input, segfaults on 4-D, raises SystemExit on a scalar, prints all the time."""
import ctypes
import os
import sys

import numpy as np


def softmax(x, axis=-1):
    print("debugging output that must not reach the terminal")
    print("more of it", file=sys.stderr)
    if np.ndim(x) == 3:
        os._exit(7)
    if np.ndim(x) == 4:
        ctypes.string_at(0)
    if np.ndim(x) == 0:
        sys.exit(1)
    x = np.asarray(x, dtype=np.float64)
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)
'''


def wrong_file(kata: str, name: str) -> Path:
    return REPO / "tests" / "katas" / kata / "wrong" / f"{name}.py"


def result_rows(out: str) -> list[tuple[str, str, str]]:
    """(mark, case, result) of every row of the agreement table."""
    rows = []
    for line in out.splitlines():
        m = re.match(r"^([✓✗])  (.+?)  +(edge|random|error|—) +(.*)$", line)
        if m:
            rows.append((m.group(1), m.group(2).strip(), m.group(4)))
    return rows


def row(out: str, case: str) -> tuple[str, str]:
    for mark, name, result in result_rows(out):
        if name == case:
            return mark, result
    raise AssertionError(f"no row for {case!r} in:\n{out}")


def section(out: str, number: int) -> str:
    """The text of section ``number`` (1 agreement … 4 code)."""
    start = out.index(f"\n{number}. ")
    nxt = out.find(f"\n{number + 1}. ", start)
    return out[start: nxt if nxt != -1 else len(out)]


def map_panels(out: str, title: str = "weights") -> tuple[list[str], list[str]]:
    """The reference and yours rows (cell text only) of the map titled ``title``."""
    lines = section(out, 2).splitlines()
    i = lines.index(title)
    ref, yours = [], []
    for line in lines[i + 3:]:
        m = re.match(r"^\s+(\d+) (.*?)\s{3,}(\d+) (.*)$", line)
        if not m:
            break
        ref.append(m.group(2))
        yours.append(m.group(4))
    return ref, yours


def cells(panel_row: str) -> list[str]:
    padded = panel_row.ljust(12)
    return [padded[j:j + 2] for j in range(0, len(padded), 2)]


def read_png(path: Path):
    """The PNG at ``path`` decoded (Pillow, matplotlib's own dependency): its width, height and
    RGB image. Decoding every pixel fails on a truncated or corrupt file."""
    from PIL import Image

    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    return image.width, image.height, image.convert("RGB")


def png_text(path: Path) -> dict:
    """The PNG's text chunks (tEXt/iTXt): Title, Description, Software."""
    from PIL import Image

    with Image.open(path) as image:
        return dict(image.text)


def pixel(image, x, y) -> tuple[int, int, int]:
    return image.getpixel((x, y))


def reddish(rgb) -> bool:
    """The outline's red (230, 20, 20), give or take antialiasing: no viridis colour, grey or the
    magenta of NaN comes near it."""
    r, g, b = rgb
    return r > 190 and g < 70 and b < 70


def dark_grey(rgb) -> bool:
    """A hatch line over a light cell (90, 90, 90), give or take antialiasing."""
    return max(rgb) - min(rgb) <= 4 and max(rgb) < 120


# -- agreement ------------------------------------------------------------------------------


def test_a_correct_but_different_answer_agrees_everywhere(sandbox):
    sandbox.write_kata("softmax", RIGHT / "softmax" / "right" / "logsumexp.py")
    r = sandbox.run("compare", "softmax", "--no-speed")
    assert r.code == 0, r.out + r.err
    cases = len(BATTERIES["softmax"].cases)
    assert f"Yours agrees with the reference on all {cases} cases" in r.out
    rows = result_rows(r.out)
    assert len(rows) == cases and all(mark == "✓" for mark, _, _ in rows)
    assert row(r.out, "NaN in x") == ("✓", "both raise ValueError")
    assert "max |Δ|" in row(r.out, "mixed scales: rows 1e4 apart")[1]
    assert "the maps agree cell for cell" in section(r.out, 2)
    assert "\033[" not in r.out  # NO_COLOR: plain text


def test_wrong_values_are_rows_that_disagree_and_come_first(sandbox, wrong):
    sandbox.write_kata("softmax", wrong("softmax", "global_max_shift"))
    r = sandbox.run("compare", "softmax", "--no-speed")
    assert r.code == 1, r.out + r.err
    rows = result_rows(r.out)
    marks = [mark for mark, _, _ in rows]
    assert marks[0] == "✗" and "✓" in marks
    assert marks == sorted(marks, key=lambda m: m == "✓"), "rows that disagree must come first"
    mark, result = row(r.out, "mixed scales: rows 1e4 apart")
    assert mark == "✗" and "NaN/inf where the reference has numbers" in result
    assert row(r.out, "1-D logits")[0] == "✓"
    assert "Yours disagrees with the reference on" in r.out
    # the map shows the lost rows as NaN cells
    ref, yours = map_panels(r.out, "softmax(x, axis=-1)")
    assert "!!" in yours[0] and "!!" not in "".join(ref)


def test_a_missing_error_is_a_row(sandbox, wrong):
    sandbox.write_kata("softmax", wrong("softmax", "lets_nan_through"))
    r = sandbox.run("compare", "softmax", "--no-speed")
    assert r.code == 1
    mark, result = row(r.out, "NaN in x")
    assert mark == "✗"
    assert result.startswith("reference raises ValueError (") and "yours returned array (2, 3) float64" in result
    assert row(r.out, "+inf in x")[0] == "✗"
    assert row(r.out, "a slice entirely -inf")[0] == "✓"


def test_an_extra_error_is_a_row(sandbox, wrong):
    sandbox.write_kata("softmax", wrong("softmax", "rejects_minus_inf"))
    r = sandbox.run("compare", "softmax", "--no-speed")
    assert r.code == 1
    mark, result = row(r.out, "-inf logits (masked)")
    assert mark == "✗"
    assert result.startswith("yours raised ValueError: x must be finite")
    assert "the reference returned an array of shape (2, 3)" in result


def test_the_wrong_exception_type_names_type_and_line(sandbox, wrong):
    sandbox.write_kata("softmax", wrong("softmax", "index_error_for_bad_axis"))
    r = sandbox.run("compare", "softmax", "--no-speed")
    assert r.code == 1
    mark, result = row(r.out, "axis=2 out of range for 2-D")
    assert mark == "✗"
    assert "yours raised IndexError: tuple index out of range (line 9 of softmax.py)" in result


def test_a_wrong_dtype_and_a_modified_input_disagree(sandbox, wrong):
    r = sandbox.run("compare", "softmax", "--no-speed", "--file", str(wrong("softmax", "keeps_input_dtype")))
    assert r.code == 1
    mark, result = row(r.out, "float32 input (computed in float64)")
    assert mark == "✗" and result.startswith("dtype float32, not float64")
    r = sandbox.run("compare", "softmax", "--no-speed", "--file", str(wrong("softmax", "modifies_input")))
    assert r.code == 1
    assert "yours modified its input `x` in place" in row(r.out, "2-D, axis=-1")[1]


def test_an_interview_attempt_folder_stands_for_its_graded_copy(sandbox, wrong, tmp_path):
    """The interview report gives `dojo compare KATA --file FOLDER/` (its graded copy's whole path,
    up to 90 columns, did not fit 80): the folder's final/KATA.py is compared, not the attempt file."""
    folder = tmp_path / "20270115-080000-softmax"
    (folder / "final").mkdir(parents=True)
    (folder / "softmax.py").write_text("def softmax(x, axis=-1):\n    raise NotImplementedError\n")
    (folder / "final" / "softmax.py").write_text(wrong("softmax", "keeps_input_dtype").read_text())
    r = sandbox.run("compare", "softmax", "--no-speed", "--file", f"{folder}/")
    assert r.code == 1, r.out + r.err
    mark, result = row(r.out, "float32 input (computed in float64)")
    assert mark == "✗" and result.startswith("dtype float32, not float64")
    assert sandbox.run("compare", "softmax", "--no-speed", "--file", str(tmp_path)).code == 2  # no copy there


# -- bad files: rows, never crashes ---------------------------------------------------------


def test_a_file_that_cannot_import_is_one_clear_row(sandbox):
    sandbox.write_kata("softmax", "import numpy as np\n\ndef softmax(x, axis=-1)\n    return x\n")
    r = sandbox.run("compare", "softmax", "--no-speed")
    assert r.code == 1, r.out + r.err
    rows = result_rows(r.out)
    assert len(rows) == 1 and rows[0][1] == "(every case)"
    assert "cannot be imported: softmax.py has a syntax error at line 3" in rows[0][2]
    assert "Traceback" not in r.out + r.err
    assert "yours: nothing to draw" in section(r.out, 2)
    assert "skipped: katas/softmax.py cannot be imported" in section(r.out, 3)


def test_the_untouched_stub_is_not_started(sandbox):
    r = sandbox.run("compare", "softmax", "--no-speed")
    assert r.code == 1
    assert "Not started: softmax() still raises NotImplementedError" in r.out


def test_a_hang_is_bounded_by_the_timeout(sandbox, wrong):
    sandbox.write_kata("softmax", wrong("softmax", "hangs_on_long_slices"))
    r = sandbox.run("compare", "softmax", "--timeout", "0.5", timeout=120)
    assert r.code == 1, r.out + r.err
    assert "yours did not return within 0.5 s" in row(r.out, "2-D, axis=-1")[1]
    assert any(result.startswith("not run: yours already timed out") for _, _, result in result_rows(r.out))
    assert row(r.out, "1-D logits")[0] == "✓"  # short slices still run
    assert "skipped: yours disagrees" in section(r.out, 3)
    assert "Yours has no map to draw: yours timed out on 2 cases" in section(r.out, 2)


UNPICKLING_SOFTMAX = '''import numpy as np


class Sneaky:
    """Unpickling this object would create the file MARKER."""

    def __reduce__(self):
        return (open, ("MARKER", "w"))


def softmax(x, axis=-1):
    return Sneaky()
'''


def test_what_your_code_returns_is_never_unpickled(sandbox, tmp_path):
    """dojo compare reads only envelopes from the worker: an object whose unpickling would run
    code arrives as a stand-in naming its type, and nothing runs."""
    marker = tmp_path / "unpickled"
    sandbox.write_kata("softmax", UNPICKLING_SOFTMAX.replace("MARKER", str(marker)))
    r = sandbox.run("compare", "softmax", "--no-speed")
    assert r.code == 1, r.out + r.err
    assert "yours returned Sneaky <" in row(r.out, "1-D logits")[1]
    assert not marker.exists()


def test_exits_crashes_and_prints_become_rows(sandbox):
    sandbox.write_kata("softmax", MISBEHAVING_SOFTMAX)
    r = sandbox.run("compare", "softmax", "--no-speed")
    assert r.code == 1, r.out + r.err
    assert "yours ended the process running it: it exited with status 7" in row(r.out, "3-D, axis=1")[1]
    assert "yours raised SystemExit: 1" in row(r.out, "0-d input (a scalar)")[1]
    segfault = row(r.out, "random 2: shape (4, 5, 1, 4), axis=-3, some -inf")[1]
    assert "yours ended the process running it: it was ended by SIGSEGV" in segfault
    assert row(r.out, "2-D, axis=0")[0] == "✓"  # the next case gets a fresh worker
    assert "debugging output" not in r.out + r.err


# -- attention maps -------------------------------------------------------------------------


@pytest.mark.smoke
def test_a_future_leak_is_visible_in_the_map_and_the_png(sandbox, tmp_path):
    sandbox.write_kata("causal_self_attention", LEAKING_CAUSAL)
    png, report = tmp_path / "maps.png", tmp_path / "report.json"
    r = sandbox.run("compare", "causal_self_attention", "--no-speed", "--png", str(png), "--json", str(report))
    assert r.code == 1, r.out + r.err
    ref, yours = map_panels(r.out)
    assert len(ref) == len(yours) == 6
    for i in range(6):
        ref_cells, your_cells = cells(ref[i]), cells(yours[i])
        for j in range(i + 1, 6):
            assert ref_cells[j] == "· ", f"reference ({i}, {j}) should be exactly 0"
            assert your_cells[j][0] != "·" and your_cells[j][1] == "×", f"the leak at ({i}, {j}) must show"
    assert "yours puts weight on 15 cells that must be exactly 0" in r.out
    assert "a future leak" in r.out

    width, height, image = read_png(png)
    ref = np.tril(np.ones((6, 6)))
    heading = png_heading(registry.get("causal_self_attention"), BATTERIES["causal_self_attention"])
    (placed,), w, h, _ = layout([Map("weights", ref, ref, None)], heading)
    assert (width, height) == (w, h)
    (left, top), (right, _) = placed.reference, placed.yours
    # cell (0, 5) of yours leaks: outlined in red on all four sides; the same cell of the reference is not
    for x, y in ((5 * CELL + CELL // 2, 0), (5 * CELL + CELL // 2, CELL), (5 * CELL, CELL // 2), (6 * CELL, CELL // 2)):
        assert reddish(pixel(image, right + x, top + y)), (x, y, pixel(image, right + x, top + y))
        assert not reddish(pixel(image, left + x, top + y)), (x, y)
    # the last row has no future to leak: it agrees, no outline between its cells (5, 1) and (5, 2)
    assert not reddish(pixel(image, right + 2 * CELL, top + 5 * CELL + CELL // 2))
    assert not reddish(pixel(image, right + 2 * CELL + CELL // 2, top + 5 * CELL + CELL // 2))
    # the reference's blocked cell (0, 5) is hatched: exactly 0 (light grey) with dark lines across
    cell = {pixel(image, left + 5 * CELL + d, top + d) for d in range(2, CELL - 2)}
    assert ZERO in cell and any(dark_grey(c) for c in cell), cell
    # an allowed cell of the reference, (3, 1), is one colour, neither grey nor hatched
    allowed = {pixel(image, left + CELL + d, top + 3 * CELL + d) for d in range(2, CELL - 2)}
    assert len(allowed) == 1 and ZERO not in allowed, allowed
    the_json_draws_the_same_png_again(png, json.loads(report.read_text()), tmp_path)


def the_json_draws_the_same_png_again(png: Path, data: dict, tmp_path: Path) -> None:
    """A notebook can draw the figure from ``--json`` alone: the maps (NaN as null, blocked cells)
    and the heading it holds make the very pixels ``--png`` wrote."""
    from dojo.screens.figure import maps_from_json

    assert data["map_heading"] == png_heading(registry.get("causal_self_attention"), BATTERIES["causal_self_attention"])
    (m,) = data["maps"]
    assert m["blocked"][0][5] is True and m["blocked"][5][0] is False
    again = tmp_path / "again.png"
    again.write_bytes(render_png(maps_from_json(data["maps"]), data["map_heading"]))
    assert read_png(again)[2].tobytes() == read_png(png)[2].tobytes()
    nan = [dict(m, yours=[[None] * 6] + m["yours"][1:])]  # NaN in the JSON is null: drawn magenta
    again.write_bytes(render_png(maps_from_json(nan), data["map_heading"]))
    (placed,), _, _, _ = layout(maps_from_json(nan), data["map_heading"])
    x, y = placed.yours
    assert pixel(read_png(again)[2], x + CELL // 2 + 4, y + CELL // 2 + 4) == (255, 0, 255)
    with pytest.raises(ValueError, match="'weights': yours is not a matrix of numbers"):
        maps_from_json([dict(m, yours=[[1.0, "x"]])])


def test_a_softmax_over_the_wrong_axis_is_called_out(sandbox):
    sandbox.write_kata("masked_attention", QUERY_AXIS_SOFTMAX)
    r = sandbox.run("compare", "masked_attention", "--no-speed")
    assert r.code == 1
    assert "your columns sum to 1, not your rows: the softmax runs over the wrong axis" in section(r.out, 2)
    _, yours = map_panels(r.out)
    assert "×" in yours[0]


def test_multihead_draws_one_pair_per_head(sandbox):
    sandbox.write_kata("multihead_attention", REPO / "solutions" / "multihead_attention.py")
    r = sandbox.run("compare", "multihead_attention", "--no-speed")
    assert r.code == 0, r.out + r.err
    for h in range(2):
        ref, yours = map_panels(r.out, f"head {h} weights")
        assert ref == yours and len(ref) == 6


def test_colour_maps_use_256_colour_cells():
    ref = np.tril(np.full((3, 3), 0.5))
    yours = np.full((3, 3), 0.5)
    differ = ref != yours
    lines = terminal_lines([Map("weights", ref, yours, differ)], colour=True)
    text = "\n".join(lines)
    assert "\033[48;5;" in text and "×" in text
    plain = "\n".join(terminal_lines([Map("weights", ref, yours, differ)], colour=False))
    assert "\033[" not in plain and "▒×" in plain and "· " in plain


def test_png_size_matches_what_is_drawn(tmp_path):
    maps = [Map("a", np.eye(4), np.eye(4), np.zeros((4, 4), bool)), Map("b", np.eye(3), None, None)]
    path = tmp_path / "maps.png"
    path.write_bytes(render_png(maps))
    width, height, image = read_png(path)
    assert (width, height) == png_size(maps)
    # nothing came back for "b": its right panel is grey with a red cross through the middle
    (_, placed), _, _, _ = layout(maps)
    x, y = placed.yours
    assert any(reddish(pixel(image, x + 3 * CELL // 2 + dx, y + 3 * CELL // 2 + dy))
               for dx in range(-2, 3) for dy in range(-2, 3))
    assert pixel(image, x + CELL // 2, y + 3 * CELL // 2) == ZERO  # off the cross: grey
    heading = ["a heading line", "and its second line"]
    path.write_bytes(render_png(maps, heading))
    width, height, _ = read_png(path)
    assert (width, height) == png_size(maps, heading) and height > png_size(maps)[1]
    wide = [Map("wide", np.full((2, 30), 0.5), np.full((2, 30), 0.5), np.zeros((2, 30), bool))]
    assert png_size(wide)[0] >= MARGIN + 60 * CELL  # the figure grows with the maps


def test_bad_maps_get_a_clear_error():
    with pytest.raises(ValueError, match="no maps to draw"):
        render_png([])
    with pytest.raises(ValueError, match="'weights': yours must be a 2-D matrix, not 3-D"):
        render_png([Map("weights", np.eye(2), np.ones((2, 2, 2)), None)])


def test_the_png_heading_names_the_kata_and_the_case_of_every_battery():
    heading = png_heading(registry.get("masked_attention"), BATTERIES["masked_attention"])
    joined = " ".join(heading)
    assert heading[0] == "masked_attention — Masked scaled dot-product attention"
    assert "6 queries × 7 keys, causal mask, key 6 is padding" in joined
    for module, battery in BATTERIES.items():
        kata = registry.get(module)
        heading = png_heading(kata, battery)
        assert " ".join(heading) == f"{module} — {kata.title} {battery.map_what}", module
        assert all(len(line) <= 72 for line in heading), heading


def test_each_map_says_what_its_rows_and_columns_are_and_the_colour_bar_names_no_axis():
    """The colour bar's label is the same under every kata's maps, so it cannot say "rows: queries,
    columns: keys" (softmax's rows are x's, sampling's columns are tokens): each battery's
    ``map_what``, the PNG's heading, says it, in English and Chinese."""
    from dojo.catalogue.batteries import BATTERIES, battery_text
    from dojo.screens.figure import words

    for module, battery in BATTERIES.items():
        assert "row" in battery.map_what and "column" in battery.map_what, module
        zh = battery_text(battery, "map_what", "zh")
        assert "行" in zh and "列" in zh, (module, zh)
    for lang in ("en", "zh"):
        bar = words(lang)["bar"]
        assert not any(axis in bar for axis in ("quer", "key", "query")), (lang, bar)


def test_the_png_is_drawn_with_its_heading(sandbox, tmp_path):
    """The file names the kata and the case: in its metadata, and drawn as text in a band at the
    top where there is ink (and above which there is none)."""
    from dojo.screens.figure import HEADING_LINE

    png = tmp_path / "maps.png"
    sandbox.write_kata("masked_attention", REPO / "solutions" / "masked_attention.py")
    r = sandbox.run("compare", "masked_attention", "--no-speed", "--png", str(png))
    assert r.code == 0, r.out + r.err
    width, height, image = read_png(png)
    heading = png_heading(registry.get("masked_attention"), BATTERIES["masked_attention"])
    text = png_text(png)
    assert text["Title"] == " ".join(heading)
    assert text["Title"].startswith("masked_attention — Masked scaled dot-product attention")
    assert text["Description"] == "weights"
    inked = [y for y in range(height) if any(pixel(image, x, y) != (255, 255, 255) for x in range(width))]
    assert inked and MARGIN - 4 <= inked[0] <= MARGIN + 4  # the heading is the first thing drawn
    band = [y for y in inked if y < MARGIN + len(heading) * HEADING_LINE]
    assert len(band) > 10 * len(heading)  # text, line after line, not a stray pixel


@pytest.mark.contributors  # every battery drawn: the contributors' suite
def test_the_heading_and_the_key_are_drawn_as_text_that_fits():
    """Every battery's heading and panel titles, the labels and the key are text artists of the
    figure, inside it, in a font that has a glyph for each of their characters (no tofu boxes)."""
    from matplotlib.font_manager import FontProperties, findfont
    from matplotlib.ft2font import FT2Font

    from dojo.screens.figure import KEY, figure

    fonts = {weight: FT2Font(findfont(FontProperties(weight=weight))) for weight in ("normal", "bold")}
    charmaps = {weight: set(font.get_charmap()) for weight, font in fonts.items()}
    for module, battery in BATTERIES.items():
        inputs = battery.map_inputs()
        maps = [Map(panel.title, np.eye(3), np.eye(3), np.zeros((3, 3), bool)) for panel in battery.panels(inputs)]
        heading = png_heading(registry.get(module), battery)
        fig = figure(maps, heading)
        renderer = fig.canvas.get_renderer()
        texts = [t for t in fig.texts if t.get_text()]
        drawn = [t.get_text() for t in texts]
        for line in heading + [mp.title for mp in maps] + ["reference", "yours"]:
            assert line in drawn, (module, line)
        assert [t.get_text() for t in fig.legends[0].get_texts()] == [label for _, label in KEY]
        for t in texts:
            box = t.get_window_extent(renderer)
            assert box.x0 >= 0 and box.x1 <= fig.bbox.width - MARGIN / 2, (module, t.get_text(), box.x1)
            weight = "bold" if t.get_fontweight() in ("bold", 700) else "normal"
            missing = {ch for ch in t.get_text() if ord(ch) not in charmaps[weight]}
            assert not missing, (module, t.get_text(), missing)


def test_without_matplotlib_png_is_refused_before_the_work(sandbox, tmp_path):
    hide = tmp_path / "hide"
    hide.mkdir()
    (hide / "sitecustomize.py").write_text("import sys\nsys.modules['matplotlib'] = None  # as if not installed\n")
    sandbox.write_kata("softmax", REPO / "solutions" / "softmax.py")
    r = sandbox.run("compare", "softmax", "--no-speed", "--png", str(tmp_path / "m.png"),
                    env={"PYTHONPATH": f"{hide}:{REPO}"})
    assert r.code == 2, r.out + r.err
    assert "--png needs matplotlib, which this Python does not have: run pip install -e ." in r.err
    assert "Traceback" not in r.err and "1. Agreement" not in r.out and not (tmp_path / "m.png").exists()
    r = sandbox.run("compare", "softmax", "--no-speed", env={"PYTHONPATH": f"{hide}:{REPO}"})
    assert r.code == 0, r.out + r.err  # without --png it is not needed


def test_dojo_list_does_not_import_matplotlib(sandbox):
    """Startup stays cheap: matplotlib loads only to draw a PNG (a compare without --png does not
    need it either: test_without_matplotlib_png_is_refused_before_the_work)."""
    r = sandbox.run("list", env={"PYTHONPROFILEIMPORTTIME": "1"})
    assert r.code == 0 and "import time:" in r.err and "| dojo.commands.cli" in r.err
    assert "matplotlib" not in r.err and "dojo.screens.figure" not in r.err


# -- speed ----------------------------------------------------------------------------------


@pytest.mark.contributors  # live or long: the contributors' suite
def test_a_slow_implementation_is_flagged(sandbox, tmp_path):
    sandbox.write_kata("softmax", SLOW_SOFTMAX)
    report = tmp_path / "compare.json"
    r = sandbox.run("compare", "softmax", "--sizes", "64,96,128,192", "--json", str(report), timeout=120)
    assert r.code == 0, r.out + r.err
    speed = section(r.out, 3)
    assert "Timed at n = 64, 96, 128, 192: the least CPU time of one call, over " in speed
    assert "Threads:" in speed
    for name in ("reference", "yours", "torch"):
        assert re.search(rf"^{name} +\S", speed, re.M), speed
    assert "time grows like" in speed
    assert re.search(r"Yours is [\d.]+× slower than the reference at n=192", speed), speed
    data = json.loads(report.read_text())
    rows = data["speed"]["rows"]
    assert rows["yours"]["ratio"] > 3
    assert rows["reference"]["peak_bytes"] > 64 * 64 * 8
    assert data["speed"]["threads"]["torch"] == data["speed"]["threads"]["numpy"]
    assert data["speed"]["clock"] == "cpu" and data["speed"]["sizes"] == [64, 96, 128, 192]
    for name in ("reference", "yours", "torch"):
        times = rows[name]["times"]
        assert sorted(int(n) for n in times) == [64, 96, 128, 192], (name, times)
        assert all(len(ts) >= 1 for ts in times.values())
    # yours costs 0.03 s of CPU a call at every size: the worker's CPU time, recorded as such
    assert all(0.03 <= min(ts) < 0.06 for ts in rows["yours"]["times"].values()), rows["yours"]["times"]
    claim = data["speed"]["claim"]
    assert claim["message"]["id"].startswith("compare.growth.")
    assert " ".join(messages.text(claim["message"]).split()) in " ".join(speed.split())


def test_speed_is_skipped_for_a_wrong_answer_without_importing_torch(sandbox, wrong):
    sandbox.write_kata("softmax", wrong("softmax", "no_keepdims"))
    r = sandbox.run("compare", "softmax")
    assert r.code == 1
    assert "skipped: yours disagrees with the reference on" in section(r.out, 3)
    assert "timing" not in section(r.out, 3)


# -- code: the reveal policy ----------------------------------------------------------------


def state(sandbox) -> dict:
    path = sandbox.state / "state.json"
    return json.loads(path.read_text())["katas"].get("softmax", {}) if path.exists() else {}


def test_the_diff_is_locked_until_the_kata_passes_or_is_revealed(sandbox):
    sandbox.write_kata("softmax", RIGHT / "softmax" / "right" / "logsumexp.py")
    r = sandbox.run("compare", "softmax", "--no-speed")
    code = section(r.out, 4)
    assert "Locked until katas/softmax.py passes `dojo test softmax`" in code
    assert "--reveal" in code and "@@" not in code and "+++" not in code
    assert not state(sandbox).get("revealed") and not state(sandbox).get("gave_up")

    r = sandbox.run("compare", "softmax", "--no-speed", "--reveal")
    code = section(r.out, 4)
    assert "--- solutions/softmax.py (reference)" in code and "+++ katas/softmax.py (yours)" in code
    assert "+    shifted = x - m" in code
    assert "recorded in your progress as a give-up" in code
    entry = state(sandbox)
    assert entry["revealed"] is True and entry["gave_up"] is True and entry["solved"] is False


def test_a_solved_kata_shows_the_diff_without_a_give_up(sandbox):
    sandbox.write_kata("softmax", RIGHT / "softmax" / "right" / "row_loop.py")
    store = Store(Env(root=sandbox.root, state_dir=sandbox.state))
    store.kata("softmax")["solved"] = True
    store.save()
    r = sandbox.run("compare", "softmax", "--no-speed")
    assert r.code == 0
    assert "+class SoftmaxInputError(ValueError):" in section(r.out, 4)
    entry = state(sandbox)
    assert entry["revealed"] is True and entry["gave_up"] is False


# -- JSON and exit codes --------------------------------------------------------------------


def _no_nan(name):
    raise AssertionError(f"the JSON holds {name}, which is not JSON")


def test_json_holds_the_whole_comparison(sandbox, wrong, tmp_path):
    sandbox.write_kata("softmax", wrong("softmax", "global_max_shift"))
    report = tmp_path / "out.json"
    r = sandbox.run("compare", "softmax", "--no-speed", "--json", str(report))
    assert r.code == 1
    data = json.loads(report.read_text(), parse_constant=_no_nan)
    assert data["kata"] == "softmax" and data["agree"] is False and data["diff_shown"] is False
    assert data["tolerance"] == {"rtol": 1e-9, "atol": 1e-12, "atol_scaled_by": "max(1, max |reference|)"}
    cases = {c["case"]: c for c in data["cases"]}
    assert len(cases) == len(BATTERIES["softmax"].cases)
    mixed = cases["mixed scales: rows 1e4 apart"]
    assert mixed["agree"] is False and mixed["diffs"]["softmax(x)"]["nan"] == 15
    assert mixed["yours"]["status"] == "returned" and mixed["reference"]["status"] == "returned"
    assert cases["NaN in x"]["yours"] == {
        "status": "raised", "type": "ValueError", "message": "NaN or +inf", "value_error": True,
        "line": 10,  # where in the candidate's file it was raised
    }
    (m,) = data["maps"]
    assert len(m["reference"]) == 6 and m["yours"][0][0] is None  # NaN is null
    assert any(any(row) for row in m["differ"])
    assert data["speed"]["skipped"].startswith("skipped: yours disagrees with the reference on")


def test_usage_errors_exit_2(sandbox, tmp_path):
    assert sandbox.run("compare", "softmaks").code == 2
    assert sandbox.run("compare", "softmax", "--file", "nowhere.py").code == 2
    assert sandbox.run("compare", "softmax", "--timeout", "0").code == 2
    r = sandbox.run("compare", "softmax", "--png", str(tmp_path / "no" / "such" / "dir.png"))
    assert r.code == 2 and "does not exist" in r.err


# -- the batteries themselves ---------------------------------------------------------------


@pytest.mark.parametrize("kata", [k.module for k in registry.KATAS])
def test_every_kata_has_a_battery_whose_error_cases_are_the_reference_errors(kata):
    battery = BATTERIES[kata]
    names = [c.name for c in battery.cases]
    assert len(names) == len(set(names)), "case names must be unique"
    assert {c.kind for c in battery.cases} == {"edge", "random", "error"}
    k = registry.get(kata)
    reference = load_kata(k.solution_path, k.function)
    for case in battery.cases:
        a, b = battery.inputs(case), battery.inputs(case)
        for key in a:  # deterministic
            x, y = np.asarray(a[key]), np.asarray(b[key])
            assert np.array_equal(x, y, equal_nan=x.dtype.kind == "f"), (case.name, key)
        try:
            reference(**a)
            raised = False
        except ValueError:
            raised = True
        assert raised == (case.kind == "error"), f"{kata}: {case.name}"
    panels = battery.panels(battery.map_inputs())
    result = reference(**battery.map_inputs())
    outputs = [result] if battery.single else list(result)
    for panel in panels:
        matrix = pick(outputs, panel)  # an output, or the matrix the panel derives from them
        assert matrix is not None and matrix.ndim == 2, panel.title
        assert panel.blocked is None or np.all(matrix[panel.blocked] == 0), panel.title


def _implementations(kind: str):
    return [
        pytest.param(k.module, path, id=f"{k.module}/{path.stem}")
        for k in registry.KATAS
        for path in sorted((REPO / "tests" / "katas" / k.module / kind).glob("*.py"))
    ]


#: The reference's outcome on each battery case, (kata, case name) -> Outcome: computed once
#: per test process, not once per implementation file (the reference and its battery are
#: deterministic; the battery's determinism is checked above). Its arrays are made read-only,
#: so a comparison that wrote into them would fail loudly instead of changing later rows.
_REFERENCE_OUTCOMES: dict = {}


@functools.cache
def _reference(kata: str):
    k = registry.get(kata)
    return load_kata(k.solution_path, k.function)


def _reference_outcome(kata: str, case):
    from dojo.worker.isolate import call_here

    key = (kata, case.name)
    if key not in _REFERENCE_OUTCOMES:
        outcome = call_here(_reference(kata), BATTERIES[kata].inputs(case))
        value = outcome.value
        for array in (value if isinstance(value, tuple) else (value,)):
            if isinstance(array, np.ndarray):
                array.flags.writeable = False
        _REFERENCE_OUTCOMES[key] = outcome
    return _REFERENCE_OUTCOMES[key]


def _agreement(kata: str, path: Path, stop_at_first_disagreement: bool, limit: float = 2.0) -> list[tuple[str, bool, str]]:
    """(case, agree, row text) for ``path`` against the reference, in-process (trusted files
    only). ``limit``: seconds a call may take (some wrong files hang on purpose); generous, so
    a busy machine never turns a slow right answer into a disagreement."""
    from dojo.commands.compare import compare_case, memory_verdict
    from dojo.worker.isolate import Outcome, call_here, peak_memory
    from dojo.worker.loader import KataTimeout, time_limit

    battery = BATTERIES[kata]
    k = registry.get(kata)
    candidate = load_kata(path, k.function)
    rows = []
    for case in battery.cases:
        ref = _reference_outcome(kata, case)
        try:
            with time_limit(limit):
                mine = call_here(candidate, battery.inputs(case), path)
        except KataTimeout:
            mine = Outcome("timeout", seconds=limit)
        agree, text, _ = compare_case(ref, mine, battery, path.name, battery.inputs(case))
        if agree and case.max_bytes is not None and mine.returned:  # the contract bounds memory
            agree, text = memory_verdict(case, peak_memory(candidate, battery.inputs(case)), text)
        rows.append((case.name, agree, text))
        if stop_at_first_disagreement and not agree:
            break
    return rows


def _shown_by_a_call(param) -> bool:
    """Whether one call can show the file's bug: not so for a file that says ``ONE_CALL_CANNOT_SHOW
    = "why"`` (a bug between calls, such as a returned buffer the next call writes into, which
    the judge sees within an example and a battery of single calls never does)."""
    return "\nONE_CALL_CANNOT_SHOW = " not in param.values[1].read_text()


@pytest.mark.parametrize("kata, path", [p for p in _implementations("wrong") if _shown_by_a_call(p)])
def test_the_battery_tells_every_known_wrong_implementation_apart(kata, path):
    rows = _agreement(kata, path, stop_at_first_disagreement=True)
    assert not rows[-1][1], f"every case of {kata}'s battery agrees with {path.name}: add a case that shows its bug"


@pytest.mark.parametrize("kata, path", _implementations("right"))
def test_the_battery_agrees_with_every_known_right_implementation(kata, path):
    bad = [(name, text) for name, agree, text in _agreement(kata, path, False, limit=30.0) if not agree]
    assert not bad, f"{path.name} is right, yet these cases disagree: {bad}"


def test_a_diff_line_wider_than_the_terminal_continues_with_its_own_sign(monkeypatch):
    """Word-wrapped by the screen, the tail of a long ``-`` line started at column 0 and read
    as unchanged code (issue 35): each piece now starts with the line's sign and a mark."""
    import io

    from dojo.catalogue.env import Env
    from dojo.commands.compare.report import CONTINUED, diff_lines
    from dojo.text.screen import cell_len

    monkeypatch.setenv("COLUMNS", "30")
    env = Env(color=False, stdout=io.StringIO())
    removed = "-    scores = q @ k.T / np.sqrt(d_k)  # 缩放点积"
    out = diff_lines(env, ["--- reference", "+++ yours", removed, " short", "+" + "x" * 70])
    assert all(cell_len(ln) <= 30 for ln in out), out
    tail = out[3:out.index(" short")]
    assert tail and all(ln.startswith("-" + CONTINUED) for ln in tail), out
    assert "".join([out[2]] + [ln[2:] for ln in tail]) == removed  # nothing lost
    added = out[out.index(" short") + 1:]
    assert len(added) == 3 and all(ln.startswith("+" + CONTINUED) for ln in added[1:])
    monkeypatch.delenv("COLUMNS")  # a pipe: every line whole
    assert diff_lines(env, [removed]) == [removed]


FORGED_PEAK = '''import tracemalloc

import numpy as np

tracemalloc.get_traced_memory = lambda: (0, 10**400)  # compare's memory column asks the worker


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=np.float64)
    if x.ndim == 0 or not -x.ndim <= axis < x.ndim or x.shape[axis] == 0 or np.isnan(x).any() or np.isposinf(x).any():
        raise ValueError("bad input")
    peak = x.max(axis=axis, keepdims=True)
    if np.isneginf(peak).any():
        raise ValueError("a slice is entirely -inf")
    e = np.exp(x - peak)
    return e / e.sum(axis=axis, keepdims=True)
'''


@pytest.mark.contributors  # live or long: the contributors' suite
def test_a_forged_memory_figure_is_left_out_not_a_crash(sandbox, tmp_path):
    """A kata file that replaces tracemalloc reported a peak of 10**400 bytes, and compare ended
    "internal error" (OverflowError) (stop 53's hostile round): the figure is left out."""
    sandbox.write_kata("softmax", FORGED_PEAK)
    report = tmp_path / "compare.json"
    r = sandbox.run("compare", "softmax", "--sizes", "64,96,128,192", "--json", str(report), timeout=120)
    assert r.code == 0 and "internal error" not in r.out + r.err, r.out + r.err
    rows = json.loads(report.read_text())["speed"]["rows"]
    assert rows["yours"]["peak_bytes"] is None and rows["reference"]["peak_bytes"] > 64 * 64 * 8
