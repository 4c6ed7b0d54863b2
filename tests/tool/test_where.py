"""Where the tools look: ``dojo`` works on the clone you are in, and pytest pointed at the
answers (``pytest katas``) says where the tests are.

A second clone used to be judged with the first clone's files: the tool installed from the first
clone (``pip install -e``) took its own checkout before the current folder. Here two copies of
the tree sit in temporary folders; clone ``a`` plays the installed one (its package comes first
on the path, as an editable install puts it), and each clone's registry gives softmax a title of
its own, so every screen shows whose tool ran.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tool.harness import REPO, Sandbox, stub


def clone(tmp: Path, name: str) -> Sandbox:
    """A copy of the tree (the package too) whose softmax is titled ``… (clone NAME)``."""
    (tmp / name).mkdir()
    box = Sandbox(tmp / name)
    shutil.copytree(REPO / "dojo", box.root / "dojo", ignore=shutil.ignore_patterns("__pycache__"))
    registry = box.root / "dojo" / "catalogue" / "katas" / "softmax" / "kata.toml"
    text = registry.read_text()
    assert text.count('title = "Numerically stable softmax"') == 1
    registry.write_text(text.replace('title = "Numerically stable softmax"',
                                     f'title = "Numerically stable softmax (clone {name})"'))
    return box


def dojo(installed: Sandbox, cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    """``dojo ARGS`` as the console script of ``installed`` runs it, from ``cwd``."""
    environ = {k: v for k, v in os.environ.items()
               if k not in ("DOJO_ROOT", "DOJO_STATE_DIR", "DOJO_FAKE_CLOCK", "PYTHONPATH", "COLUMNS", "LINES")}
    environ.update(PYTHONPATH=str(installed.root), NO_COLOR="1", **env)
    return subprocess.run([sys.executable, "-c", "import sys; from dojo.commands.cli import main; sys.exit(main())", *args],
                          cwd=cwd, env=environ, capture_output=True, text=True, timeout=300,
                          stdin=subprocess.DEVNULL)


@pytest.fixture
def clones(tmp_path):
    return clone(tmp_path, "a"), clone(tmp_path, "b")


def test_dojo_in_a_second_clone_runs_that_clones_tool_on_that_clones_files(clones, solution, tmp_path):
    a, b = clones
    r = dojo(a, b.root / "katas", "show", "softmax")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("Numerically stable softmax (clone b)"), r.stdout
    assert dojo(a, a.root / "katas", "show", "softmax").stdout.startswith("Numerically stable softmax (clone a)")
    outside = tmp_path / "elsewhere"
    outside.mkdir()  # in no clone: the installed one
    assert dojo(a, outside, "show", "softmax").stdout.startswith("Numerically stable softmax (clone a)")

    b.write_kata("softmax", solution("softmax"))
    r = dojo(a, b.root / "katas", "test", "softmax")
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.startswith("softmax — Numerically stable softmax (clone b)   (softmax.py)"), r.stdout
    assert "Passed: 14 of 14 properties pass" in r.stdout
    assert (b.root / ".dojo" / "state.json").is_file() and not (a.root / ".dojo").exists()
    assert a.kata("softmax").read_text() == stub("softmax")  # the first clone's file was never judged
    table = dojo(a, b.root, "list").stdout
    assert "passed: 14 of 14 properties pass" in table
    assert "passed" not in dojo(a, a.root, "list").stdout


def test_dojo_root_still_says_which_repository(clones):
    a, b = clones
    r = dojo(a, b.root / "katas", "show", "softmax", DOJO_ROOT=str(a.root))
    assert r.returncode == 0 and r.stdout.startswith("Numerically stable softmax (clone a)"), r.stdout + r.stderr


# -- pytest pointed at the answers ----------------------------------------------------------------


IMPORT_LEAVES_A_MARK = '''from pathlib import Path

Path(__file__).with_name("imported.txt").write_text("the judge imported me")


def softmax(x, axis=-1):
    raise NotImplementedError
'''


def pytest_in(box: Sandbox, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    environ = box.environ()
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", *args],
                          cwd=cwd, env=environ, capture_output=True, text=True, timeout=300,
                          stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("where,args,kata", [
    ("repo", ("katas",), "softmax"),
    ("katas", (), "softmax"),
    ("repo", ("katas/rope.py",), "rope"),
    ("repo", ("katas/softmax.py",), "softmax"),
    ("repo", ("solutions",), "softmax"),
])
def test_pytest_on_the_answers_points_at_the_tests_and_still_exits_5(sandbox, where, args, kata):
    sandbox.write_kata("softmax", IMPORT_LEAVES_A_MARK)
    cwd = sandbox.root if where == "repo" else sandbox.root / "katas"
    r = pytest_in(sandbox, cwd, *args)
    assert r.returncode == 5, r.stdout + r.stderr  # nothing ran, as pytest says it
    assert "dojo: no tests in " in r.stdout and "katas/ and solutions/ hold answers" in r.stdout, r.stdout
    assert f"`pytest tests/test_{kata}.py` one kata" in r.stdout and f"`dojo test {kata}`" in r.stdout
    assert f"From {sandbox.root}:" in r.stdout
    assert not (sandbox.root / "katas" / "imported.txt").exists()  # answers are never imported by the judge


def test_pytest_on_the_tests_says_nothing_of_the_kind(sandbox):
    r = pytest_in(sandbox, sandbox.root, "tests/test_softmax.py")
    assert r.returncode == 1 and "not implemented yet" in r.stdout, r.stdout[-2000:]
    assert "no tests in" not in r.stdout
