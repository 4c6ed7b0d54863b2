"""Choosing the language, and what `dojo lang` does to the stubs.

Which bug each test catches:
- the order of the four places a language comes from broken (the locale winning over a saved
  choice, DOJO_LANG over --lang, LC_ALL not winning over LANG, an empty variable counted as set);
- a corrupt or unknown saved choice that stops the tool, or is taken for a language;
- a language the tool does not have (DOJO_LANG=fr, --lang fr) accepted, or refused without
  saying what was wrong;
- `dojo lang zh` leaving untouched stubs in English, rewriting anything but their docstring, or
  overwriting a stub the candidate has edited (and not saying how to get the Chinese one);
- an untouched stub in Chinese counted as the candidate's work (the table says "edited, not
  judged yet"; `dojo restore` picks a backup of it as "your work");
- `dojo reset` putting back the English stub in Chinese, or not backing up first;
- argparse's own words left in English in Chinese, or its %-placeholders lost in translation.

The process tests need no Chinese stub: they run the package from the repository, whatever its
catalogues hold. The tests of the stubs themselves run in this process, with a Chinese docstring
of their own for softmax (``dojo.text.locale.stub_docstring`` monkeypatched).
"""

from __future__ import annotations

import argparse
import ast
import io
import re
import tomllib

import pytest

from dojo.text import locale
from dojo.catalogue import registry
from dojo.catalogue.env import Env
from dojo.state.state import Store
from tests.tool.harness import Sandbox

LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")


def language_of(box: Sandbox, *flags: str, saved: bytes | None = None, **environ) -> str:
    """The language `dojo help` speaks, with exactly ``environ`` of DOJO_LANG and the locale
    variables set (the others unset) and ``saved`` in .dojo/language (None: no file)."""
    box.state.mkdir(exist_ok=True)
    saved_file = box.state / "language"
    if saved is None:
        saved_file.unlink(missing_ok=True)
    else:
        saved_file.write_bytes(saved)
    env = {name: environ.get(name) for name in ("DOJO_LANG", *LOCALE_VARIABLES)}
    r = box.run(*flags, "help", env=env)
    assert r.code == 0, r.err
    first = r.out.splitlines()[0]
    if first.startswith("usage: dojo"):
        return "en"
    if first.startswith("用法：dojo"):
        return "zh"
    raise AssertionError(f"neither language: {first!r}")


#: (flags, saved choice, environment) -> the language; the first of --lang, DOJO_LANG, the
#: saved choice, the locale (LC_ALL, LC_MESSAGES, LANG: the first set and not empty) wins.
ORDER = [
    ((), None, {}, "en"),
    ((), None, {"LANG": "zh_CN.UTF-8"}, "zh"),
    ((), None, {"LANG": "en_US.UTF-8"}, "en"),
    ((), None, {"LC_ALL": "C", "LANG": "zh_CN.UTF-8"}, "en"),
    ((), None, {"LC_ALL": "zh_TW.UTF-8", "LANG": "en_US.UTF-8"}, "zh"),
    ((), None, {"LC_ALL": "", "LC_MESSAGES": "zh_CN", "LANG": "en_US.UTF-8"}, "zh"),
    ((), None, {"LC_MESSAGES": "en_GB", "LANG": "zh_CN"}, "en"),
    ((), b"zh\n", {"LANG": "en_US.UTF-8"}, "zh"),
    ((), b"en\n", {"LC_ALL": "zh_CN.UTF-8"}, "en"),
    ((), b"zh\n", {}, "zh"),
    ((), b"zh\n", {"DOJO_LANG": "en"}, "en"),
    ((), b"en\n", {"DOJO_LANG": "zh"}, "zh"),
    ((), None, {"DOJO_LANG": "zh_CN", "LANG": "en_US"}, "zh"),
    (("--lang", "en"), b"zh\n", {"DOJO_LANG": "zh", "LANG": "zh_CN"}, "en"),
    (("--lang", "zh"), b"en\n", {"DOJO_LANG": "en"}, "zh"),
    (("--lang=zh",), None, {"DOJO_LANG": "en"}, "zh"),
    # a saved file that is corrupt or holds no language of ours is ignored: the locale decides
    ((), b"klingon\n", {"LANG": "zh_CN.UTF-8"}, "zh"),
    ((), b"\xff\xfe\x00garbage", {"LANG": "zh_CN.UTF-8"}, "zh"),
    ((), b"\xff\xfe\x00garbage", {}, "en"),
    ((), b"", {"LANG": "zh_CN.UTF-8"}, "zh"),
]


def test_the_language_comes_from_the_flag_then_dojo_lang_then_the_saved_choice_then_the_locale(tmp_path):
    box = Sandbox(tmp_path)
    wrong = []
    for flags, saved, environ, expected in ORDER:
        got = language_of(box, *flags, saved=saved, **environ)
        if got != expected:
            wrong.append(f"{flags} saved={saved!r} {environ}: {got}, expected {expected}")
    assert not wrong, "\n".join(wrong)


def test_a_saved_choice_that_is_a_folder_is_ignored(tmp_path):
    box = Sandbox(tmp_path)
    box.state.mkdir()
    (box.state / "language").mkdir()
    r = box.run("help", env={"DOJO_LANG": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": "zh_CN.UTF-8"})
    assert r.code == 0 and r.out.startswith("用法：dojo"), (r.code, r.out[:200], r.err)


@pytest.mark.parametrize("args,environ,named", [
    (("list",), {"DOJO_LANG": "fr"}, "DOJO_LANG: 'fr'"),
    (("--lang", "fr", "list"), {"DOJO_LANG": "en"}, "--lang: 'fr'"),
    (("list", "--lang=fr"), {"DOJO_LANG": None}, "--lang: 'fr'"),
])
def test_a_language_dojo_does_not_have_is_a_usage_error_that_says_which(tmp_path, args, environ, named):
    box = Sandbox(tmp_path)
    r = box.run(*args, env=environ)
    assert r.code == 2, (r.code, r.out, r.err)
    assert r.out == ""  # nothing else happened: no table
    assert named in r.err and "zh" in r.err and "en" in r.err, r.err
    assert "Traceback" not in r.err


def test_lang_without_a_language_is_a_usage_error(tmp_path):
    r = Sandbox(tmp_path).run("list", "--lang")
    assert r.code == 2 and "--lang needs a language: zh or en" in r.err, (r.code, r.err)


def test_dojo_lang_saves_the_choice_and_leaves_an_edited_file_alone(tmp_path):
    box = Sandbox(tmp_path)
    unset = {"DOJO_LANG": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": None}
    mine = box.kata("masked_attention").read_text() + "# my work\n"
    box.write_kata("masked_attention", mine)
    r = box.run("lang", "zh", env=unset)
    assert r.code == 0, r.err
    assert (box.state / "language").read_text() == "zh\n"
    assert "中文（zh）" in r.out  # said in the language just chosen
    assert box.kata("masked_attention").read_text() == mine
    assert "dojo reset masked_attention" in r.out and "katas/masked_attention.py" in r.out, r.out
    assert language_of(box, saved=b"zh\n") == "zh"
    r = box.run("lang", env=unset)
    assert "dojo lang" in r.out and "语言" in r.out, r.out
    r = box.run("lang", "en", env=unset)
    assert r.code == 0 and "English (en)" in r.out, r.out
    assert (box.state / "language").read_text() == "en\n"
    assert box.kata("masked_attention").read_text() == mine


def test_dojo_lang_says_when_dojo_lang_wins_over_the_choice(tmp_path):
    box = Sandbox(tmp_path)
    r = box.run("lang", "zh", env={"DOJO_LANG": "en"})
    assert r.code == 0 and "DOJO_LANG=en" in r.out, r.out
    assert (box.state / "language").read_text() == "zh\n"


# -- argparse's own words ---------------------------------------------------------------------


def _argparse_msgids() -> set[str]:
    """Every string argparse of this Python passes to ``_()`` or ``ngettext()``."""
    tree = ast.parse(open(argparse.__file__, encoding="utf-8").read())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("_", "ngettext"):
            found |= {a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)}
    return found


def _catalogue(lang: str) -> dict[str, str]:
    with open(locale.HERE / lang / "argparse.toml", "rb") as f:
        return tomllib.load(f)


def test_every_word_argparse_says_is_in_the_catalogue():
    english = set(_catalogue("en").values())
    missing = sorted(_argparse_msgids() - english)
    assert not missing, f"argparse's msgids without an id in dojo/text/locale/en/argparse.toml: {missing}"
    assert "show program's version number and exit" in english  # a default argument, not _()'d in 3.11


def test_argparse_in_chinese_keeps_every_placeholder():
    placeholder = re.compile(r"%\([a-z_]+\)[rsd]|%[rsd]")
    en, zh = _catalogue("en"), _catalogue("zh")
    assert set(en) == set(zh)
    bad = [(k, en[k], zh[k]) for k in en if sorted(placeholder.findall(en[k])) != sorted(placeholder.findall(zh[k]))]
    assert not bad, bad
    assert zh["argparse.error"].endswith("\n")


def _run(box: Sandbox, *argv: str) -> tuple[int, str, str]:
    from dojo.commands.cli import main

    out, err = io.StringIO(), io.StringIO()
    env = Env(root=box.root, state_dir=box.state, stdout=out, stderr=err, stdin=io.StringIO())
    code = main(list(argv), env=env)
    return code, out.getvalue(), err.getvalue()


def test_argparse_speaks_chinese_and_english_again(tmp_path, monkeypatch, capsys):
    box = Sandbox(tmp_path)
    monkeypatch.setenv("DOJO_LANG", "zh")
    assert _run(box, "reset", "--help")[0] == 0
    zh = capsys.readouterr().out
    assert zh.startswith("用法：dojo reset") and "位置参数：" in zh and "选项：" in zh and "显示这段帮助并退出" in zh, zh
    assert _run(box, "reset")[0] == 2
    err = capsys.readouterr().err
    assert "dojo reset：错误：缺少这些参数：kata" in err, err
    assert _run(box, "show", "softmax", "--frob")[0] == 2
    assert "无法识别的参数：--frob" in capsys.readouterr().err
    monkeypatch.setenv("DOJO_LANG", "en")
    assert _run(box, "reset")[0] == 2
    err = capsys.readouterr().err
    assert "dojo reset: error: the following arguments are required: kata" in err, err


# -- stubs in a language, in this process ---------------------------------------------------------


ZH_DOC = """对 x 沿 axis 做数值稳定的 softmax。

参数
----
x    : 数组，logits。
axis : int，要归一化的那一维。

x 本身不能被修改。"""


@pytest.fixture
def chinese_softmax(monkeypatch):
    """softmax has a Chinese stub docstring (ZH_DOC); no other kata has one. Lines whole, as
    on a pipe (pytest-xdist's workers have COLUMNS=80)."""
    monkeypatch.delenv("COLUMNS", raising=False)
    def stub_docstring(module, lang=None):
        lang = lang or locale.LANGUAGE
        return ZH_DOC if lang == "zh" and module == "softmax" else None
    monkeypatch.setattr(locale, "stub_docstring", stub_docstring)


def _docstring(source: str) -> str:
    fn = ast.parse(source).body[-1]
    return ast.get_docstring(fn)


def _code(source: str) -> str:
    tree = ast.parse(source)
    tree.body[-1].body[0].value.value = ""
    return ast.dump(tree)


def test_dojo_lang_zh_rewrites_an_untouched_stub_and_lang_en_brings_the_english_back(tmp_path, monkeypatch,
                                                                                     chinese_softmax):
    box = Sandbox(tmp_path)
    english = box.kata("softmax").read_text()
    others = {k.module: box.kata(k.module).read_text() for k in registry.KATAS if k.module != "softmax"}
    monkeypatch.delenv("DOJO_LANG")
    code, out, err = _run(box, "lang", "zh")
    assert code == 0, err
    chinese = box.kata("softmax").read_text()
    assert _docstring(chinese) == ZH_DOC
    assert _code(chinese) == _code(english)  # the same imports, signature and body
    assert "katas/softmax.py" in out and "1 个" in out, out
    assert {m: box.kata(m).read_text() for m in others} == others  # no Chinese for them: as they were
    assert Store(Env(root=box.root, state_dir=box.state)).verdict_now(registry.get("softmax")) is None  # not started
    code, out, err = _run(box, "lang", "en")
    assert code == 0, err
    assert box.kata("softmax").read_text() == english


def test_a_chinese_untouched_stub_is_not_started_and_an_edit_of_it_is(tmp_path, chinese_softmax):
    from dojo.catalogue.stubs import stub_source

    box = Sandbox(tmp_path)
    kata = registry.get("softmax")
    chinese = stub_source(box.root / "solutions" / "softmax.py", "softmax", "zh")
    assert _docstring(chinese) == ZH_DOC
    box.write_kata("softmax", chinese)
    env = Env(root=box.root, state_dir=box.state)
    assert Store(env).verdict_now(kata) is None
    box.write_kata("softmax", chinese.replace("数值稳定", "数值稳定地"))
    assert Store(env).verdict_now(kata) == {"state": "unjudged"}


def test_reset_in_chinese_puts_the_chinese_stub_back_and_keeps_the_backup(tmp_path, monkeypatch, chinese_softmax):
    box = Sandbox(tmp_path)
    english = box.kata("softmax").read_text()
    mine = english + "# my work\n"
    box.write_kata("softmax", mine)
    monkeypatch.setenv("DOJO_LANG", "zh")
    code, out, err = _run(box, "reset", "softmax", "--yes")
    assert code == 0, err
    assert _docstring(box.kata("softmax").read_text()) == ZH_DOC
    backups = sorted((box.state / "backups" / "softmax").glob("*.py"))
    assert [b.read_text() for b in backups] == [mine]
    assert "dojo restore softmax" in out and "备份" in out, out
    code, out, err = _run(box, "reset", "softmax", "--yes")  # already the stub of this language
    assert code == 0 and "已经是原始的题目模板" in out, out
    assert len(list((box.state / "backups" / "softmax").glob("*.py"))) == 1


def test_restore_never_takes_a_backup_of_an_untouched_stub_in_another_language_for_work(tmp_path, monkeypatch,
                                                                                        chinese_softmax):
    box = Sandbox(tmp_path)
    english = box.kata("softmax").read_text()
    monkeypatch.setenv("DOJO_LANG", "zh")
    code, out, err = _run(box, "reset", "softmax", "--yes")  # backs up the English stub
    assert code == 0, err
    [backup] = (box.state / "backups" / "softmax").glob("*.py")
    assert backup.read_text() == english
    code, out, err = _run(box, "restore", "softmax")
    assert code == 2 and "都是原始题目模板" in err, (code, out, err)
    code, out, err = _run(box, "restore", "softmax", "--list")
    assert code == 0 and "原始题目模板" in out and "你的作答" not in out, out


def test_show_in_chinese_shows_the_chinese_contract(tmp_path, monkeypatch, chinese_softmax):
    box = Sandbox(tmp_path)
    monkeypatch.setenv("DOJO_LANG", "zh")
    code, out, err = _run(box, "show", "softmax")
    assert code == 0, err
    assert "    对 x 沿 axis 做数值稳定的 softmax。" in out.splitlines(), out
    english_first = _docstring((box.root / "solutions" / "softmax.py").read_text()).splitlines()[0]
    assert english_first not in out
    assert "评测器检查什么" in out and "编辑：katas/softmax.py" in out.replace(str(box.root) + "/", ""), out
