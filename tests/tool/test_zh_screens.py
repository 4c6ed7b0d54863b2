"""Every screen in Chinese: with DOJO_LANG=zh, each command of the tool (the list of
tests/tool/test_layout.py: the progress table, show, test on a wrong and a right answer, watch,
an interview and a loop, follow-ups with answers, compare, drill, history, help, usage errors)
prints no English sentence outside code, identifiers and formulas, and fits 80 columns in a
real terminal (the progress table also 120), its tables lined up in cells.

Which bug each test catches: a sentence that never went through the catalogue (an f-string in
a renderer), a message id whose Chinese is missing (the English shows through), a text that
comes from where English lives (a title, a property's docstring, a bug's description) without
its lookup, a table padded in characters instead of cells.
"""

from __future__ import annotations

import re

import pytest

from tests.tool.terminal import screen_lines
from tests.tool.test_layout import COMMANDS, check, set_up, snapshot

#: Words that stay English in Chinese text: names of tools, libraries, exceptions and values.
ALLOWED = {
    "dojo", "numpy", "pytorch", "torch", "hypothesis", "pytest", "python", "valueerror", "keyerror", "typeerror",
    "runtimeerror", "notimplementederror", "systemexit", "keyboardinterrupt", "assertionerror", "indexerror",
    "nan", "inf", "float", "dtype", "softmax", "logits", "logsumexp", "flashattention", "rope", "gqa", "kv",
    "json", "exercism", "query", "key", "value", "keys", "queries", "values", "elu", "alibi", "mla", "sdpa",
    "exp", "log", "max", "sum", "sqrt", "tril", "triu", "mask", "causal", "true", "false", "none", "bool",
    "kata", "katas", "stub", "help", "usage", "shift", "ok", "git", "cpu", "gpu", "blas", "landlock", "seccomp",
    "tmux", "png", "html", "unicode", "utf", "lang", "zh", "en", "mib", "kib", "gib", "cuda", "bfloat",
    "import", "jax", "tensorflow", "scipy", "sklearn", "out", "weights", "lse",
}


def english_runs(text: str, code: str = "") -> list[str]:
    """Runs of three or more English words in ``text``, leaving out code: `spans`, identifiers
    (with _ . / = ( ) or digits), commands (dojo …, --flags), the words above, and any line
    fragment that is the candidate's own code (``code``: the files judged)."""
    found = []
    code_lines = {ln.strip() for ln in code.splitlines() if len(ln.strip()) >= 6}
    code_words = " " + " ".join(re.findall(r"[A-Za-z][a-z]+(?:'[a-z]+)?", code)) + " "  # code wrapped anyhow
    for line in text.splitlines():
        line = re.sub(r"\x1b\[[0-9;]*m", "", line)
        for piece in code_lines:
            line = line.replace(piece, " ")
        line = re.sub(r"`[^`]*`", " ", line)
        line = re.sub(r"\bdojo(\s+[a-z][a-z_-]*)*", " ", line)  # a command line
        words, counted = [], 0  # a run of words; the words of it that are not ALLOWED
        for token in re.split(r"[\s，。：；、！？（）「」—…·•✓✗⏱│|]+", line):
            plain = token.strip(",.:;!?\"'()[]{}<>")
            if re.fullmatch(r"[A-Za-z][a-z]+(?:'[a-z]+)?", plain):
                words.append(plain)
                counted += plain.lower() not in ALLOWED
                continue
            if counted >= 3 and f" {' '.join(words)} " not in code_words:
                found.append(" ".join(words))
            words, counted = [], 0
        if counted >= 3 and f" {' '.join(words)} " not in code_words:
            found.append(" ".join(words))
    return found


def test_the_detector_finds_english_and_lets_code_through():
    assert english_runs("第 1 题：the judge stopped here") == ["the judge stopped here"]
    assert english_runs("用 `dojo test softmax` 评测，np.max(x, axis=-1) 不变，ValueError: x is 0-d") == []
    assert english_runs("dojo test softmax --json out.json") == []
    assert english_runs("    e = np.exp(x - x.max())  # shift by the global max", "e = np.exp(x - x.max())  # shift by the global max") == []
    assert english_runs("形状 (n, m)：Query and key widths differ") == ["Query and key widths differ"]
    assert english_runs("two words only 和 NaN in x") == ["two words only"]


#: Keys typed into the screens that wait for them, found by what the Chinese screen shows.
ZH_KEYS = {
    "watch": ((r"性质通过|还没开始|未开始", "h"), (r"提示 1", "q")),
    "interview-live": (("⏱", "h"), (r"提示 1", "q"), (r"\[y/N\]", "y")),
}


def _chinese(box_):
    english_environ = box_.environ

    def environ():
        env = english_environ()
        env["DOJO_LANG"] = "zh"
        return env
    box_.environ = environ
    return box_


def _code(path) -> str:
    """A Python file without its docstrings: a contract is prose, and must be in Chinese."""
    import ast

    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and ast.get_docstring(node):
            doc = node.body[0]
            for i in range(doc.lineno - 1, doc.end_lineno):
                lines[i] = ""
    return "\n".join(lines)


def _answers(args) -> str:
    from pathlib import Path

    files = [a for a in args if a.endswith(".py")]
    return "\n".join(_code(Path(f)) for f in files if Path(f).is_file())


@pytest.mark.contributors  # every command, judge and all: the contributors' suite
@pytest.mark.parametrize("name,how,args,keys", COMMANDS, ids=[c[0] for c in COMMANDS])
def test_every_command_speaks_chinese(box, name, how, args, keys):
    zh = _chinese(box)
    set_up(zh, how)
    code = "\n".join(_code(p) for folder in ("katas", "solutions")  # code is code; its prose is not
                     for p in (zh.root / folder).glob("*.py")) + _answers(args)
    # piped and at 80 columns: the narrowest terminal is where a Chinese line is cut and wraps
    # (wide characters fill two cells); 120 columns shows the same words (test_layout.py fits
    # every English screen at both), and a third run of each command cost CI a minute
    outs = check(zh, *args, keys=ZH_KEYS.get(name, keys), state=snapshot(zh), widths=(80,))
    for width, out in outs.items():
        english = english_runs(out, code)
        assert not english, f"dojo {' '.join(args)} (at {width or 'a pipe'}) shows English:\n" + "\n".join(english) + "\n\n" + out


def _cells(line: str) -> list[str]:
    """A line as the terminal's cells: a wide character fills two (the second left empty)."""
    from dojo.text.cjk import wide

    out = []
    for ch in line:
        out += [ch, ""] if wide(ch) else [ch]
    return out


def misaligned(text: str) -> list[str]:
    """The rows of each table in ``text`` (a header, then a rule of ─ under each column) whose
    text crosses a column's boundary: a column starts at its rule, and the two cells before it
    are blank, on the header and on every indented row until the table ends (a blank line)."""
    lines = [ln.rstrip() for ln in screen_lines(text)]
    bad = []
    for i, rule in enumerate(lines):
        if not re.fullmatch(r"\s*─+(\s+─+)*", rule) or i == 0:
            continue
        cells_rule = _cells(rule)
        starts = [c for c, ch in enumerate(cells_rule) if ch == "─" and (c == 0 or cells_rule[c - 1] == " ")]
        rows = [lines[i - 1]]
        for ln in lines[i + 1:]:
            if not ln.strip():
                break
            if ln.startswith("  "):
                rows.append(ln)
        for row in rows:
            cells = _cells(row)
            for c in starts[1:]:
                if any(ch not in (" ",) for ch in cells[c - 2:c]) and len(cells) > c - 2:
                    bad.append(f"column at cell {c}: {row}")
                    break
        header = _cells(lines[i - 1])
        if any(c < len(header) and header[c] in (" ", "") for c in starts):
            bad.append(f"a header does not start at its column: {lines[i - 1]}")
    return bad


def test_the_detector_of_misaligned_tables():
    good = "  题目      状态\n  ────────  ──────\n  1. 软件   未开始\n"
    assert misaligned(good) == []
    by_characters = "  题目      状态\n  ────────  ──────\n  1. 软件数值  未开始\n"  # ljust in characters
    assert misaligned(by_characters)


@pytest.mark.parametrize("columns", (80, 120))
def test_a_chinese_progress_table_lines_up_in_a_terminal(box, columns):
    """The progress table, its headers, status words and titles in Chinese, in a real pty."""
    from tests.tool.test_layout import on_terminal

    zh = _chinese(box)
    set_up(zh, "progress")
    out = on_terminal(zh, columns)
    assert "─" in out and re.search(r"[\u4e00-\u9fff]", out), out
    assert not misaligned(out), "\n".join(misaligned(out)) + "\n\n" + out
    assert not english_runs(out), out
