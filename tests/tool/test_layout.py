"""Every screen fits the terminal it is on: at 80 and at 120 columns, in a real terminal (a pty
of that size, tests/tool/terminal.py), no line is wider than the terminal and no word is broken
across lines; a pipe gets every line whole, as before.

Which bug each test catches:
- a screen that prints a line longer than the terminal (the terminal then breaks it mid-word:
  ``Blocked scor`` / ``es``), a table wider than the terminal (the progress table at 108
  columns, the history at 121);
- wrapping that breaks a word, a path or a command, or that loses or reorders words;
- widths measured in characters instead of terminal cells (a Chinese character takes two);
- output to a pipe that changes because a terminal would be narrow (wrapped, coloured);
- the progress table taking two lines a kata at 80 columns.

The README's test line runs the screens that need no judge and one verdict (judged once, drawn
at both widths); the contributors' suite runs every command, judge and all.
"""

from __future__ import annotations

import io
import json
import os
import random
import re
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

import pytest

from dojo.catalogue import registry
from dojo.text import screen
from dojo.catalogue.env import Env
from dojo.screens.render import verdict_lines
from tests.tool.harness import REPO, Sandbox
from tests.tool.terminal import broken_words, cells, in_pty, pty_pair, screen_lines, too_wide

WIDTHS = (80, 120)
WRONG = REPO / "tests" / "katas"  # then KATA / "wrong" / FILE
SOLUTIONS = REPO / "solutions"
#: What changes from run to run: a judge's time, "(1.6 s" or "（1.6 s", and the run's seed,
#: "seed 2180846375" or "种子 …", a line break allowed before the number.
SECONDS = re.compile(r"(?<=[(（])\d+\.\d s")
SEED = re.compile(r"(seed|种子)(\s+)\d+")


def steady(text: str) -> str:
    """``text`` with what changes from run to run made the same: two runs of one screen then
    differ only in how they are wrapped."""
    return SEED.sub(r"\1\2S", SECONDS.sub("T s", text))


def terminal_environ(box: Sandbox, seed: int | None = None) -> dict:
    """A colour terminal: colour codes must not count as width. ``seed``: every run of the
    judge draws from it (``$DOJO_SEED``)."""
    env = box.environ()
    env.pop("NO_COLOR")
    env["TERM"] = "xterm-256color"
    if seed is not None:
        env["DOJO_SEED"] = str(seed)
    return env


def piped(box: Sandbox, *args: str, seed: int | None = None, lang: str | None = None) -> str:
    """``lang``: the screen's language (else the sandbox's)."""
    r = box.run(*args, env={**({"DOJO_LANG": lang} if lang else {}), **({"DOJO_SEED": str(seed)} if seed is not None else {})})
    return steady(r.out + r.err)


def on_terminal(box: Sandbox, columns: int, *args: str, keys=(), seed: int | None = None, lang: str | None = None) -> str:
    env = {**terminal_environ(box, seed), **({"DOJO_LANG": lang} if lang else {})}
    _, out = in_pty(box.command(*args), columns, env, box.root, keys=keys)
    return steady(out)


def assert_fits(text: str, whole: str, columns: int, what: str) -> None:
    wide = too_wide(text, columns)
    assert not wide, f"{what} at {columns} columns: lines wider than the terminal:\n" + "\n".join(wide)
    broken = broken_words(text, whole)
    assert not broken, f"{what} at {columns} columns: words broken across lines: {broken}\n{text}"


def check(box: Sandbox, *args: str, keys=(), state=None, lang: str | None = None,
          widths: tuple[int, ...] = WIDTHS) -> dict[int, str]:
    """``dojo ARGS`` piped (every line whole), then on a terminal at each width, each run from
    the same files (``state``: put them back before each run); what each printed. A command
    that waits for keys is compared with itself on a terminal 1000 columns wide. Every run
    judges from one seed, drawn here: a wrong answer fails the same properties in each."""
    outs = {}
    seed = random.randrange(2**32)
    for columns in (None, *widths):
        if state is not None:
            state()
        if columns is None:
            outs[None] = (on_terminal(box, 1000, *args, keys=keys, seed=seed, lang=lang) if keys
                          else piped(box, *args, seed=seed, lang=lang))
        else:
            outs[columns] = on_terminal(box, columns, *args, keys=keys, seed=seed, lang=lang)
            assert_fits(outs[columns], outs[None], columns, f"DOJO_SEED={seed} dojo " + " ".join(args))
    return outs


def snapshot(box: Sandbox):
    """A function that puts the state folder and katas/ back as they are now."""
    saved = Path(tempfile.mkdtemp(prefix="dojo-state-"))
    shutil.copytree(box.state, saved / "state", symlinks=True)
    katas = {p.name: p.read_bytes() for p in (box.root / "katas").iterdir()}

    def restore():
        shutil.rmtree(box.state)
        shutil.copytree(saved / "state", box.state, symlinks=True)
        for name, data in katas.items():
            (box.root / "katas" / name).write_bytes(data)
    return restore


# -- data the screens show, written as the tool writes it ------------------------------------------


def record(kata: str, outcome: str, passed: int, total: int, used: float, limit: float, score, **more) -> dict:
    rec = {"v": 1, "id": f"20270115-080000-{kata}-{outcome}", "kata": kata, "started_at": 1_800_000_000.0,
           "ended_at": 1_800_000_000.0 + used, "limit_s": limit, "used_s": used, "outcome": outcome,
           "ended_by": "submit", "attempted": True, "state": "passed" if outcome == "passed" else "failing",
           "passed": passed, "total": total, "first_failure": None, "diagnosis": None, "judge_runs": 2,
           "hints": 0, "score": score, "coach": False, "scripted": False, "resumed": 0, "closed_s": 0.0,
           "attempt": f"attempts/20270115-080000-{kata}"}
    rec.update(more)
    return rec


def write_history(box: Sandbox) -> None:
    stages = [record("softmax", "passed", 13, 13, 240, 2700, 118, stage=1),
              record("masked_attention", "passed", 17, 17, 660, 2460, 115, stage=2),
              record("causal_self_attention", "failed", 12, 14, 600, 1800, 86, stage=3,
                     first_failure={"property": "test_matches_torch"},
                     diagnosis={"id": "causal_self_attention/scale_by_sqrt_d_model"}),
              record("multihead_attention", "timed-out", 0, 0, 1200, 1200, None, stage=4, attempted=False,
                     ended_by="time")]
    loop = {"v": 1, "kind": "loop", "id": "20270115-090000-loop-softmax", "kata": "softmax",
            "started_at": 1_800_003_600.0, "ended_at": 1_800_006_300.0, "limit_s": 2700.0, "used_s": 2700.0,
            "outcome": "timed-out", "planned": ["softmax", "masked_attention", "causal_self_attention",
                                                "multihead_attention", "kv_cache_attention"],
            "reached": 4, "passed_stages": 2, "hints": 0, "judge_runs": 8, "score": 319, "coach": False,
            "scripted": False, "stages": stages}
    lines = [record("softmax", "failed", 8, 13, 60, 600, 62, hints=1),
             record("grouped_query_attention", "abandoned", 3, 15, 420, 1800, None, ended_by="interrupt"),
             loop]
    (box.state / "history.jsonl").write_text("".join(json.dumps(r) + "\n" for r in lines))


def write_progress(box: Sandbox) -> None:
    """Every state a kata can be in, a hint used, a give-up: the widest progress table."""
    verdict = lambda state, passed=0, total=0: {"state": state, "passed": passed, "total": total,  # noqa: E731
                                                "at": 1_800_000_000.0, "first_failure": None, "diagnosis": None}
    katas = {
        "softmax": {"verdict": verdict("passed", 13, 13), "hints_used": 2, "solved": True},
        "masked_attention": {"verdict": verdict("failing", 9, 17), "hints_used": 1},
        "causal_self_attention": {"verdict": verdict("numpy-only")},
        "multihead_attention": {"verdict": verdict("cannot-import")},
        "kv_cache_attention": {"verdict": verdict("timed-out")},
        "flash_attention": {"verdict": verdict("passed", 11, 11), "gave_up": True, "revealed": True},
        "grouped_query_attention": {"verdict": verdict("incomplete")},
        "attention_backward": {"verdict": verdict("error")},
    }
    for module, entry in katas.items():  # a verdict counts only while the file has the bytes judged
        entry["verdict"]["sha256"] = box.worked_on(module)
    (box.state / "state.json").write_text(json.dumps({"version": 1, "welcomed": True, "katas": katas}))


# -- the console itself ----------------------------------------------------------------------------


class Terminal:
    """The slave end of a pty ``columns`` wide as an output stream, and what reached the master."""

    def __init__(self, columns: int):
        self.master, slave = pty_pair(columns)
        self.stream = os.fdopen(slave, "w", encoding="utf-8", errors="replace")
        self.chunks: list[bytes] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        while True:
            try:
                data = os.read(self.master, 65536)
            except OSError:
                return
            if not data:
                return
            self.chunks.append(data)

    def close(self) -> str:
        self.stream.close()
        self.reader.join(timeout=30)
        os.close(self.master)
        return b"".join(self.chunks).decode().replace("\r\n", "\n")


def say_on(columns: int | None, lines, color: bool = True) -> str:
    """``lines`` printed through the console on a terminal ``columns`` wide (None: a pipe)."""
    if columns is None:
        out = io.StringIO()
        env = Env(root=REPO, stdout=out, stderr=out, color=False)
        for ln in lines(env):
            env.say(ln)
        return out.getvalue()
    term = Terminal(columns)
    env = Env(root=REPO, stdout=term.stream, stderr=term.stream, color=color)
    for ln in lines(env):
        env.say(ln)
    return term.close()


def test_a_long_line_wraps_at_words_under_its_hang_and_keeps_paths_and_commands_whole(monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    path = "/home/someone/attention-dojo/.dojo/attempts/20270115-080000-masked_attention/final/masked_attention.py"

    def lines(env):
        return [
            screen.line(env, ("  ✗ ", "red"), "Blocked scores get weight exactly 0 and the other entries of "
                        "their row still sum to 1, whatever the mask looks like", hang=4),
            screen.line(env, "  attempt        ", path, hang=17),
            screen.line(env, "Stuck? ", screen.keep("`dojo hint masked_attention`"), ".  Re-judge on every save: ",
                        screen.keep("`dojo watch masked_attention`"), "."),
        ]

    whole = say_on(None, lines)
    assert whole.splitlines()[2] == ("Stuck? `dojo hint masked_attention`.  Re-judge on every save: "
                                     "`dojo watch masked_attention`.")  # a pipe: as written
    narrow = say_on(60, lines)
    shown = screen_lines(narrow)
    assert shown[:6] == ["  ✗ Blocked scores get weight exactly 0 and the other",  # 61 with " entries"
                         "    entries of their row still sum to 1, whatever the mask",
                         "    looks like",
                         "  attempt",
                         path,  # alone on its line, unbroken, though wider than the terminal
                         "Stuck? `dojo hint masked_attention`.  Re-judge on every"]
    assert shown[6] == "save: `dojo watch masked_attention`."  # a kept command moves whole
    assert_fits(narrow, whole, 60, "lines")
    assert "\x1b[31m" in narrow and "\x1b[" not in whole  # colour on the terminal only


def test_a_command_in_backquotes_moves_to_the_next_line_whole(monkeypatch):
    """A catalogue sentence's `command` (not marked ``keep`` by the screen) split across lines as
    "`dojo" / "test flash_attention`" at 80 columns, in both languages (issue 35)."""
    monkeypatch.delenv("COLUMNS", raising=False)
    sentence = ("No verdict for the file as it is now: flash_attention, sliding_window_attention. "
                "`dojo test flash_attention` judges it; `dojo check` judges every kata.")
    zh = "当前文件还没有评测结果：flash_attention。用 `dojo test flash_attention` 评测它；`dojo check` 评测全部。"
    for text in (sentence, zh):
        for width in (60, 80, 100):
            shown = screen_lines(say_on(width, lambda env: [screen.line(env, text)]))
            assert all(ln.count("`") % 2 == 0 for ln in shown), (width, shown)
            assert "dojo test flash_attention" in "\n".join(shown)
    limit = "你的函数用满了单次调用的上限 2 s CPU 时间，还在算：可能是死循环，也可能是做了远超输入所需的计算"
    for width in range(24, 60):  # a number and its unit never part ("2" / "s CPU")
        shown = screen_lines(say_on(width, lambda env: [screen.line(env, limit)]))
        assert any("2 s" in ln for ln in shown), (width, shown)


def test_widths_are_terminal_cells_so_chinese_text_fits(monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    sentence = "注意力机制的每一行权重之和为一" * 6  # 90 characters, 180 cells

    narrow = say_on(40, lambda env: [screen.line(env, "  " + sentence)])
    shown = [ln for ln in screen_lines(narrow) if ln]
    assert all(cells(ln) <= 40 for ln in shown), shown
    assert "".join(ln.strip() for ln in shown) == sentence  # nothing lost, nothing added
    assert len(shown) == 5  # 180 cells in lines of 38: a measure by characters would give 3


def test_a_table_too_wide_for_the_terminal_wraps_its_cells_and_never_a_word(monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    headers = ["kata", "result", "properties", "score"]
    rows = [["causal_self_attention", "failed: submitted with failing properties", "12 of 14 properties pass", "86"],
            ["masked_attention", "passed: all properties pass, submitted in time", "17 of 17 properties pass", "115"]]

    def draw(columns):
        if columns is None:
            out = io.StringIO()
            screen.table(Env(root=REPO, stdout=out), headers, rows, indent=2, nowrap=(0, 3))
            return out.getvalue()
        term = Terminal(columns)
        screen.table(Env(root=REPO, stdout=term.stream, color=True), headers, rows, indent=2, nowrap=(0, 3))
        return term.close()

    whole = draw(None)
    assert re.fullmatch(r"  causal_self_attention  failed: submitted with failing properties +"
                        r"12 of 14 properties pass  86", whole.splitlines()[2])  # a pipe: one line a row
    for columns in (50, 80):
        narrow = draw(columns)
        assert_fits(narrow, whole, columns, "a table")
        assert "causal_self_attention" in narrow and "masked_attention" in narrow
    stacked = draw(30)  # narrower than its longest words side by side: a block a row
    assert_fits(stacked, whole, 30, "a table")
    assert re.search(r"^ +properties  12 of 14$", stacked, re.M) and "  causal_self_attention\n" in stacked


# -- the screens ------------------------------------------------------------------------------------


def test_the_screens_without_a_judge_fit_80_and_120_columns(box):
    outs = check(box, state=snapshot(box))  # bare dojo, the first time: the welcome
    assert "Welcome to attention dojo" in outs[80]
    for args in (("list",), ("--help",), ("help", "interview"), ("show", "masked_attention"),
                 ("followups", "masked_attention", "--answers")):
        check(box, *args)
    write_history(box)
    outs = check(box, "history")
    assert "causal_self_attention" in outs[80]


def test_no_color_and_a_dumb_terminal_get_no_colour_and_the_same_layout(box):
    coloured = on_terminal(box, 80, "show", "softmax")
    assert "\x1b[" in coloured
    for plain in ({"NO_COLOR": "1"}, {"TERM": "dumb"}):
        _, out = in_pty(box.command("show", "softmax"), 80, {**terminal_environ(box), **plain}, box.root)
        assert "\x1b[" not in out, plain
        assert screen_lines(out) == screen_lines(coloured), plain  # wrapped the same, only uncoloured


def test_the_progress_table_takes_one_line_a_kata_at_80_columns(box):
    write_progress(box)
    write_history(box)
    outs = {k: "\n".join(screen_lines(v)) for k, v in check(box, "list").items()}
    for columns in WIDTHS:
        rows = [ln for ln in screen_lines(outs[columns]) if re.match(r"  \d+\. ", ln)]
        by_track = [k.module for track in registry.TRACKS for k in registry.KATAS if k.track == track]
        assert [ln.split()[1] for ln in rows] == by_track, outs[columns]  # grouped under their tracks
        assert len(screen_lines(outs[columns].strip())) == 2 + len(registry.TRACKS) + len(registry.KATAS)
    assert "failing: 9 of 17 properties pass" in outs[None]  # a pipe: the words it always had
    assert "failing: 9 of 17 properties pass" in outs[120]
    assert re.search(r"2\. masked_attention +medium +failing 9/17 +1/5", outs[80])  # a narrow one: shorter
    assert re.search(r"6\. flash_attention +hard +gave up 11/11 ", outs[80])


def test_a_verdict_fits_80_and_120_columns_from_one_judge_run(tmp_path, monkeypatch):
    """Judged once on a terminal 80 columns wide (the judge prints its arrays for that width),
    then drawn on terminals of 80 and 120 columns and into a pipe."""
    from dojo.judge.runner import judge

    monkeypatch.delenv("COLUMNS", raising=False)
    kata = registry.get("masked_attention")
    impl = tmp_path / "impl"
    impl.mkdir()
    shutil.copy(WRONG / "masked_attention" / "wrong" / "inverted_mask.py", impl / "masked_attention.py")
    term = Terminal(80)
    verdict = judge(Env(root=REPO, state_dir=tmp_path / "state", stdout=term.stream), kata, impl)
    term.close()
    assert verdict.state == "failing" and verdict.diagnosis == "masked_attention/inverted_mask"

    def lines(env):
        return verdict_lines(env, verdict, kata, "katas/masked_attention.py")

    whole = say_on(None, lines)
    for columns in WIDTHS:
        text = say_on(columns, lines)
        assert_fits(text, whole, columns, "the verdict")
        assert text.count("✗") == whole.count("✗") and "First failure:" in text
    arrays = [ln for ln in whole.splitlines() if ln.lstrip().startswith("[")]
    assert arrays and max(map(len, arrays)) <= 80  # printed for the terminal it was judged on


def test_a_long_diff_line_at_80_columns_continues_with_its_sign(monkeypatch):
    """compare's diff went to the screen's word wrapping: the tail of a long ``-`` line started
    at column 0 with no mark, where it reads as unchanged code (issue 35). On a terminal of 80
    or 120 columns every line of the diff starts with +, - or a space (or is a header), and a
    continuation says so."""
    from dojo.commands.compare.report import CONTINUED, diff_lines

    monkeypatch.delenv("COLUMNS", raising=False)
    removed = "-    scores = np.where(mask, scores, -1e9)  # blocked scores get a large negative number instead of -inf, " \
              "which is what torch does too"
    diff = ["--- reference", "+++ katas/masked_attention.py", "@@ -1,3 +1,3 @@", removed,
            "+    scores = np.where(mask, scores, -np.inf)", "     return weights @ v"]
    whole = say_on(None, lambda env: diff_lines(env, diff))
    assert whole.splitlines()[3] == removed  # a pipe: every line whole
    for columns in WIDTHS:
        shown = screen_lines(say_on(columns, lambda env: diff_lines(env, diff)))
        assert all(cells(ln) <= columns for ln in shown), shown
        body = [ln for ln in shown[3:] if ln]  # (the last line's end)
        assert all(ln[:1] in ("+", "-", " ") for ln in body), shown  # no tail at column 0
        tail = body[1:body.index("+    scores = np.where(mask, scores, -np.inf)")]
        assert len(tail) == (cells(removed) - 1) // (columns - 1)
        assert all(ln.startswith("-" + CONTINUED) for ln in tail), shown
        assert body[0] + "".join(ln[2:] for ln in tail) == removed  # nothing lost


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_verdict_header_at_80_columns_continues_under_its_title(monkeypatch, lang):
    """masked attention's header wrapped "(katas/masked_attention.py)" onto a line of its own
    at column 0 (issue 35): on a terminal it continues under the title, in both languages."""
    from dojo.judge.verdict import Verdict
    from dojo.text import locale

    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.setattr(locale, "LANGUAGE", lang)
    kata = registry.get("masked_attention")
    verdict = Verdict("masked_attention", "failing", total=17, passed=9)

    def lines(env):
        return verdict_lines(env, verdict, kata, "katas/masked_attention.py")[:1]

    whole = say_on(None, lines)
    for columns in WIDTHS:
        shown = [ln for ln in screen_lines(say_on(columns, lines)) if ln.strip()]
        assert_fits("\n".join(shown), whole, columns, "the header")
        assert "(katas/masked_attention.py)" in "\n".join(shown), shown
        assert all(ln.startswith(" " * (len("masked_attention") + 3)) for ln in shown[1:]), shown


@pytest.mark.contributors  # live or long: the contributors' suite
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_interview_report_keeps_every_value_in_its_column_at_80_columns(box, lang):
    """The report's "graded copy" path, 73 to 90 columns from the repository (sliding window
    attention's), left its label alone on a line and started at column 0 (English) or 12
    (Chinese) at 80 columns, while every other value sits at 17 (issue 35). The state folder is
    where a user's is, ``.dojo`` in the repository the tool runs in."""
    box.state = box.root / ".dojo"
    box.state.mkdir()
    answer = WRONG / "sliding_window_attention" / "wrong" / "finite_fill_minus_1e9.py"
    outs = check(box, *_scripted("sliding_window_attention", answer, "300"), lang=lang, state=snapshot(box))
    labels = {"en": ("result", "time", "properties", "judge runs", "hints", "first failure", "behaves like",
                     "score", "folder"),
              "zh": ("结果", "用时", "性质", "评测次数", "提示", "第一处失败", "像已知错误", "分数", "文件夹")}[lang]
    for columns in WIDTHS:
        shown = screen_lines(outs[columns])
        top = next(i for i, ln in enumerate(shown) if ln.startswith(f"  {labels[0]} "))  # under its heading
        head = max(i for i in range(top) if re.match(r"(Interview over|面试结束)", shown[i]))
        hang = cells(shown[head][:shown[head].index("sliding_window_attention")])  # continued under the kata's name
        assert all(ln.startswith(" " * hang) and ln.strip() for ln in shown[head + 1:top]), shown[head:top]
        report = shown[top:shown.index("", top)]
        for ln in report:
            assert cells(ln) <= columns, ln
            label = next((lb for lb in labels if ln.startswith(f"  {lb} ")), None)
            if label is None:  # a value continued, or a file of the folder: under the values
                assert re.match(r" {17}\S", ln), (columns, ln)
            else:  # the value beside its label, from column 17 (a Chinese label is two cells a character)
                assert cells(ln[:len(label) + 2]) < 17 and ln[len(label) + 2:].startswith(" ")
                value = ln[len(label) + 2:].lstrip(" ")
                assert value and cells(ln) - cells(value) == 17, (columns, ln)
        assert report[-3].startswith("  " + labels[-1]), report  # the folder, then the two files in it
        assert re.match(r" {17}sliding_window_attention\.py +\S", report[-2]), report
        assert re.match(r" {17}final/sliding_window_attention\.py +\S", report[-1]), report
        folder = report[-3].split()[-1]
        assert (box.root / folder / "final" / "sliding_window_attention.py").is_file(), folder
        # every path into the attempt fits, the one in `dojo compare … --file FOLDER/` too (the
        # graded copy's own path there was 90 columns)
        paths = [ln for ln in shown[top:] if ".dojo/attempts/" in ln]
        # the statement's "Write your answer in:" path was 83 columns alone: the folder beside the
        # label, then the file's name under it, where the whole does not fit
        i = next(i for i, ln in enumerate(shown[:top]) if ".dojo/attempts/" in ln)
        written = shown[i].split()[-1].split("：")[-1]
        if written.endswith("/"):
            assert cells(shown[i + 1]) - cells(shown[i + 1].lstrip()) == cells(shown[i]) - cells(written), shown[i:i + 2]
            written += shown[i + 1].strip()
        assert cells(shown[i]) <= columns and (box.root / written).is_file(), shown[i:i + 2]
        assert len(paths) >= 2 and all(cells(ln) <= columns for ln in paths), paths
        assert any(ln.strip().startswith(f"{folder}`") or f"--file {folder}`" in ln for ln in paths), paths
        if lang == "zh":  # the path after "：" starts its own line; it broke 作答 as "作" / "答：.dojo/…"
            assert "在这个文件里作答：" in "\n".join(shown), outs[columns]


# -- every command (the contributors' suite) ---------------------------------------------------------


def _scripted(kata: str, answer: Path, at: str = "60") -> tuple:
    return ("interview", kata, "--answer", str(answer), "--at", at)


#: (name, how to set up the sandbox, the command, keys to type): every command of the tool.
COMMANDS = [
    ("version", None, ("--version",), ()),
    ("help", None, ("help",), ()),
    *[(f"help-{c}", None, (c, "--help"), ()) for c in (
        "list", "check", "show", "test", "hint", "restore", "watch", "reset", "solution", "followups",
        "interview", "history", "compare", "drill", "clean", "help")],
    ("bare", "progress", (), ()),
    ("show", None, ("show", "batched_attention"), ()),
    ("check", None, ("check",), ()),
    ("test-not-started", None, ("test", "softmax"), ()),
    ("test-diagnosed", "global-max", ("test", "softmax"), ()),
    ("test-raises", "raises", ("test", "rope"), ()),
    ("test-syntax-error", "syntax", ("test", "flash_attention"), ()),
    ("test-passes", "passes", ("test", "causal_self_attention"), ()),
    ("test-many-calls", "gqa", ("test", "grouped_query_attention"), ()),
    ("watch", None, ("watch", "softmax"), ((r"properties pass|not started", "h"), ("hint 1 of", "q"))),
    ("hint", None, ("hint", "softmax"), ()),
    ("hints-all-shown", "hints-used", ("hint", "softmax"), ()),
    ("solution", None, ("solution", "softmax", "--give-up"), ()),
    ("followups", None, ("followups", "flash_attention", "--answers"), ()),
    ("interview-failed", None, _scripted("softmax", WRONG / "softmax" / "wrong" / "global_max_shift.py"), ()),
    ("interview-coached", None, ("interview", "rope", "--coach", "--answer",
                                 str(WRONG / "rope" / "wrong" / "float32_angles.py"), "--at", "100"), ()),
    ("interview-too-late", None, ("interview", "softmax", "--minutes", "1", "--answer",
                                  str(SOLUTIONS / "softmax.py"), "--at", "90"), ()),
    ("interview-live", None, ("interview", "softmax"), (("⏱", "h"), ("hint 1 of", "q"), (r"\[y/N\]", "y"))),
    ("interview-loop", None, ("interview", "--loop", "--answer", str(SOLUTIONS / "softmax.py"), "--at", "240",
                              "--answer", str(SOLUTIONS / "masked_attention.py"), "--at", "900", "--answer",
                              str(WRONG / "causal_self_attention" / "wrong" / "scale_by_sqrt_d_model.py"), "--at", "1500"), ()),
    ("history", "history", ("history",), ()),
    ("drill", "history", ("drill", "--answer", str(SOLUTIONS / "softmax.py"), "--at", "30"), ()),
    ("clean", "attempts", ("clean", "--dry-run", "--days", "0"), ()),
    ("compare", "triu", ("compare", "causal_self_attention", "--no-speed"), ()),
    ("reset", "global-max", ("reset", "softmax", "--yes"), ()),
    ("restore", "backups", ("restore", "softmax", "--list"), ()),
    ("usage-error", None, ("test", "12"), ()),
    ("argument-error", None, ("interview", "--minutes", "0"), ()),
]


def set_up(box: Sandbox, how: str | None) -> None:
    if how == "progress":
        write_progress(box)
        write_history(box)
        box.set_clock(4 * 86400)
    elif how == "global-max":
        box.write_kata("softmax", WRONG / "softmax" / "wrong" / "global_max_shift.py")
    elif how == "raises":
        box.write_kata("rope", "import numpy as np\n\ndef rope(x, positions, base=10000.0):\n    raise KeyError('oops')\n")
    elif how == "syntax":
        box.write_kata("flash_attention", "def flash_attention(:\n")
    elif how == "passes":
        box.write_kata("causal_self_attention", SOLUTIONS / "causal_self_attention.py")
    elif how == "gqa":
        box.write_kata("grouped_query_attention", WRONG / "grouped_query_attention" / "wrong" / "ignores_causal.py")
    elif how == "hints-used":
        (box.state / "state.json").write_text(json.dumps(
            {"version": 1, "welcomed": True, "katas": {"softmax": {"hints_used": 4}}}))
    elif how == "history":
        write_history(box)
        box.set_clock(4 * 86400)
    elif how == "attempts":
        write_history(box)
        for rec in ("attempts/20270110-080000-softmax", "attempts/20270115-080000-softmax"):
            (box.state / rec / "final").mkdir(parents=True)
            (box.state / rec / "softmax.py").write_text("x = 1\n")
        box.set_clock(40 * 86400)
    elif how == "triu":
        box.write_kata("causal_self_attention", WRONG / "causal_self_attention" / "wrong" / "triu_mask.py")
    elif how == "backups":
        box.write_kata("softmax", WRONG / "softmax" / "wrong" / "global_max_shift.py")
        assert box.run("reset", "softmax", "--yes").code == 0


@pytest.mark.contributors  # live or long: the contributors' suite
@pytest.mark.parametrize("name,how,args,keys", COMMANDS, ids=[c[0] for c in COMMANDS])
def test_every_command_fits_80_and_120_columns(box, name, how, args, keys):
    set_up(box, how)
    outs = check(box, *args, keys=keys, state=snapshot(box))
    assert outs[80].strip() and outs[120].strip()
