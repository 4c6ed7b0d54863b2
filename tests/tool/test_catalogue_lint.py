"""Lints of the catalogues' Chinese (and of the code that fills them) for what a reader saw on
the screens of issue 35, each a check that would have found it:

- a template's space beside its placeholder, there for an identifier ("{what} 不对"), left
  between two Chinese words when the value is Chinese ("沿 axis 0 每个切片的和 不对。");
- a number parted from its unit at the end of a line ("单次调用最多 2" / "s CPU");
- an ASCII comma between the items of a list in Chinese, where 、 belongs ("flash_attention,
  sliding_window_attention" in a Chinese sentence), in a catalogue or in what the code joins;
- two Chinese terms for one idea ("列数不同" beside "宽度（d_k）不同"): a glossary entry's
  English always comes out as that entry's Chinese term.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from dojo.text import locale
from dojo.text.messages import _PLACEHOLDER, _fill
from tests.tool.test_catalogues import REPO, _chinese_texts, _files, _path, _read

#: Two Chinese characters one space apart (a wider gap lines up a column, on purpose).
SPACE_IN_CHINESE = re.compile("(?<! )[\u4e00-\u9fff] [\u4e00-\u9fff](?! )")


def _strings(value):
    """Every string in a catalogue value (a string, or a list of them)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)


def _catalogue(lang: str) -> dict[str, str]:
    """Every template of a language: ``{where: text}`` (a list's items each on their own)."""
    out = {}
    for rel in sorted(_files(lang)):
        for key, value in _read(_path(lang, rel)).items():
            for i, s in enumerate(_strings(value)):
                out[f"{rel}:{key}" + (f"[{i}]" if i else "")] = s
    return out


def _pairs() -> list[tuple[str, str, str]]:
    """(where, English, Chinese) of every message both languages have, a list item by item, and
    of each kata's contract (the stub's docstring), hints and follow-ups (whose English lives
    with the kata's code)."""
    from dojo.catalogue import registry
    from dojo.catalogue.stubs import english_docstring

    en, zh = _catalogue("en"), _catalogue("zh")
    pairs = [(where, en[where], zh[where]) for where in sorted(en.keys() & zh.keys())]
    for kata in registry.KATAS:
        chinese = _read(locale.KATAS / kata.module / "zh" / "kata.toml")
        pairs.append((f"{kata.module}/zh/kata.toml:stub", english_docstring(kata.solution_path, kata.function),
                      chinese.get("stub", "")))
        pairs += [(f"{kata.module}/zh/kata.toml:hints[{i}]", e, c)
                  for i, (e, c) in enumerate(zip(kata.hints, locale.kata_hints(kata, "zh")))]
        pairs += [(f"{kata.module}/zh/kata.toml:followup[{i}]", f"{e.question}\n{e.answer}", f"{c.question}\n{c.answer}")
                  for i, (e, c) in enumerate(zip(kata.followup_answers, locale.kata_followups(kata, "zh")))]
    return pairs


# -- a template's space beside a Chinese value ---------------------------------------------------------


def test_no_chinese_template_leaves_a_space_between_chinese_words_when_filled_with_chinese():
    """Every placeholder of every Chinese template filled with Chinese words, then with an
    identifier: no space is left between two Chinese characters, and the identifier keeps its
    spaces ("softmax(x) 不对")."""
    found, kept = [], 0
    for where, template in _catalogue("zh").items():
        names = set(_PLACEHOLDER.findall(template))
        if not names:
            continue
        for line in template.split("\n"):
            for name in names:  # one at a time: two values side by side ("{a} {b}") are not the template's
                chinese = _fill(line, {n: "每个切片的和" if n == name else "x1" for n in names}, "zh")
                found += [f"{where}: …{m.group(0)}… in {chinese!r}" for m in SPACE_IN_CHINESE.finditer(chinese)]
            latin = _fill(line, {n: "softmax(x)" for n in names}, "zh")
            kept += bool(re.search(r"softmax\(x\) [\u4e00-\u9fff]|[\u4e00-\u9fff] softmax\(x\)", latin))
    assert not found, "a template's space left between Chinese words:\n" + "\n".join(found)
    assert kept > 50  # the spaces an identifier needs are still there


# -- a number and its unit -----------------------------------------------------------------------------

#: What follows a number in the catalogues as its unit (a time, a size, a share, a count of
#: cells or times): each must stay on the number's line.
UNITS = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?|\{[A-Za-z_]+\}) (s|ms|µs|ns|min|h|B|KB|KiB|MB|MiB|GB|GiB|kB|%|秒|"
                   r"毫秒|分钟|小时|字节)(?![\w])")


def test_every_number_keeps_its_unit_on_its_line():
    """Every "2 s", "{limit} s", "16 MiB" of every catalogue, in both languages, is glued by
    the layout (``dojo.text.layout.glue_quoted``): a line never ends at the number."""
    from rich.text import Text

    from dojo.text.layout import GLUE, glue_quoted

    found, seen = [], 0
    for lang in ("en", "zh"):
        for where, template in _catalogue(lang).items():
            for m in UNITS.finditer(template):
                seen += 1
                number = "2" if m.group(1).startswith("{") else m.group(1)
                said = f"it takes {number} {m.group(2)} CPU"
                if GLUE not in glue_quoted(Text(said)).plain:
                    found.append(f"{lang} {where}: {m.group(0)!r}")
    assert seen > 20
    assert not found, "a number and a unit a line may part:\n" + "\n".join(found)


# -- lists in Chinese -----------------------------------------------------------------------------------

#: An ASCII comma with Chinese on both sides (outside code, where 、 or ， belongs).
COMMA_IN_CHINESE = re.compile(r"[\u4e00-\u9fff][)）]?, ?[\u4e00-\u9fff]")


#: A bracket's content: a tuple or an index in it is code-like ("(序列, 位置)", "log_probs[前一个, 后一个]").
BRACKETED = re.compile(r"\([^()]*\)|\[[^\[\]]*\]|（[^（）]*）")


def _in_a_tuple(text: str, at: int) -> bool:
    """Whether ``at`` is inside brackets holding no Chinese punctuation (a tuple, an index)."""
    return any(m.start() < at < m.end() and not re.search("[，。、；：]", m.group(0))
               for m in BRACKETED.finditer(text))


def test_no_chinese_text_separates_chinese_items_by_an_ascii_comma():
    found = []
    for where, text in _chinese_texts().items():
        prose = re.sub(r"`[^`\n]*`", "", text)
        found += [f"{where}: …{m.group(0)}…" for m in COMMA_IN_CHINESE.finditer(prose)
                  if not _in_a_tuple(prose, m.start() + 1)]
    assert not found, "an ASCII comma between Chinese items (、 or ， belongs there):\n" + "\n".join(found)


#: Calls that fill a catalogue sentence from keyword arguments.
FILLERS = {"message", "words", "t", "say", "_say", "styled"}
#: Lists the code may join with ", " inside a sentence: numbers and code, which read the same in
#: every language (a list of names is joined by ``dojo.text.messages.listed``, or passed as a list).
NUMBERS_OR_CODE = {
    ("dojo/catalogue/katas/beam_search/demos.py", "finals"),  # scores: 0.123, 0.456
    ("dojo/catalogue/katas/rope/demos.py", "pairs"),  # (0, 4), (8, 12)
    ("dojo/catalogue/katas/rope/demos.py", "scores"),
    ("dojo/catalogue/katas/rope/demos.py", "offsets"),
    ("dojo/catalogue/katas/alibi_attention/demos.py", "slopes"),  # 1/2, 1/4
    ("dojo/commands/compare/agreement.py", "names"),  # a tuple's names: (out, weights)
    ("dojo/commands/compare/report.py", "sizes"),  # n = 128, 512, 2048
    ("dojo/commands/cli/entry.py", "choices"),  # --lang's values
}


def _joined_params(path: Path):
    """(keyword, line) of every ``", ".join(...)`` given to a sentence, directly or through a
    local name assigned it in the same function."""
    tree = ast.parse(path.read_text(encoding="utf-8"))

    def is_join(node) -> bool:
        return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "join"
                and isinstance(node.func.value, ast.Constant) and node.func.value.value in (", ", ","))

    for fn in [tree, *[n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]]:
        joined = {t.id for n in ast.walk(fn) if isinstance(n, ast.Assign) and is_join(n.value)
                  for t in n.targets if isinstance(t, ast.Name)}
        for call in ast.walk(fn):
            if not isinstance(call, ast.Call):
                continue
            name = call.func.id if isinstance(call.func, ast.Name) else getattr(call.func, "attr", None)
            if name not in FILLERS:
                continue
            for kw in call.keywords:
                if is_join(kw.value) or (isinstance(kw.value, ast.Name) and kw.value.id in joined):
                    yield kw.arg, call.lineno


def test_no_sentence_gets_a_list_of_names_joined_by_an_ascii_comma():
    """A list of kata or module names joined by ", " came out in Chinese as "flash_attention,
    sliding_window_attention"; names go through ``listed`` (or as a list: a message's list of
    strings is joined in the language it is read in)."""
    found = set()
    for path in sorted((REPO / "dojo").rglob("*.py")):
        rel = path.relative_to(REPO).as_posix()
        for arg, lineno in _joined_params(path):
            if (rel, arg) not in NUMBERS_OR_CODE:
                found.add(f"{rel}:{lineno}: {arg}=\", \".join(...)")
    assert not found, "names joined by an ASCII comma in a sentence (use messages.listed):\n" + "\n".join(sorted(found))


def test_a_list_in_a_message_is_read_in_the_language_that_shows_it():
    from dojo.text.messages import message, text

    said = message("kata.numpy-only.no-line", file="softmax.py", module="torch", forbidden=["torch", "jax", "scipy"])
    assert "(torch, jax, scipy …" in text(said, "en")
    assert "（torch、jax、scipy …" in text(said, "zh")
    from dojo.worker.loader import numpy_only_message

    assert "（torch、jax、jaxlib、tensorflow、scipy …" in text(numpy_only_message("softmax.py", "torch", 3), "zh")
    # the list crosses from the candidate's worker: a few short names, nothing else
    from dojo.worker.loader import load_message

    sent = numpy_only_message("softmax.py", "torch", 3)
    assert load_message(sent) == sent
    for forged in (["x"] * 11, [1, 2], ["x" * 41], [["torch"]]):
        assert load_message({**sent, "params": {**sent["params"], "forbidden": forged}}) is None, forged


# -- one term per glossary entry ----------------------------------------------------------------------


def _glossary_terms() -> list[tuple[str, set[str]]]:
    """(English term, its Chinese forms) of each glossary entry with one English term: the forms
    are the words of its Chinese column ("注意力分数，简称 分数": both; "评测器（"评测"作动词）": both)."""
    text = (REPO / "docs" / "zh-glossary.md").read_text(encoding="utf-8")
    out = []
    for row in re.findall(r"^\|(.+)\|\s*$", text, re.M):
        cells = [c.strip() for c in row.split("|")]
        if len(cells) != 3 or cells[0] in ("English", "---"):
            continue
        english = re.sub(r"\s*\(.*?\)", "", cells[0]).strip()
        if "/" in english or "/" in re.split(r"[（(，,]", cells[1])[0] or not re.fullmatch(r"[A-Za-z][A-Za-z -]+", english):
            continue  # a row of alternatives ("query / key / value") names no one term
        forms = set(re.findall(r"[\u4e00-\u9fff]+|[A-Za-z][\w-]*", cells[1])) - {"简称", "作动词", "命令里写"}
        out.append((english, forms))
    return out


#: Code in an English message, where a glossary word is a name (``mask[i, j]``, ``{name}``,
#: ``key_padding_mask``, ``beam_search()``, ``%kata hint``), not the idea.
ENGLISH_CODE = re.compile(r"`[^`]*`|\{\w+\}|\b\w+\[[^\]]*\]|\b[a-z_]+_[a-z_]+\b|\b\w+\(\)?|%+kata \w+")
#: (message, English term) where the English word is not the glossary's idea.
NOT_THE_IDEA = {
    ("cli.toml:cli.welcome.greeting", "attention"),  # the tool's name, attention dojo
    ("beam_search/judge.toml:fail.not-pair", "score"),  # the tuple's member `scores`
    ("beam_search/judge.toml:fail.not-sorted", "score"),
    ("cli.toml:cli.clean.best-score", "score"),  # an interview's score (最高分), not an attention score
    ("interview.toml:history.column.best-score", "score"),
    ("cli.toml:cli.test.description", "kata"),  # "the kata you are on": 你正在做的那道
    ("cli.toml:cli.test.help", "kata"),
    ("cli.toml:cli.clean.warm-judge", "verdict"),  # "the next verdict": 下次评测
    ("cli.toml:cli.parser.epilog", "verdict"),
    ("batched_attention/zh/kata.toml:hints[3]", "mask"),  # the argument: "a bool (B, n) mask"
    ("multihead_attention/zh/kata.toml:followup[2]", "case"),  # "the extreme case", not a test case
    ("moe_layer/zh/kata.toml:followup[1]", "case"),  # "the three cases" of a demonstration
    ("softmax/zh/kata.toml:followup[2]", "significand"),  # "an 11-bit significand": 11 位有效位 (尾数 stores 10)
    *[(f"masked_attention/judge.toml:{key}", "mask") for key in (  # the argument `mask`
        "because.mask-dtype", "because.mask-shape", "because.no-allowed-key", "fail.blocked-not-zero",
        "what.all-true", "why.all-true", "why.no-mask", "why.single-key")],
}


def test_a_glossary_entry_is_said_with_its_one_term():
    """Where the English of a message says a glossary entry's term ("q and k have different
    widths"), its Chinese says that entry's term (宽度), not another word for it ("列数不同"
    beside "宽度（d_k）不同"; "峰值内存" beside "内存峰值")."""
    terms = _glossary_terms()
    assert ("width", {"宽度"}) in terms and len(terms) >= 40, terms
    found = []
    for where, english, chinese in _pairs():
        prose = ENGLISH_CODE.sub(" ", english)
        for en, forms in terms:
            if re.search(rf"\b{re.escape(en)}(s|es)?\b", prose, re.I) and not any(f in chinese for f in forms) \
                    and (where, en) not in NOT_THE_IDEA:
                found.append(f"{where}: {en!r} is not {'/'.join(sorted(forms))} in {chinese!r}")
    assert not found, "a glossary term said another way (docs/zh-glossary.md):\n" + "\n".join(found)
