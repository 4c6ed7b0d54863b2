"""Interviews, loops, drills and the history in Chinese (``DOJO_LANG=zh``).

The scripted runs go through the real entry point in a sandbox with the fake clock, as
tests/tool/test_interview.py does. Each asserts sentences of dojo/text/locale/zh/interview.toml
(written out here, not taken from the catalogue) and that no English sentence of
dojo/text/locale/en/interview.toml is left on the screen. Tables are checked cell by cell: a
Chinese character takes two terminal cells, so a column padded by characters would drift.

The Chinese stubs are written elsewhere: the tests that need one add a Chinese docstring to the
catalogue in-process (``dojo.text.locale.EXTRA``) and run the interview in-process.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import re
import tomllib

import pytest

from dojo.text import locale
from dojo.catalogue import registry
from dojo.state import schedule
from dojo.commands.cli.entry import main
from dojo.catalogue.env import Env
from dojo.screens.render import properties_of
from dojo.text.screen import cell_len
from dojo.catalogue.stubs import stub_source
from tests.tool.harness import REPO, Sandbox
from tests.tool.test_interview import oracle_cache, sandbox  # noqa: F401 - fixtures (one oracle cache a module)

# Machine-independent and long: the contributors' suite (README, "For contributors"); CI runs it.
pytestmark = pytest.mark.contributors

ZH = {"DOJO_LANG": "zh"}
N = len(properties_of(REPO / "tests" / "test_softmax.py"))
FIELD_LABELS = ("结果", "用时", "性质", "评测次数", "提示", "第一处失败", "像已知错误", "分数", "文件夹")


def english_sentences() -> list[str]:
    """The English text of every message of interview.toml, in the pieces between its
    placeholders, that has two words or more; pieces that are also in messages.toml (another
    catalogue's sentences, translated there) are left to that catalogue's tests."""
    with open(REPO / "dojo" / "text" / "locale" / "en" / "interview.toml", "rb") as f:
        mine = tomllib.load(f)
    with open(REPO / "dojo" / "text" / "locale" / "en" / "messages.toml", "rb") as f:
        others = list(tomllib.load(f).values())
    pieces = set()
    for template in mine.values():
        for piece in re.split(r"\{[a-z_]+\}", template):
            piece = piece.strip(" .:;,()—[]#─\n")
            if re.search(r"[A-Za-z]+[ ,;:'’-]+[A-Za-z]+", piece) and not any(piece in o for o in others):
                pieces.add(piece)
    return sorted(pieces)


def no_english(out: str) -> None:
    left = [s for s in english_sentences() if s in out]
    assert not left, f"English sentences of interview.toml on a Chinese screen: {left}\n{out}"


def cells(text: str) -> list[str]:
    """A line as terminal cells: a wide character fills two (the second is "")."""
    out = []
    for ch in text:
        out.append(ch)
        out.extend([""] * (cell_len(ch) - 1))
    return out


def lines_up(out: str, header: str, rows: int, filled=()) -> list[str]:
    """The table whose header line starts with ``header``: the header's and every row's cells
    start where the rule under the header starts a column, after a gap (in terminal cells; a
    row's cell may be empty, except in the columns ``filled``: there every row's text starts
    exactly at the column)."""
    lines = out.splitlines()
    at = next(i for i, ln in enumerate(lines) if ln.lstrip().startswith(header))
    head, rule, body = lines[at], lines[at + 1], lines[at + 2: at + 2 + rows]
    starts = [m.start() for m in re.finditer(r"─+", rule)]  # the rule is ASCII spaces and ─
    assert len(starts) >= 3, rule
    for ln in [head, *body]:
        c = cells(ln)
        for i, s in enumerate(starts):
            assert s < len(c), f"the line ends before cell {s}:\n{ln}\n{rule}"
            assert s == 0 or c[s - 1] == " " and c[s - 2] == " ", f"column at cell {s} is not after a gap:\n{ln}\n{rule}"
            if ln is head or i in filled:
                assert c[s] not in (" ", ""), f"nothing starts at cell {s}:\n{ln}\n{rule}"
    return body


def records(box: Sandbox) -> list[dict]:
    return [json.loads(line) for line in (box.state / "history.jsonl").read_text().splitlines()]


def test_english_sentences_are_found_at_all():
    """The check below would pass on any output if it found no sentence to look for."""
    found = english_sentences()
    assert "Half time" in found and "The interviewer's follow-up questions" in found
    assert "answer copied in from" in found


def test_an_interview_in_chinese_shows_the_chinese_screens_and_report(sandbox, wrong):
    r = sandbox.run("interview", "softmax", "--answer", str(wrong("softmax", "lets_nan_through")),
                    "--at", "400", env=ZH)
    out = r.out
    assert r.code == 1, r.out + r.err
    assert "面试：" in out and "[简单，限时 10:00]" in out
    assert "在这个文件里作答：" in out
    assert f"评测器会检查：{N} 条对照 PyTorch 的性质测试（float64）。性质的标题等面试结束才显示（--coach 现在就显示）。" in out
    assert "[5:00] 时间过半。" in out  # the scripted clock jumped past half time
    assert re.search(r"^\[6:40\] 已从 \S+lets_nan_through\.py 复制答案$", out, re.M)
    assert "[6:40] 评测中…" in out
    assert "[6:40] 已提交。" in out
    assert "面试结束：softmax——" in out
    assert re.search(r"^  结果 +未通过：提交时还有性质没通过$", out, re.M)
    assert re.search(r"^  用时 +6:40 / 10:00$", out, re.M)
    assert re.search(r"^  评测次数 +1$", out, re.M)
    assert re.search(r"^  分数 +\d+   = 100 × \d+/\d+（没有时间奖励：没有在时限内提交通过的答案）$", out, re.M)
    assert "评测器检查了什么（评分副本）：" in out
    assert "下一步：`dojo compare softmax --file " in out and "会指出你的答案从哪里开始和参考实现不一样。" in out
    assert "面试官的追问：" in out
    assert "先自己大声回答；然后用 `dojo followups softmax --answers` 看参考答案，并运行里面的演示。" in out
    # the report's values start 17 cells in, whatever the width of the Chinese label before them
    report = [ln for ln in out.splitlines() if any(ln.startswith(f"  {label} ") for label in FIELD_LABELS)]
    assert len(report) >= 8, out
    for ln in report:
        assert cells(ln)[16] == " " and cells(ln)[17] not in (" ", ""), ln
    # the folder's two files under the values, each said in Chinese
    assert re.search(r"^ {17}softmax\.py +作答文件$", out, re.M), out
    assert re.search(r"^ {17}final/softmax\.py +评分副本$", out, re.M), out
    no_english(out)
    rec = records(sandbox)[0]
    assert (rec["outcome"], rec["used_s"]) == ("failed", 400.0)


def test_a_loop_in_chinese_then_its_history_and_the_drill(sandbox, solution):
    answer = str(solution("softmax"))
    r = sandbox.run("interview", "--loop", "softmax", "--answer", answer, "--at", "300",
                    "--answer", answer, "--at", "900", env=ZH)
    out = r.out
    assert r.code == 1, r.out + r.err
    assert "连环面试第 1/5 关：" in out and "[简单，连环面试的时钟还剩 45:00]" in out
    assert re.search(r"^第 1/5 关在 5:00 结束：通过（\d+ 分）。下一问：", out, re.M)
    assert "连环面试第 2/5 关：" in out and "[中等，连环面试的时钟还剩 40:00]" in out
    assert "文件开头是你上一关的代码，新函数在它下面。" in out
    assert "没有更多答案了：连环面试停在第 2 关之后。" in out
    assert "连环面试结束：5 关通过了 1 关（到达 2 关；用时 15:00 / 45:00）" in out
    rows = lines_up(out, "关  ", 5, filled=(1, 2, 3, 4, 5, 6))
    assert [row.split()[0] for row in rows] == ["1", "2", "3", "4", "5"]
    assert "通过" in rows[0] and "未通过" in rows[1] and all("未到达" in row for row in rows[2:])
    assert re.search(r"^  分数 +\d+   = \d+ \+ 0  （各关分数相加：每到达一关都算分）$", out, re.M)
    assert re.search(r"^  第 2 关 +第一处失败：", out, re.M)
    assert re.search(r"^ {17}原因见：`dojo compare masked_attention --file \S+`$", out, re.M)
    no_english(out)
    # the second stage's file as it started (the scripted answer replaced it): the first
    # stage's code, the Chinese banner, the new stub
    stage2 = records(sandbox)[0]["stages"][1]
    text = (sandbox.state / stage2["attempt"] / ".start.py").read_text()
    assert re.search(r"^# ── 第 2 关：.* ─+$", text, re.M)
    assert "# 上面是你前几关的代码：可以调用、修改，也可以不动。" in text
    assert max(cell_len(ln) for ln in text.splitlines() if ln.startswith("# ──")) <= 95

    h = sandbox.run("history", env=ZH)
    assert h.code == 0, h.err
    assert "面试记录（1 次作答）" in h.out
    body = lines_up(h.out, "#  日期", 3, filled=(3, 4, 5, 7))
    assert "从 softmax 开始的连环面试" in body[0] and "5 关通过 1 关" in body[0] and "到达 2 关" in body[0]
    assert "13/13" in body[1] or f"{N}/{N}" in body[1]
    assert "个人最好成绩（连环面试的每一关也算作那道题的作答）" in h.out
    lines_up(h.out, "题  ", 2)
    assert "每次作答的用时（从旧到新；满格就是时限）" in h.out
    assert re.search(r"^  softmax +\S+  最近 5:00$", h.out, re.M)
    no_english(h.out)
    # at 80 columns the table drops its number and bar, and every line fits
    narrow = sandbox.run("history", env={**ZH, "COLUMNS": "80"})
    assert "占时限" not in narrow.out and "日期" in narrow.out
    assert max(cell_len(ln) for ln in narrow.out.splitlines()) <= 80, narrow.out

    d = sandbox.run("drill", env=ZH)
    assert d.code == 0, d.err
    assert re.search(r"^今天没有到期的复习。下一道：softmax，明天该复习（\d{4}-\d\d-\d\d 周[一二三四五六日]）。$", d.out, re.M), d.out
    no_english(d.out)


def test_no_interviews_yet_and_usage_errors_in_chinese(sandbox):
    r = sandbox.run("history", env=ZH)
    assert r.out.strip() == "还没有面试记录。用 `dojo interview` 开始一场。"
    r = sandbox.run("interview", "--resume", env=ZH)
    assert r.code == 2 and "没有可以继续的面试。用 `dojo interview` 开始一场。" in r.err
    r = sandbox.run("interview", "softmax", "--at", "3", env=ZH)
    assert r.code == 2 and "--at SECONDS 要和 --answer FILE 一起用。" in r.err
    r = sandbox.run("drill", env=ZH)
    assert "还没有要复习的：一道题面试过一次之后才会进入复习计划" in r.out
    for out in (sandbox.run("interview", "--help", env=ZH).out, sandbox.run("drill", "--help", env=ZH).out):
        assert "限时模拟面试" in out
        no_english(out)


# -- in-process: the stub in the chosen language ---------------------------------------------

ZH_DOC = """对 ``x`` 沿 ``axis`` 做数值稳定的 softmax（测试用的中文约定）。

x 的形状至少一维，按 float64 计算；返回与 x 形状相同的新数组。
"""


class NoJudge:
    """An untouched stub is never judged: a judge run here would be a bug."""

    def __init__(self, env):
        pass

    def judge(self, *args, **kwargs):
        raise AssertionError("an untouched stub was judged")


@pytest.fixture
def chinese_stub(monkeypatch):
    """A Chinese docstring for softmax's stub, in the Chinese catalogue (in this process only)."""
    monkeypatch.setitem(locale.EXTRA, "zh", {**locale.general("zh"), "kata.softmax.stub": ZH_DOC})
    monkeypatch.setenv("DOJO_LANG", "zh")
    monkeypatch.setattr("dojo.judge.runner.WarmJudge", NoJudge)
    kata = registry.get("softmax")
    return kata, stub_source(kata.solution_path, kata.function, "zh")


def run_in_process(box: Sandbox, *argv: str) -> tuple[int, str]:
    out = io.StringIO()
    env = Env(root=box.root, state_dir=box.state, stdout=out, stderr=out, stdin=io.StringIO(),
              clock=lambda: 0.0, now=lambda: 1_800_000_000.0, fake_clock=True)
    code = main(list(argv), env)
    return code, out.getvalue()


@pytest.mark.parametrize("answer_language", ["zh", "en"])
def test_the_attempt_starts_from_the_chinese_stub_and_an_untouched_stub_is_no_attempt(
        sandbox, chinese_stub, tmp_path, answer_language):
    kata, zh_stub = chinese_stub
    assert "测试用的中文约定" in zh_stub and zh_stub != stub_source(kata.solution_path, kata.function, "en")
    answer = tmp_path / "answer.py"  # the untouched stub, in Chinese or in English
    answer.write_text(zh_stub if answer_language == "zh" else stub_source(kata.solution_path, kata.function, "en"))
    code, out = run_in_process(sandbox, "interview", "softmax", "--answer", str(answer), "--at", "30")
    assert code == 1, out
    # the statement shows the contract in Chinese, as the attempt file has it
    assert "    对 ``x`` 沿 ``axis`` 做数值稳定的 softmax（测试用的中文约定）。" in out
    assert "Numerically stable softmax of ``x`` along ``axis``." not in out
    rec = records(sandbox)[0]
    laid_out = (sandbox.state / rec["attempt"] / "final" / "softmax.py").read_text()
    assert laid_out == answer.read_text()
    assert (rec["attempted"], rec["score"]) == (False, None)
    assert re.search(r"^  结果 +.+（已提交；还什么都没写）$", out, re.M), out
    assert re.search(r"^  分数 +—（未作答）$", out, re.M)


def test_the_fresh_attempt_file_is_the_chinese_stub(sandbox, chinese_stub):
    from dojo.commands.interview import attempt

    kata, zh_stub = chinese_stub
    locale.set_language("zh")  # the autouse fixture puts English back afterwards
    env = Env(root=sandbox.root, state_dir=sandbox.state, now=lambda: 1_800_000_000.0)
    problem = attempt.create(env, kata, 600.0)
    a = attempt.Attempt(env, problem)
    assert a.path.read_text() == zh_stub
    english = stub_source(kata.solution_path, kata.function, "en").encode()
    assert a.untouched(zh_stub.encode()) and a.untouched(english)
    assert not a.untouched((zh_stub + "# 写了一行\n").encode())
    locale.set_language("en")  # resumed in English: the Chinese file is still untouched
    assert attempt.Attempt(env, problem).untouched(zh_stub.encode())


# -- the schedule's words ---------------------------------------------------------------------

def entry(today: dt.date, due: dt.date | None) -> schedule.Entry:
    return schedule.Entry(kata="softmax", today=today, due=due)


def test_schedule_and_drill_words_in_chinese_and_in_english(monkeypatch):
    from dojo.commands.drill import day_text, due_words

    today = dt.date(2027, 1, 15)
    cases = [entry(today, today), entry(today, today - dt.timedelta(days=3)),
             entry(today, today + dt.timedelta(days=1)), entry(today, today + dt.timedelta(days=5))]
    rec = {"outcome": "passed", "hints": 2, "attempted": True}
    assert [e.cell() for e in cases] == ["due today", "overdue 3 d", "tomorrow", "in 5 d"]
    assert day_text(dt.date(2027, 1, 22)) == "Fri 2027-01-22"
    assert due_words(cases[3]) == "due in 5 d (Wed 2027-01-20)"
    assert schedule.result_words(rec) == "passed with 2 hints"
    monkeypatch.setattr(locale, "LANGUAGE", "zh")
    assert [e.cell() for e in cases] == ["今天到期", "逾期 3 天", "明天", "5 天后"]
    assert day_text(dt.date(2027, 1, 22)) == "2027-01-22 周五"
    assert due_words(cases[3]) == "5 天后该复习（2027-01-20 周三）"
    assert schedule.result_words(rec) == "通过，看了 2 条提示"
    assert schedule.result_words({"outcome": "timed-out"}) == "超时"
