"""The project holds together: one registry, stubs derived from solutions, docs in sync."""

import ast
import os
import re
import subprocess
import sys

import pytest

from dojo import docs, registry
from dojo.loader import NumpyOnlyError, forbidden_imports, load_kata
from dojo.stubs import stub_source

ROOT = registry.ROOT


def test_the_registry_is_sound():
    assert registry.check_registry() == []


@pytest.mark.parametrize("kata", registry.KATAS, ids=lambda k: k.module)
def test_each_generated_stub_is_its_solution_with_the_body_taken_out(kata):
    """The stub (what a fresh clone holds, and what ``dojo reset`` writes) keeps the solution's
    signature and docstring, imports only NumPy, and raises NotImplementedError."""
    stub = ast.parse(stub_source(kata.solution_path, kata.function))
    solution = ast.parse(kata.solution_path.read_text())

    def function(tree):
        return next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == kata.function)

    fn, ref = function(stub), function(solution)
    assert ast.dump(fn.args) == ast.dump(ref.args), "the stub's signature is not the solution's"
    assert ast.get_docstring(fn) == ast.get_docstring(ref), "the stub's docstring is not the contract"
    assert ast.unparse(fn.body[-1]) == "raise NotImplementedError('write your solution here')"
    assert len(fn.body) == 2, "the stub's body is more than the docstring and the raise"
    assert forbidden_imports(ast.unparse(stub)) == []


@pytest.mark.contributors  # a practising user's katas/ holds answers: CI checks a clean clone
@pytest.mark.parametrize("kata", registry.KATAS, ids=lambda k: k.module)
def test_each_committed_stub_is_the_generated_one(kata):
    assert kata.stub_path.read_text() == stub_source(kata.solution_path, kata.function), (
        f"katas/{kata.module}.py is not the untouched stub derived from solutions/{kata.module}.py: "
        f"regenerate it (dojo reset {kata.module}) unless this checkout holds your own answers"
    )


def test_readme_kata_table_is_generated_from_the_registry():
    text = (ROOT / "README.md").read_text()
    assert docs.render_readme(text) == text, "run: python -m dojo.docs"


def test_ci_runs_the_readme_test_command_and_the_contributors_command_verbatim():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    for marker in ("test-command", "contributors-command"):
        command = re.search(rf"<!-- {marker} -->\s*```sh\n(.+?)\n```", readme).group(1)
        assert command in ci, f"CI does not run the README's {marker} verbatim: {command}"
    assert not any("pip install" in line for line in ci if not line.startswith(("#", "python3 -m venv"))), (
        "CI installs something before the README's line: CI must get what a user gets"
    )


def test_untouched_stubs_each_report_not_implemented_once(tmp_path):
    impl = tmp_path / "stubs"  # the stubs as generated, whatever katas/ holds now
    impl.mkdir()
    for kata in registry.KATAS:
        (impl / f"{kata.module}.py").write_text(stub_source(kata.solution_path, kata.function))
    env = dict(os.environ, DOJO_STATE_DIR=str(tmp_path / "state"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", f"--impl={impl}", "-p", "no:cacheprovider", "-q", "-rN"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    for kata in registry.KATAS:
        assert proc.stdout.count(f"{kata.module}: not implemented yet") == 1, proc.stdout
    assert f"{len(registry.KATAS)} failed" in proc.stdout


@pytest.mark.parametrize(
    "source, banned",
    [
        ("import torch\n", "torch"),
        ("import numpy as np\nfrom scipy.special import softmax\n", "scipy.special"),
        ("import jax.numpy as jnp\n", "jax.numpy"),
        ("def f():\n    import sklearn\n", "sklearn"),
        ("m = __import__('tensorflow')\n", "tensorflow"),
        ("import importlib\nt = importlib.import_module('torch')\n", "torch"),
    ],
)
def test_the_numpy_only_rule_is_checked_without_running_the_code(tmp_path, source, banned):
    assert [name for _, name in forbidden_imports(source)] == [banned]
    path = tmp_path / "softmax.py"
    path.write_text(source + "raise SystemExit('must not run')\n")
    with pytest.raises(NumpyOnlyError, match="NumPy only"):
        load_kata(path, "softmax")


def test_numpy_itself_is_allowed():
    assert forbidden_imports("import numpy as np\nfrom numpy.lib import stride_tricks\n") == []
