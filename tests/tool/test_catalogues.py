"""The catalogues (``dojo/text/locale/<lang>/``, and each kata's ``dojo/catalogue/katas/<kata>/<lang>/``): every message in every language, with the same
placeholders; every kata, property, known bug and battery case in Chinese; Chinese stubs that
translate the English contract they were written from; the glossary's terms kept.

A new English message without its Chinese, a Chinese message whose English is gone, a
placeholder renamed on one side, a kata added without its Chinese: each fails here, by name.
"""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import pytest

from dojo.text import cjk, locale
from dojo.catalogue import registry
from dojo.catalogue.stubs import docstring_sha, english_docstring, stub_source

REPO = Path(__file__).resolve().parents[2]
HERE = locale.HERE
LANGUAGES = ("en", "zh")
PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")
#: A kata's keys that only a translation has (the English lives with its code).
TRANSLATION_ONLY = re.compile(r"^(title|hints|followup|stub|stub_source|track\..+|property\..+|bug\..+|case\..+"
                              r"|battery\..+)$")
KATAS = [k.module for k in registry.KATAS]


def _files(lang: str) -> set[str]:
    """A language's files, by name: a general one as ``cli.toml``, a kata's as ``<kata>/judge.toml``."""
    general = {p.name for p in (HERE / lang).glob("*.toml")}
    return general | {f"{p.parent.parent.name}/{p.name}" for p in locale.KATAS.glob(f"*/{lang}/*.toml")}


def _path(lang: str, rel: str) -> Path:
    """The file ``_files`` names ``rel``."""
    kata, _, name = rel.rpartition("/")
    return locale.KATAS / kata / lang / name if kata else HERE / lang / name


def _kata_file(lang: str, kind: str, module: str) -> dict:
    """One kata's words of a kind (``kata``, ``judge``, ``battery``) in ``lang``; {} without the file."""
    path = locale.KATAS / module / lang / f"{kind}.toml"
    return _read(path) if path.exists() else {}


def _read(path: Path) -> dict:
    with open(path, "rb") as f:
        return locale.flatten(tomllib.load(f))


def _placeholders(value) -> set[str]:
    if isinstance(value, str):
        return set(PLACEHOLDER.findall(value))
    if isinstance(value, list):
        return set().union(*(_placeholders(v) for v in value)) if value else set()
    if isinstance(value, dict):
        return set().union(*(_placeholders(v) for v in value.values())) if value else set()
    return set()


def _english_words(text: str) -> int:
    """Words of English prose in a template (placeholders and code-like tokens left out)."""
    prose = PLACEHOLDER.sub(" ", re.sub(r"`[^`]*`|\bdojo(\s+[a-z][a-z_-]*)*", " ", text))  # code, commands
    return len([w for w in re.findall(r"[A-Za-z][a-z']+", prose) if len(w) > 2])


def test_every_english_file_has_its_chinese_file():
    missing = sorted(_files("en") - _files("zh"))
    assert not missing, f"in English but not in Chinese (en/ without its zh/): {missing}"


def test_every_chinese_general_file_has_its_english_file():
    extra = sorted(f for f in _files("zh") - _files("en") if "/" not in f and f != "tracks.toml")
    assert not extra, f"in dojo/text/locale/zh/ without an English file: {extra}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_language_says_each_general_message_once(lang):
    locale.general.cache_clear()
    assert locale.general(lang)  # raises on an id in two files or a file that is not TOML


def test_the_general_messages_are_the_same_ids_in_each_language():
    en, zh = locale.general("en"), locale.general("zh")
    zh_only = {k for k in zh if not k.startswith("track.")}
    assert not sorted(set(en) - set(zh)), f"no Chinese for: {sorted(set(en) - set(zh))}"
    assert not sorted(zh_only - set(en)), f"Chinese for messages English no longer has: {sorted(zh_only - set(en))}"


def test_a_translation_has_exactly_the_placeholders_of_the_english():
    problems = []
    pairs = [(k, v, locale.general("zh").get(k)) for k, v in locale.general("en").items()]
    for rel in sorted(_files("en")):
        if "/" in rel:
            en, zh = _read(_path("en", rel)), _read(_path("zh", rel)) if _path("zh", rel).exists() else {}
            pairs += [(f"{rel}:{k}", v, zh.get(k)) for k, v in en.items()]
    for key, english, chinese in pairs:
        if chinese is None:
            problems.append(f"{key}: no Chinese")
        elif _placeholders(english) != _placeholders(chinese):
            problems.append(f"{key}: English has {sorted(_placeholders(english))}, "
                            f"Chinese {sorted(_placeholders(chinese))}")
    assert not problems, "\n".join(problems)


def test_a_chinese_message_is_in_chinese():
    """A Chinese text that is the English copied over (or left empty) is caught: where the
    English has prose (two words or more), the Chinese has Chinese characters."""
    problems = []
    en = locale.general("en")
    for key, chinese in locale.general("zh").items():
        english = en.get(key, "")
        if not isinstance(chinese, str) or not chinese.strip():
            problems.append(f"{key}: empty")
        elif _english_words(english) >= 2 and not cjk.has_wide(chinese):
            problems.append(f"{key}: {chinese!r} has no Chinese")
    assert not problems, "\n".join(problems)


def _test_functions(module: str) -> dict[str, str]:
    tree = ast.parse((REPO / "tests" / f"test_{module}.py").read_text(encoding="utf-8"))
    return {n.name: (ast.get_docstring(n) or "") for n in tree.body
            if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")}


def _catalogued_bugs(module: str) -> list[str]:
    """The wrong files a diagnosis can name: those with a description that are not first drafts."""
    stems = []
    for path in sorted((REPO / "tests" / "katas" / module / "wrong").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        drafts = any(isinstance(n, ast.Assign) and any(getattr(t, "id", "") == "FIRST_DRAFT_OF" for t in n.targets)
                     for n in tree.body)
        if ast.get_docstring(tree) and not drafts:
            stems.append(path.stem)
    return stems


def _case_names(module: str) -> list[str]:
    from dojo.catalogue.batteries import BATTERIES

    return [c.name for c in BATTERIES[module].cases] if module in BATTERIES else []


@pytest.mark.parametrize("module", KATAS)
def test_every_kata_is_in_chinese(module):
    kata = registry.get(module)
    zh_kata, zh_judge = _kata_file("zh", "kata", module), _kata_file("zh", "judge", module)
    problems = []
    if not cjk.has_wide(zh_kata.get("title", "")):
        problems.append("no Chinese title")
    if len(zh_kata.get("hints", ())) != len(kata.hints):
        problems.append(f"{len(zh_kata.get('hints', ()))} Chinese hints for {len(kata.hints)} English")
    followups = zh_kata.get("followup", ())
    if len(followups) != len(kata.followup_answers):
        problems.append(f"{len(followups)} Chinese follow-ups for {len(kata.followup_answers)} English")
    for i, f in enumerate(followups, 1):
        if not (cjk.has_wide(f.get("question", "")) and cjk.has_wide(f.get("answer", ""))):
            problems.append(f"follow-up {i}: a question and an answer in Chinese")
    for test in _test_functions(module):
        if not cjk.has_wide(zh_judge.get(f"property.{test}", "")):
            problems.append(f"no Chinese title for the property {test}")
    for stem in _catalogued_bugs(module):
        if not cjk.has_wide(zh_judge.get(f"bug.{stem}", "")):
            problems.append(f"no Chinese description of the known bug {stem}")
    for name in _case_names(module):
        if not zh_judge.get(f"case.{name}", "").strip():
            problems.append(f"no Chinese name for the battery case {name!r}")
    assert not problems, f"{module}:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("module", KATAS)
def test_a_kata_has_no_chinese_for_what_is_gone(module):
    """A Chinese text whose English was removed or renamed (a property, a bug file, a case, a
    message) is an orphan: it would never be shown, and hides a missing translation."""
    tests, cases = set(_test_functions(module)), set(_case_names(module))
    every_bug = {p.stem for p in (REPO / "tests" / "katas" / module / "wrong").glob("*.py")}
    orphans = []
    for kind in ("kata", "judge"):
        folder = f"{module}/zh/{kind}"  # how a problem names the file
        english = _kata_file("en", kind, module)
        for key in _kata_file("zh", kind, module):
            kind, _, name = key.partition(".")
            if key in english:
                continue
            if not TRANSLATION_ONLY.match(key):
                orphans.append(f"{folder}.toml: {key} (no such English message)")
            elif kind == "property" and name not in tests:
                orphans.append(f"{folder}.toml: {key} (no such property)")
            elif kind == "bug" and name not in every_bug:
                orphans.append(f"{folder}.toml: {key} (no such file in tests/katas/{module}/wrong/)")
            elif kind == "case" and name not in cases:
                orphans.append(f"{folder}.toml: {key} (no such battery case)")
    assert not orphans, "\n".join(orphans)


def test_every_track_is_in_chinese():
    names = locale.general("zh")
    missing = [t for t in registry.TRACKS if not cjk.has_wide(names.get(f"track.{t}", ""))]
    assert not missing, f"tracks without a Chinese name (dojo/text/locale/zh/tracks.toml): {missing}"


#: What a contract's code looks like: `spans`, dotted names (np.float64), snake_case names (d_k),
#: numbers in e-notation (1e-9), comparisons and shapes' pieces are checked through these.
CODE = re.compile(r"``[^`\n]+``|`[^`\n]+`|\b[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+\b(?!\.)|\b[A-Za-z]+_[A-Za-z0-9_]+\b"
                  r"|\b\d+(?:\.\d+)?e[-+]?\d+\b")


def _code_tokens(text: str) -> set[str]:
    return {m.group(0) for m in CODE.finditer(text) if m.group(0) not in ("e.g", "i.e")}


@pytest.mark.parametrize("kata", registry.KATAS, ids=lambda k: k.module)
def test_a_chinese_stub_translates_the_english_contract_of_today(kata):
    """The Chinese docstring records the sha256 of the English one it translates: a changed
    English contract fails here until its Chinese is brought up to date (the two cannot drift).
    It keeps every piece of code of the English (identifiers, calls, numbers), and the stub it
    makes is the English stub's code with that docstring."""
    path = locale.KATAS / kata.module / "zh" / "kata.toml"
    zh = _read(path) if path.exists() else {}
    assert zh.get("stub"), f"{kata.module}: no Chinese stub docstring (stub = '''…''' in {path.name})"
    assert zh.get("stub_source") == docstring_sha(kata.solution_path, kata.function), (
        f"{kata.module}: the English contract changed since its Chinese was written: update `stub` in "
        f"dojo/catalogue/katas/{kata.module}/zh/kata.toml, then set stub_source to "
        f"{docstring_sha(kata.solution_path, kata.function)}")
    english = english_docstring(kata.solution_path, kata.function)
    lost = sorted(_code_tokens(english) - _code_tokens(zh["stub"]) - {t for t in _code_tokens(english) if t in zh["stub"]})
    assert not lost, f"{kata.module}: the Chinese contract lost code the English has: {lost}"
    en_stub, zh_stub = (stub_source(kata.solution_path, kata.function, lang) for lang in ("en", "zh"))
    zh_tree = ast.parse(zh_stub)
    assert " ".join(ast.get_docstring(zh_tree.body[-1]).split()) == " ".join(zh["stub"].split())
    assert _without_docstring(en_stub) == _without_docstring(zh_stub)  # the same code around it


def _without_docstring(source: str) -> str:
    tree = ast.parse(source)
    tree.body[-1].body[0].value.value = ""
    return ast.dump(tree)


@pytest.mark.parametrize("kata", registry.KATAS, ids=lambda k: k.module)
def test_a_chinese_model_answer_keeps_the_length_rule_in_cells(kata):
    """3 to 8 lines at 95 columns, as for English, a Chinese character counting 2 columns."""
    low, high = registry.ANSWER_LINES
    chinese = locale.kata_followups(kata, "zh")
    bad = [(i, len(f.answer_lines())) for i, f in enumerate(chinese, 1)
           if f.answer is not kata.followup_answers[i - 1].answer and not low <= len(f.answer_lines()) <= high]
    assert not bad, f"{kata.module}: Chinese answers outside {low}-{high} lines at 95 cells: {bad}"
    for f in chinese:
        assert all(cjk.cells(ln) <= registry.ANSWER_WIDTH for ln in f.answer_lines())


def _glossary_variants() -> list[str]:
    text = (REPO / "docs" / "zh-glossary.md").read_text(encoding="utf-8")
    out = []
    for row in re.findall(r"^\|(.+)\|\s*$", text, re.M):
        cells = [c.strip() for c in row.split("|")]
        if len(cells) == 3 and cells[0] not in ("English", "---"):
            out += [v.strip() for v in re.split(r"[、，,]", cells[2]) if v.strip()]
    return out


def _chinese_texts() -> dict[str, str]:
    texts = {}
    for rel in sorted(_files("zh")):
        for key, value in _read(_path("zh", rel)).items():
            texts[f"{rel}:{key}"] = repr(value)
    for doc in ("README.zh.md", "docs/interview.zh.md"):
        if (REPO / doc).exists():
            texts[doc] = (REPO / doc).read_text(encoding="utf-8")
    return texts


def test_the_glossary_lists_terms_to_avoid():
    assert len(_glossary_variants()) >= 10  # the check below reads them from the table


def test_every_chinese_text_keeps_to_the_glossary():
    variants = _glossary_variants()
    found = [f"{where}: {v}" for where, text in _chinese_texts().items() for v in variants if v in text]
    assert not found, "terms the glossary (docs/zh-glossary.md) says not to use:\n" + "\n".join(found)


#: One space between two Chinese characters: Chinese does not separate words by spaces
#: (docs/zh-glossary.md, 写法); a space there is a template's, left by mistake. (Wider gaps
#: line up columns; a space after full-width punctuation separates two sentences on a line.)
_SPACE_IN_CHINESE = re.compile("(?<! )[\u4e00-\u9fff] [\u4e00-\u9fff]")


def test_no_chinese_text_puts_a_space_between_chinese_words():
    found = [f"{where}: …{m.group(0)}…" for where, text in _chinese_texts().items()
             for m in _SPACE_IN_CHINESE.finditer(text.replace("\\n", "\n"))]
    assert not found, "a space between Chinese words:\n" + "\n".join(found)


def test_a_chinese_value_in_a_template_leaves_no_space_beside_chinese_words():
    """The template keeps its space for an identifier ("softmax(x) 不对") and drops it for a
    Chinese value ("沿 axis 0 每个切片的和不对", seen live as "…的和 不对")."""
    from dojo.text.messages import text

    def wrong(what):
        return text({"id": "values.wrong", "params": {"what": what, "why_text": "", "detail": "",
                                                        "expected": "1", "got": "2"}}, "zh").split("\n")[0]

    assert wrong("沿 axis 0 每个切片的和") == "沿 axis 0 每个切片的和不对。"
    assert wrong("softmax(x, axis=-1)") == "softmax(x, axis=-1) 不对。"


def test_every_placeholder_is_one_the_messages_fill():
    """Placeholders with a capital ("V={V}", "{P}") were not filled (the pattern took lowercase
    names only): sampling and paged attention showed "V={V}" to candidates. Every ``{name}`` of
    every catalogue is one the messages fill, and a kata's "about" line reads with its value."""
    from dojo.text.messages import ENGLISH, _PLACEHOLDER, message, text

    texts = {f"en:{k}": v for k, v in ENGLISH.items()}
    texts.update({k: v for k, v in _chinese_texts().items()})
    bad = [f"{where}: {name}" for where, t in texts.items() for name in re.findall(r"\{(\w+)\}", str(t))
           if not _PLACEHOLDER.fullmatch("{" + name + "}")]
    assert not bad, "placeholders the messages never fill:\n" + "\n".join(bad)
    about = text(message("judge.sampling.part.about", b=2, V=5, temperature=1.0, top_k=None, top_p=None, u=[0.5]), "en")
    assert "V=5" in about and "{" not in about, about


def test_line_breaking_in_cells():
    """Chinese breaks between characters, never before closing punctuation; Latin words and
    code are never broken; every line fits."""
    text = ("对 x 的每一行做 softmax：先减去这一行的最大值，再取 exp，np.max(x, axis=-1, keepdims=True) 保持维度。"
            "被屏蔽的位置是exp(-inf)，也就是 0。")
    lines = cjk.wrap(text, 20)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    assert all(cjk.cells(ln) <= 20 or " " not in ln for ln in lines), lines
    assert not any(ln[0] in cjk.NO_START for ln in lines), lines
    for word in ("softmax：", "np.max(x,", "axis=-1,", "keepdims=True)", "exp(-inf)"):
        assert any(word in ln for ln in lines), (word, lines)
    assert cjk.wrap("plain english words here", 11) == ["plain", "english", "words here"]
    assert cjk.join_lines("第一行\n第二行\nand english\nwords") == "第一行第二行 and english words"
