"""A new kata is its four places and nothing else (issue 34).

A copy of this checkout gets one throwaway kata, ``relu``, from its places alone: its model
answer ``solutions/relu.py`` (the stub ``katas/relu.py`` is derived from it, as ``dojo reset``
writes it), its judge ``tests/test_relu.py`` with ``tests/katas/relu/`` (wrong and right files,
its written-out contract) and ``dojo/catalogue/katas/relu/`` (entry, battery, demonstration,
words in English and Chinese). The templates are in tests/meta/throwaway/. No other file of
the copy is touched, yet the kata shows in ``dojo list``, its judge passes the reference and
fails a wrong file (and the diagnosis names the bug), the self-check, the strategies' check and
the catalogues' completeness checks run it, compare and the follow-ups show it, and the README
table generator lists it. A control takes away one of its places (the Chinese words) and the
completeness check fails, naming the kata.

Whole processes in a copy of the tree: the contributors' suite.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dojo.catalogue import registry
from dojo.catalogue.stubs import stub_source

REPO = Path(__file__).resolve().parents[2]
TEMPLATES = Path(__file__).with_name("throwaway")
KATA = "relu"


def _tracked() -> list[str]:
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=REPO,
                         capture_output=True, text=True, check=True).stdout
    return [p for p in out.split("\0") if p]


@pytest.fixture(scope="module")
def tree(tmp_path_factory) -> Path:
    """This checkout's files, plus the throwaway kata's places (and only those)."""
    root = tmp_path_factory.mktemp("new-kata") / "repo"
    for rel in _tracked():
        source = REPO / rel
        if source.is_file() and not rel.startswith("tests/meta/throwaway/"):
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, root / rel)
    added = []
    for source in sorted(p for p in TEMPLATES.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        rel = source.relative_to(TEMPLATES)
        assert not (root / rel).exists(), f"{rel}: the throwaway kata would overwrite a file of the tree"
        text = source.read_text(encoding="utf-8").replace("number = NEXT", f"number = {len(registry.KATAS) + 1}")
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
        added.append(str(rel))
    (root / "katas" / f"{KATA}.py").write_text(stub_source(root / "solutions" / f"{KATA}.py", KATA))
    added.append(f"katas/{KATA}.py")
    places = ("katas/", "solutions/", f"tests/test_{KATA}.py", f"tests/katas/{KATA}/", f"dojo/catalogue/katas/{KATA}/")
    assert all(rel.startswith(places) for rel in added), [r for r in added if not r.startswith(places)]
    return root


def run(tree: Path, *args: str, state: Path | None = None, timeout: float = 600) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTEST_ADDOPTS", "PYTEST_XDIST_WORKER")}
    env.update(PYTHONPATH=str(tree), DOJO_ROOT=str(tree), DOJO_STATE_DIR=str(state or tree / ".state"),
               DOJO_LANG="en", NO_COLOR="1", DOJO_JUDGE_IDLE="30")
    return subprocess.run([sys.executable, *args], cwd=tree, env=env, capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


def passed(proc: subprocess.CompletedProcess) -> set[str]:
    """The node ids pytest -rA reported as passed."""
    return set(re.findall(r"^PASSED (\S+)", proc.stdout, flags=re.M))


@pytest.mark.contributors
def test_the_new_kata_is_listed_judged_and_self_checked(tree):
    listed = run(tree, "-m", "dojo", "list")
    assert listed.returncode == 0, listed.stdout + listed.stderr
    assert re.search(rf"^\s*{len(registry.KATAS) + 1}\. {KATA}\b", listed.stdout, flags=re.M), listed.stdout

    files = (f"tests/test_{KATA}.py", "tests/meta/test_judge_catches_bugs.py", "tests/meta/test_strategies.py",
             "tests/meta/test_project.py", "tests/tool/test_catalogues.py", "tests/tool/test_followups.py",
             "tests/tool/test_compare.py")
    # files named on the command line run whole, whichever suite each test belongs to
    checks = run(tree, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider", "--impl", "solutions",
                 "-k", KATA, *files)
    assert checks.returncode == 0, checks.stdout[-4000:] + checks.stderr[-2000:]
    ran = passed(checks)
    ids = "\n".join(sorted(ran))
    for expected in (
        f"tests/test_{KATA}.py::test_matches_torch_relu",                     # its judge, on the reference
        f"test_every_realistic_bug_is_caught[{KATA}/keeps_the_sign]",           # its wrong files
        f"test_every_realistic_bug_is_caught[{KATA}/clips_in_place]",
        f"test_every_correct_variant_passes[{KATA}/where@seed1]",               # its right file
        "test_strategies.py::test_valid_input_strategies_draw_valid_inputs",   # its draws against valid.py
        "test_catalogues.py::test_every_kata_is_in_chinese",                    # its words
        "test_project.py::test_each_generated_stub_is_its_solution",            # its stub
        "test_followups.py::test_each_demonstration_runs",                      # its demonstration
    ):
        assert expected in ids, f"{expected} did not run (or pass) for the new kata:\n{ids}"


@pytest.mark.contributors
def test_dojo_diagnoses_compares_and_follows_up_the_new_kata(tree, tmp_path):
    kata = tree / "katas" / f"{KATA}.py"
    kata.write_text((tree / "tests" / "katas" / KATA / "wrong" / "keeps_the_sign.py").read_text())
    judged = run(tree, "-m", "dojo", "test", KATA, state=tmp_path / "state")
    assert judged.returncode == 1, judged.stdout + judged.stderr
    assert "Returns |x| instead of max(x, 0)" in judged.stdout, judged.stdout  # diagnosed as itself

    kata.write_text((tree / "tests" / "katas" / KATA / "right" / "where.py").read_text())
    compared = run(tree, "-m", "dojo", "compare", KATA, state=tmp_path / "state")
    assert compared.returncode == 0, compared.stdout + compared.stderr
    assert "nested-list input" in compared.stdout or "agree" in compared.stdout.lower(), compared.stdout

    followups = run(tree, "-m", "dojo", "followups", KATA, "--answers", state=tmp_path / "state")
    assert followups.returncode == 0, followups.stdout + followups.stderr
    assert "gradient of relu at 0" in followups.stdout and "slope just left of 0: 0" in followups.stdout, followups.stdout

    docs = run(tree, "-m", "dojo.commands.docs")
    assert docs.returncode == 0, docs.stdout + docs.stderr
    row = f"| {len(registry.KATAS) + 1} | `{KATA}` — A throwaway rectified linear unit | `{KATA}` | easy | 5 | 1 | 4 |"
    assert row in (tree / "README.md").read_text(encoding="utf-8")


@pytest.mark.contributors
def test_a_kata_missing_one_of_its_places_is_named(tree, tmp_path):
    """The control: the same copy without the kata's Chinese words fails the completeness check, by name."""
    broken = tmp_path / "repo"
    shutil.copytree(tree, broken, ignore=shutil.ignore_patterns("__pycache__", ".state"))
    shutil.rmtree(broken / "dojo" / "catalogue" / "katas" / KATA / "zh")
    checks = run(broken, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--impl", "solutions", "-k", KATA,
                 "tests/tool/test_catalogues.py")

    assert checks.returncode == 1, checks.stdout[-3000:]
    assert f"test_every_kata_is_in_chinese[{KATA}]" in checks.stdout and "no Chinese title" in checks.stdout
