"""The project holds together: one registry, stubs derived from solutions, docs in sync."""

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from dojo.commands import docs
from dojo.catalogue import registry
from dojo.worker.loader import NumpyOnlyError, forbidden_imports, load_kata
from dojo.catalogue.stubs import stub_source

ROOT = registry.ROOT


def test_the_registry_is_sound():
    assert registry.check_registry() == []


#: The numbers `dojo test N` took before later katas were added: a kata keeps its number for good
#: (a new kata goes at the end of the registry), so habits, notes and history keep meaning.
NUMBERED = ["softmax", "masked_attention", "causal_self_attention", "multihead_attention",
            "kv_cache_attention", "flash_attention", "grouped_query_attention", "attention_backward",
            "rope", "batched_attention"]


def test_katas_keep_their_numbers():
    from dojo.commands.cli.common import kata_arg

    assert [k.module for k in registry.KATAS[: len(NUMBERED)]] == NUMBERED
    assert [kata_arg(str(n)).module for n in range(1, len(NUMBERED) + 1)] == NUMBERED


@pytest.mark.parametrize("kata", registry.KATAS, ids=lambda k: k.module)
def test_each_judge_says_its_shapes_and_what_it_leaves_open(kata):
    """Every judge opens the same way: its docstring names the function, the shapes it draws and
    what the contract leaves open (which it must never test), so a reader of any judge finds them."""
    import ast

    doc = " ".join((ast.get_docstring(ast.parse(kata.test_path.read_text(encoding="utf-8"))) or "").split())
    assert f"{kata.function}(" in doc, f"{kata.test_path.name}: the docstring does not name {kata.function}()"
    assert "shape" in doc.lower(), f"{kata.test_path.name}: the docstring does not say the shapes it draws"
    assert "left open" in doc.lower(), f"{kata.test_path.name}: the docstring does not say what is left open"


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


@pytest.mark.parametrize("kata", registry.KATAS, ids=lambda k: k.module)
def test_a_kata_is_one_function(kata):
    """One kata, one function (README): the solution's and the stub's only public top-level
    function or class is the registry's ``function``; the rest of the tool calls that name."""
    for source in (kata.solution_path.read_text(), stub_source(kata.solution_path, kata.function)):
        public = [n.name for n in ast.parse(source).body
                  if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and not n.name.startswith("_")]
        assert public == [kata.function], (
            f"{kata.module}: a kata exports exactly one function, {kata.function}(); found {public}. "
            "Name helpers with a leading underscore, or make a second kata.")


@pytest.mark.contributors  # a practising user's katas/ holds answers: CI checks a clean clone
@pytest.mark.parametrize("kata", registry.KATAS, ids=lambda k: k.module)
def test_each_committed_stub_is_the_generated_one(kata):
    assert kata.stub_path.read_text() == stub_source(kata.solution_path, kata.function), (
        f"katas/{kata.module}.py is not the untouched stub derived from solutions/{kata.module}.py: "
        f"regenerate it (dojo reset {kata.module}) unless this checkout holds your own answers"
    )


def test_readme_kata_table_is_generated_from_the_registry():
    text = (ROOT / "README.md").read_text()
    assert docs.render_readme(text) == text, "run: python -m dojo.commands.docs"


def test_ci_runs_the_readme_test_command_and_the_contributors_command_verbatim():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    for marker in ("test-command", "contributors-command"):
        command = re.search(rf"<!-- {marker} -->\s*```sh\n(.+?)\n```", readme).group(1)
        assert command in ci, f"CI does not run the README's {marker} verbatim: {command}"
    test_line = ci.index(re.search(r"<!-- test-command -->\s*```sh\n(.+?)\n```", readme).group(1))
    assert not any("pip install" in line for line in ci[:test_line] if not line.startswith("#")), (
        "CI installs something before the README's line: CI must get what a user gets"
    )


def _collected(*args: str) -> list[str]:
    done = subprocess.run([sys.executable, "-m", "pytest", "--impl", "solutions", "--collect-only", "-q",
                           "-p", "no:cacheprovider", *args], cwd=ROOT, capture_output=True, text=True, timeout=120)
    return [line for line in done.stdout.splitlines() if "::" in line]


@pytest.mark.contributors
def test_a_test_file_named_on_the_command_line_runs_whole_in_either_suite():
    """The suites split the tool's tests (README line: smoke; --contributors: the rest), but a
    file named on the command line runs whole either way: before, ``pytest --impl solutions
    tests/tool/test_lang.py`` deselected all 16 and exited 5 without a word."""
    plain = _collected("tests/tool/test_lang.py")
    assert plain and all(line.startswith("tests/tool/test_lang.py::") for line in plain)
    assert _collected("--contributors", "tests/tool/test_lang.py") == plain
    smoke = _collected("tests/tool/test_clean.py")
    assert len(smoke) > len(_collected("tests/tool/test_clean.py", "-m", "smoke")) > 0


@pytest.mark.parametrize("cores,contributors,environ,workers", [
    (2, True, None, 4), (16, True, None, 20), (1, True, None, 2),  # one a core more, at most 4 more
    (2, False, None, None), (2, True, "3", None),  # the README's line; xdist's own variable decides
])
def test_auto_workers_of_the_contributors_suite(monkeypatch, cores, contributors, environ, workers):
    from tests.plugin import options

    class Config:
        def getoption(self, name):
            assert name == "--contributors"
            return contributors

    monkeypatch.setattr(options.os, "sched_getaffinity", lambda pid: set(range(cores)))
    if environ is None:
        monkeypatch.delenv("PYTEST_XDIST_AUTO_NUM_WORKERS", raising=False)
    else:
        monkeypatch.setenv("PYTEST_XDIST_AUTO_NUM_WORKERS", environ)
    assert options.pytest_xdist_auto_num_workers(Config()) == workers


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
    with pytest.raises(NumpyOnlyError, match=f"imports {banned} at line"):
        load_kata(path, "softmax")


def test_numpy_itself_is_allowed():
    assert forbidden_imports("import numpy as np\nfrom numpy.lib import stride_tricks\n") == []


# -- the tool's own layout ----------------------------------------------------------------------

MAX_MODULE_LINES = 400  #: a module of the tool past this is split along its seams


def dojo_modules() -> dict[str, Path]:
    """Every module of the ``dojo`` package by dotted name; a package's ``__init__.py`` is the package."""
    modules = {}
    for path in sorted((ROOT / "dojo").rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def dojo_imports(name: str, path, modules: dict) -> set[str]:
    """The dojo modules ``name`` imports, at any nesting level (module, function, class body):
    ``import dojo.x``, ``from dojo.x import y`` (dojo.x.y when y is a module, else dojo.x),
    ``from dojo import x`` and relative imports, each resolved to the module it names."""

    def known(dotted: str) -> str | None:
        while dotted and dotted not in modules:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(known(alias.name) for alias in node.names if alias.name.split(".")[0] == "dojo")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            if source.split(".")[0] != "dojo":
                continue
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                found.add(sub if sub in modules else known(source))
    found.discard(None)
    found.discard(name)
    return found


def a_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` (its modules in order, the first repeated at the end), or None."""
    done, path = set(), []

    def visit(node: str) -> list[str] | None:
        if node in path:
            return path[path.index(node):] + [node]
        if node in done:
            return None
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            cycle = visit(nxt)
            if cycle:
                return cycle
        path.pop()
        done.add(node)
        return None

    for node in sorted(graph):
        cycle = visit(node)
        if cycle:
            return cycle
    return None


def test_no_module_of_the_tool_is_longer_than_400_lines():
    long = {str(path.relative_to(ROOT)): n for path in dojo_modules().values()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES}
    assert not long, f"split these along their seams (at most {MAX_MODULE_LINES} lines each): {long}"


def test_the_tool_has_no_import_cycle():
    modules = dojo_modules()
    graph = {name: dojo_imports(name, path, modules) for name, path in modules.items()}
    assert graph["dojo.commands.cli"] and graph["dojo.commands.drill"]  # the graph is really built
    cycle = a_cycle(graph)
    assert cycle is None, ("an import cycle in dojo (move what both sides need into a lower module): "
                           + " -> ".join(cycle))


def test_the_import_cycle_finder_finds_cycles():
    assert a_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert a_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


#: The rooms of ``dojo/``, bottom first: a module imports only from its own room and the rooms
#: below it (``dojo/__init__.py`` and ``dojo/__main__.py``, the doors, may import any room).
ROOMS = ("text", "catalogue", "worker", "judge", "state", "screens", "commands")
#: At most this many entries in ``dojo/`` besides the doors, ``__pycache__`` and data files.
MAX_ROOMS = 8


def room_of(module: str) -> str | None:
    """The room of a dotted module name: ``dojo.judge.runner`` is in ``judge``; None for a door."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] != "__main__" else None


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Each import of ``graph`` from a lower room into a higher one, as ``a -> b``."""
    return [f"{name} -> {dep}" for name, deps in sorted(graph.items()) for dep in sorted(deps)
            if room_of(name) is not None and room_of(dep) is not None
            and ROOMS.index(room_of(dep)) > ROOMS.index(room_of(name))]


def test_dojo_is_a_handful_of_rooms():
    entries = sorted(p.name for p in (ROOT / "dojo").iterdir() if (p.is_dir() or p.suffix == ".py")
                     and p.name not in ("__init__.py", "__main__.py", "__pycache__"))
    assert len(entries) <= MAX_ROOMS, f"dojo/ has {len(entries)} entries, at most {MAX_ROOMS}: {entries}"
    assert sorted(entries) == sorted(ROOMS), f"dojo/'s rooms are {entries}; ROOMS names {list(ROOMS)}"


def test_imports_run_down_the_rooms():
    modules = dojo_modules()
    assert all(room_of(name) in ROOMS for name in modules if room_of(name) is not None), \
        [name for name in modules if room_of(name) is not None and room_of(name) not in ROOMS]
    graph = {name: dojo_imports(name, path, modules) - {None} for name, path in modules.items()}
    assert graph["dojo.commands.cli"] and graph["dojo.judge.runner"]  # the graph is really built
    upward = upward_imports(graph)
    assert not upward, ("imports from a higher room (move what both need into the lower room; rooms, "
                        f"bottom first: {', '.join(ROOMS)}): " + "; ".join(upward))


def test_the_room_check_finds_an_upward_import():
    assert upward_imports({"dojo.text.screen": {"dojo.judge.verdict"}}) == ["dojo.text.screen -> dojo.judge.verdict"]
    assert upward_imports({"dojo.judge.verdict": {"dojo.text.screen"}, "dojo": {"dojo.commands.cli"}}) == []


def test_every_property_name_is_one_results_json_allows():
    """A property's name goes into ``dojo test --json`` (exercism's results.json), whose schema
    (docs/results.schema.json) allows lower case, digits and underscores only: a property named
    ``..._in_1_to_E`` made every results.json of its kata invalid. Checked here for every kata,
    without judging one."""
    import json

    from dojo.judge.verdict import properties_of

    schema = json.loads((ROOT / "docs" / "results.schema.json").read_text(encoding="utf-8"))
    pattern = schema["$defs"]["test"]["properties"]["dojo"]["properties"]["property"]["pattern"]
    bad = {k.module: name for k in registry.KATAS for name, _ in properties_of(k.test_path)
           if not re.fullmatch(pattern, name)}
    assert not bad, f"property names results.json refuses ({pattern}): {bad}"
