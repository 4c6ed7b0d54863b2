"""``dojo compare`` in Chinese (DOJO_LANG=zh): its headings, table and maps from the catalogue
(``dojo/text/locale/zh/compare.toml``), no English sentence of that catalogue left on the screen, and
tables that line up at 80 and 120 columns in a real terminal.

The subprocess runs are a wrong softmax (the first draft that shifts by the global max), with
--no-speed, once at each width in a pseudo-terminal; the speed table is checked in-process on
recorded timings (timing is slow and its numbers vary).
"""

from __future__ import annotations

import io
import re
import tomllib

import pytest

from dojo.text import locale
from dojo.catalogue.batteries import BATTERIES
from dojo.commands.compare.report import agreement_section, speed_section
from dojo.text.screen import wrap_text as wrap_wide
from dojo.catalogue.env import Env
from dojo.screens.heatmap import Map, terminal_lines
from dojo.text.screen import cell_len
from tests.tool.harness import REPO, Sandbox
from tests.tool.terminal import in_pty, screen_lines, too_wide

WIDTHS = (80, 120)
WRONG = REPO / "tests" / "katas" / "softmax" / "wrong" / "draft_global_max_shift.py"
EN = tomllib.loads((REPO / "dojo" / "text" / "locale" / "en" / "compare.toml").read_text(encoding="utf-8"))
ZH = tomllib.loads((REPO / "dojo" / "text" / "locale" / "zh" / "compare.toml").read_text(encoding="utf-8"))
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


@pytest.fixture(scope="module")
def screens(tmp_path_factory) -> dict[int, str]:
    """What `DOJO_LANG=zh dojo compare softmax --no-speed` printed on a terminal of each width."""
    sandbox = Sandbox(tmp_path_factory.mktemp("compare-zh"))
    sandbox.write_kata("softmax", WRONG)
    out = {}
    for columns in WIDTHS:
        environ = {**sandbox.environ(), "DOJO_LANG": "zh"}
        code, text = in_pty(sandbox.command("compare", "softmax", "--no-speed"), columns, environ, sandbox.root)
        assert code == 1, text
        out[columns] = "\n".join(screen_lines(text))
    return out


def english_phrases() -> list[str]:
    """The English of en/compare.toml that no Chinese screen may show: each stretch of a
    message between its placeholders that holds two or more English words."""
    phrases = set()
    for english in EN.values():
        for piece in PLACEHOLDER.split(english):
            piece = piece.strip(" .,:;()—–-")
            if len(re.findall(r"[A-Za-z]{2,}", piece)) >= 2 and not piece.startswith(("--", "`", "dojo ")):
                phrases.add(piece)
    return sorted(phrases)


def test_the_catalogues_have_the_same_ids_and_placeholders():
    assert set(EN) == set(ZH)
    for key in EN:
        assert set(PLACEHOLDER.findall(EN[key])) == set(PLACEHOLDER.findall(ZH[key])), key


@pytest.mark.parametrize("columns", WIDTHS)
def test_the_chinese_screen_has_chinese_headings_and_no_english_sentence(screens, columns):
    out = screens[columns]
    flat = "".join(out.split())  # wrapped between Chinese characters: compare without the breaks
    for heading in ("1. 结果对比", "2. 注意力热力图", "3. 速度", "4. 代码"):
        assert any(line.startswith(heading) for line in out.splitlines()), heading
    for said in ("✗37个用例里有9个和参考实现不一致（边界4个，报错5个）。",
                 "跳过：你的结果有9个用例和参考实现不一致。",
                 "katas/softmax.py通过`dojotestsoftmax`之后才解锁。",
                 "你的结果里有30格是NaN或inf（!!）。",
                 "·恰好为0", "×和参考实现不同"):
        assert said in flat, said
    assert "你的：     katas/softmax.py" in out and "参考实现： solutions/softmax.py" in out
    left = [p for p in english_phrases() if p in out or "".join(p.split()) in flat]
    assert not left, left


@pytest.mark.parametrize("columns", WIDTHS)
def test_the_chinese_screen_fits_and_its_table_lines_up(screens, columns):
    out = screens[columns]
    assert not too_wide(out, columns)
    lines = out.splitlines()
    # a Chinese sentence breaks between characters, so its lines are full (not only at spaces,
    # which would move "个用例和参考实现不一致。…" to the next line whole)
    skipped = next(ln for ln in lines if ln.startswith("跳过："))
    whole = "跳过：你的结果有 9 个用例和参考实现不一致。答案不对，比速度没有意义；先把这些修好。"
    assert cell_len(skipped) >= min(columns - 3, cell_len(whole)), skipped
    cases = len(BATTERIES["softmax"].cases)
    head = next((i for i, ln in enumerate(lines) if ln.split()[:3] == ["用例", "类别", "结果"]), None)
    if head is None:  # too narrow for the columns: each case on a line, its result under it
        assert columns < 120
        rows = [i for i, ln in enumerate(lines) if ln[:3] in ("✓  ", "✗  ")]
        assert len(rows) == cases
        for i in rows:
            assert re.search(r"（(边界|随机|报错)）$", lines[i]) and lines[i + 1].startswith("     "), lines[i:i + 2]
        return
    kind_at = cell_len(lines[head][:lines[head].index("类别")])
    result_at = cell_len(lines[head][:lines[head].index("结果")])
    rows = [ln for ln in lines[head + 2:] if ln[:3] in ("✓  ", "✗  ")]
    assert len(rows) == cases
    for ln in rows:  # every kind under 类别, every result under 结果
        assert char_at(ln, kind_at - 1) == " " and char_at(ln, kind_at) in "边随报", ln
        assert char_at(ln, result_at - 1) == " " and char_at(ln, result_at) != " ", ln
    # a result's continuation lines start under the result column too
    table = lines[head + 2:lines.index("", head)]
    more = [ln for ln in table if ln[:1] == " "]
    assert more and all(len(ln) - len(ln.lstrip(" ")) == result_at for ln in more)


@pytest.fixture
def chinese(monkeypatch):
    monkeypatch.setattr(locale, "LANGUAGE", "zh")
    monkeypatch.setenv("DOJO_LANG", "zh")


@pytest.mark.parametrize("columns", WIDTHS)
def test_a_table_of_chinese_case_names_lines_up(chinese, monkeypatch, columns):
    """Case names in Chinese (two cells a character) keep the columns straight."""
    battery = BATTERIES["softmax"]
    names = {case.name: f"用例{i}号" + "长" * (i % 5) for i, case in enumerate(battery.cases)}
    monkeypatch.setattr(locale, "case_name", lambda module, name, lang=None: names.get(name, name))
    rows = [{"case": c.name, "kind": c.kind, "agree": i % 3 != 0,
             "result": "最大 |Δ| 1.1e-16，相对 4.2e-16" if i % 3 else "参考实现是数值的地方你有 3 个 NaN/inf，" * 3}
            for i, c in enumerate(battery.cases)]
    lines = agreement_section(Env(color=False), rows, battery, columns)
    body = [ln for ln in lines if ln[:3] in ("✓  ", "✗  ")]
    assert len(body) == len(rows)
    starts = {cell_len(ln[:ln.index(kind)]) for ln in body for kind in ("边界", "随机", "报错") if kind in ln[:60]}
    assert len(starts) == 1, body
    assert all(cell_len(ln) <= columns for ln in lines)
    assert "用例0号" in "".join(lines) and "边界 18 个" not in "".join(lines)  # the summary counts what failed


def recorded_speed() -> dict:
    """A speed section's data as ``run_speed`` records it (the numbers of a real run)."""
    from dojo.text.messages import message

    def row(seconds, peak, ratio, growth):
        return {"seconds": seconds, "peak": peak, "ratio": ratio, "problem": None, "times": {256: [1]},
                "growth_cell": message("text", text=growth), "memory_growth": 1.9}
    return {"shown": [256, 512], "threads": {"numpy": 1, "source": "每个工作进程一个 BLAS 线程，和评测时一样", "torch": 1},
            "what": "x 的形状为 (n, n)，axis=-1", "sizes": [184, 256, 360, 512, 728, 1024], "rounds": 3,
            "one_round": 0.01, "ratio_n": 512, "notes": [],
            "rows": {"reference": row({256: 3.13e-4, 512: 1.6e-3}, {256: 1153433, 512: 4299161}, 1.0, "n^2.4 ± 0.3"),
                     "yours": row({256: 3.01e-4, 512: 1.5e-3}, {256: 1153433, 512: 4299161}, 0.9, "n^2.4 ± 0.3"),
                     "torch": row({256: 1.13e-4, 512: 4.9e-4}, {256: 524288, 512: 2097152}, 0.31, "n^2.1 ± 0.1")}}


@pytest.mark.parametrize("columns", WIDTHS)
def test_the_speed_table_in_chinese_lines_up(chinese, monkeypatch, columns):
    monkeypatch.setenv("COLUMNS", str(columns))
    out = io.StringIO()
    speed_section(Env(stdout=out, color=False), recorded_speed(), columns)
    lines = out.getvalue().splitlines()
    assert all(cell_len(ln) <= columns for ln in lines), lines
    head = next(ln for ln in lines if "内存峰值" in ln)
    assert head.split() == ["n=256", "内存峰值", "n=512", "内存峰值", "相对耗时", "耗时增长", "内存增长"]
    rows = [ln for ln in lines if ln.startswith(("参考实现 ", "你的 ", "torch "))]
    assert [ln.split()[0] for ln in rows] == ["参考实现", "你的", "torch"]
    for label in ("n=256", "内存峰值", "n=512", "相对耗时", "耗时增长", "内存增长"):
        at = cell_len(head[:head.index(label)])
        for ln in rows:  # every value starts under its heading
            assert char_at(ln, at - 1) == " " and char_at(ln, at) not in " ", (label, ln)


def char_at(line: str, cells: int) -> str:
    """The character that starts ``cells`` cells into ``line`` ("" when none starts there)."""
    total = 0
    for ch in line:
        if total == cells:
            return ch
        if total > cells:
            return ""
        total += cell_len(ch)
    return ""


def test_the_terminal_map_says_its_labels_in_chinese_and_lines_up(chinese):
    import numpy as np

    a = np.full((3, 3), 1 / 3)
    lines = terminal_lines([Map("weights", a, a.copy(), np.zeros((3, 3), bool), label="注意力权重")], colour=False,
                           width=80)
    assert lines[0] == "注意力权重"
    assert lines[1].split() == ["参考实现", "你的"]
    # yours (right) is labelled above its column numbers, past the wide label of the reference
    assert cell_len(lines[1][:lines[1].index("你的")]) == cell_len(lines[2][:lines[2].rindex("0 1 2")]) - 3
    key = " ".join(lines[lines.index("") + 1:])
    assert "恰好为 0" in key and "和参考实现不同" in key and "exactly" not in key


def test_wide_text_breaks_between_characters_not_before_punctuation():
    text = "跳过：你的结果有 18 个用例和参考实现不一致。答案不对，比速度没有意义；先把这些修好。"
    for width in (20, 30, 41):
        lines = wrap_wide(text, width)
        assert "".join(lines).replace(" ", "") == text.replace(" ", "")
        assert all(cell_len(ln) <= width for ln in lines)
        assert not any(ln[0] in "，。；：）" for ln in lines)
        assert all(cell_len(ln) >= width - 4 for ln in lines[:-1])  # full lines, not ragged ones
    assert wrap_wide("通过 `dojo test causal_self_attention` 之后", 30) == ["通过 `dojo test", "causal_self_attention` 之后"]


@pytest.mark.parametrize("kata", sorted(BATTERIES))
def test_every_battery_says_what_it_draws_and_times_in_chinese(chinese, kata):
    """Each battery's own words have their Chinese (dojo/catalogue/katas/<kata>/zh/battery.toml), and no
    Chinese is left for a panel title the battery no longer has."""
    from dojo.catalogue.batteries import battery_text, panel_title

    battery = BATTERIES[kata]
    words = tomllib.loads((REPO / "dojo" / "catalogue" / "katas" / kata / "zh" / "battery.toml").read_text(encoding="utf-8"))
    titles = {panel.title for panel in battery.panels(battery.map_inputs())}
    assert set(words.get("panel", {})) == titles
    for field, english in (("map_what", battery.map_what), ("blocked_words", battery.blocked_words),
                           ("speed_what", battery.speed.what)):
        assert (field in words) == bool(english), field
    for field in ("map_what", "blocked_words", "speed_what"):
        said = battery_text(battery, field)
        assert said == words.get(field, "") and not re.search(r"[A-Za-z]{3,} [A-Za-z]{3,} [A-Za-z]{3,}", said)
    assert all(panel_title(battery, title) == words["panel"][title] for title in titles)


def test_the_chinese_readme_is_linked_both_ways_and_its_table_is_generated():
    from dojo.commands import docs

    english = (REPO / "README.md").read_text(encoding="utf-8")
    chinese = (REPO / "README.zh.md").read_text(encoding="utf-8")
    assert "中文说明：[README.zh.md](README.zh.md)" in english.split("\n## ", 1)[0]
    assert "[README.md](README.md)" in chinese.split("\n## ", 1)[0]
    assert docs.render_readme(chinese, "zh") == chinese, "run: python -m dojo.commands.docs"
