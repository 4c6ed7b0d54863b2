"""What the judge says, in Chinese: ``dojo test`` and plain pytest under DOJO_LANG=zh or a saved
``dojo lang zh``, and a verdict stored as ids that reads in either language.

Every expectation is a sentence of the Chinese catalogue (``dojo/text/locale/zh/*.toml``, read here
with tomllib), filled with parameters this test chose: nothing is taken from the output of the
code under test.

Which bug each test catches:
- a screen label, framing line or account still built from English in code (it would not show
  the catalogue's sentence);
- plain pytest that ignores the saved language;
- a stored verdict that holds rendered text (it could not read in the other language);
- the worker's accounts (the NumPy-only hook, a hang) rendered in the worker or in English.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib

import pytest

from dojo.catalogue import registry
from dojo.worker.loader import FORBIDDEN
from tests.tool.harness import REPO, Sandbox

# Machine-independent and long: the contributors' suite (README, "For contributors"); CI runs it.
pytestmark = pytest.mark.contributors

ZH_FOLDER = REPO / "dojo" / "text" / "locale" / "zh"
ZH = {}
for _path in sorted(ZH_FOLDER.glob("*.toml")):
    ZH.update(tomllib.loads(_path.read_text(encoding="utf-8")))
CJK = re.compile(r"[\u4e00-\u9fff]")
WRONG = REPO / "tests" / "katas" / "softmax" / "wrong"


def zh(id: str, **params) -> str:
    """A Chinese sentence of the catalogue, its placeholders filled with ``params``."""
    return ZH[id].format(**params)


def before_placeholder(id: str) -> str:
    """A Chinese sentence up to its first placeholder (the fixed words around a parameter)."""
    return ZH[id].split("{")[0]


@pytest.fixture
def sandbox(tmp_path):
    return Sandbox(tmp_path)


def test_a_wrong_answer_is_framed_in_chinese(sandbox):
    # float32 arithmetic: its first failure is a comparison, shown with expected and got
    sandbox.write_kata("softmax", WRONG / "float32_arithmetic.py")
    r = sandbox.run("test", "softmax", env={"DOJO_LANG": "zh"})
    assert r.code != 0, r.out
    out = r.out
    assert zh("verdict.first-failure") in out
    # the expected/got labels, with the arrays in the column English has them (12 cells)
    lines = out.splitlines()
    expected = next(ln for ln in lines if "期望值：" in ln)
    got = next(ln for ln in lines if "实际值：" in ln)
    assert expected.index("[") == got.index("[") and expected.strip().startswith("期望值：")
    assert before_placeholder("values.first-difference").strip() in out
    assert before_placeholder("diagnosis") in out  # the diagnosis framing
    # the input's label: shrunk by Hypothesis, or a fixed example the property tries first
    assert any(before_placeholder(k) in out for k in ("input.shrunk", "input.shrunk-calls", "input.given", "input.given-calls"))
    assert ZH["array.shape"].split("{")[0] in out
    for english in ("First failure:", "expected:", "got:", "behaves like a known bug", "failing input",
                    "properties pass", "(shape "):
        assert english not in out, english


def test_a_stub_not_started_says_so_in_chinese(sandbox):
    r = sandbox.run("test", "softmax", env={"DOJO_LANG": "zh"})
    assert zh("verdict.not-started.why", function="softmax") in r.out, r.out
    assert zh("verdict.not-started.next", command="`dojo show softmax`", file="katas/softmax.py") in r.out
    assert "NotImplementedError." not in r.out.replace(zh("verdict.not-started.why", function="softmax"), "")
    assert "Read the contract" not in r.out


def test_plain_pytest_follows_the_saved_language(sandbox):
    sandbox.write_kata("softmax", WRONG / "global_max_shift.py")
    sandbox.state.mkdir(parents=True, exist_ok=True)
    (sandbox.state / "language").write_text("zh\n")
    environ = sandbox.environ()
    environ.pop("DOJO_LANG")  # no flag, no environment: the saved choice decides
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        environ.pop(name, None)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist",
                           "tests/test_softmax.py", "-x", "--hypothesis-seed=1"],  # a run whose first
                          # failure is a value mismatch (expected / actual): a fresh seed's may be another property
                          cwd=sandbox.root, env=environ, capture_output=True, text=True, timeout=600)
    out = proc.stdout
    assert proc.returncode == 1, out[-3000:]
    assert before_placeholder("pytest.header.judging") in out
    assert before_placeholder("pytest.header.runs-in") in out
    assert "期望值：" in out and "实际值：" in out
    assert before_placeholder("diagnosis") in out
    assert "dojo: judging" not in out and "expected:" not in out


def test_a_stored_verdict_keeps_ids_and_reads_in_either_language(tmp_path, monkeypatch):
    from dojo.text import locale
    from dojo.catalogue.env import Env
    from dojo.screens.render import verdict_lines
    from dojo.screens.results import results
    from dojo.judge.runner import judge

    impl = tmp_path / "impl"
    impl.mkdir()
    (impl / "softmax.py").write_text((WRONG / "global_max_shift.py").read_text())
    monkeypatch.setenv("DOJO_LANG", "zh")  # the judge's process renders its own report in Chinese
    monkeypatch.setattr(locale, "LANGUAGE", "zh")
    kata = registry.get("softmax")
    verdict = judge(Env(root=REPO, state_dir=tmp_path / "state"), kata, impl)
    assert verdict.failures
    stored = json.dumps({"records": verdict.records, "problem": verdict.problem, "summary": verdict.summary()},
                        ensure_ascii=False)
    assert not CJK.search(stored), CJK.search(stored)
    data = json.loads(stored)
    verdict.records = data["records"]  # as read back from a file
    chinese = "\n".join(verdict_lines(Env(root=REPO), verdict, kata, "katas/softmax.py"))
    assert zh("verdict.first-failure") in chinese and before_placeholder("diagnosis") in chinese
    monkeypatch.setattr(locale, "LANGUAGE", "en")
    english = "\n".join(verdict_lines(Env(root=REPO), verdict, kata, "katas/softmax.py"))
    assert "First failure:" in english and "behaves like a known bug" in english
    assert not CJK.search(english), CJK.search(english)
    assert not CJK.search(json.dumps(results(verdict, kata)["tests"][0]["dojo"], ensure_ascii=False))
    monkeypatch.setattr(locale, "LANGUAGE", "zh")
    again = "\n".join(verdict_lines(Env(root=REPO), verdict, kata, "katas/softmax.py"))
    assert again == chinese


def test_the_numpy_only_rule_in_chinese_found_before_and_while_loading(sandbox):
    forbidden = "、".join(FORBIDDEN[:5])  # names in Chinese: joined by 、, not ", "
    sandbox.write_kata("softmax", "import numpy as np\nimport scipy\n\ndef softmax(x, axis=-1):\n    return x\n")
    r = sandbox.run("test", "softmax", env={"DOJO_LANG": "zh"})
    assert zh("kata.numpy-only", file="softmax.py", module="scipy", line=2, forbidden=forbidden) in r.out, r.out
    assert zh("state.numpy-only") in r.out
    # an import the source does not show: refused by the worker's import hook, which sends its
    # account as data; the tool renders it
    sandbox.write_kata("softmax", "import numpy as np\n\nnp.mod = __import__('sc' + 'ipy')\n\n"
                                  "def softmax(x, axis=-1):\n    return x\n")
    r = sandbox.run("test", "softmax", env={"DOJO_LANG": "zh"})
    assert zh("kata.numpy-only", file="softmax.py", module="scipy", line=3, forbidden=forbidden) in r.out, r.out
    assert "a kata may import NumPy" not in r.out


def test_a_hang_in_chinese(sandbox):
    sandbox.write_kata("softmax", "import numpy as np\n\ndef softmax(x, axis=-1):\n"
                                  "    while True:\n        pass\n")
    r = sandbox.run("test", "softmax", env={"DOJO_LANG": "zh"})
    what = zh("worker.your-function", function="softmax")
    assert zh("worker.hung.cpu", what=what, limit="2") in r.out, r.out
    assert zh("state.timed-out") in r.out
    assert "was still computing" not in r.out


def test_a_worker_can_send_only_the_accounts_it_may_give():
    """The worker runs the candidate's code: what it sends as an account is taken only when it is
    one of the load failures or import refusals it may give, with plain parameters."""
    from dojo.worker.loader import load_message
    from dojo.worker.remote import refusal

    numpy_only = {"id": "kata.numpy-only", "params": {"file": "softmax.py", "module": "scipy", "line": 3,
                                                      "forbidden": "torch"}}
    assert load_message(numpy_only) == numpy_only
    at = {"id": "kata.cannot-import.at", "params": {"line": 2, "source_text": "1/0"}}
    failed = {"id": "kata.cannot-import", "params": {"file": "a.py", "type": "ZeroDivisionError",
                                                     "text": "division by zero", "where": at}}
    assert load_message(failed) == failed
    for forged in ({"id": "text", "params": {"text": "all properties pass"}},
                   {"id": "kata.numpy-only", "params": {"file": {"id": "text", "params": {}}}},
                   {"id": "kata.cannot-import", "params": {"where": {"id": "text", "params": {"text": "x"}}}},
                   {"id": "kata.no-function", "params": {"file": "a.py", "function": "f", "extra": "x"}},
                   "kata.numpy-only", None):
        assert load_message(forged) is None, forged
    refused = {"id": "kata.refused-import", "params": {"module": "torch", "forbidden": "torch, jax"}}
    assert refusal(refused) == refused
    assert refusal({"id": "kata.refused-import", "params": {"module": "torch"}}) is None
    assert refusal({"id": "verdict.passed", "params": {"count_text": "13"}}) is None
