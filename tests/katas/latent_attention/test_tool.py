"""The latent attention kata (DeepSeek-V2's MLA, the "Architectures" track) through the tool.

End to end through the real entry point (``python -m dojo``) in a sandbox: a known bug fails
``dojo test`` with the property that names it, the reference passes, and ``dojo compare`` draws
the heads' weights read from out. In-process: the compare battery tells every pair of the known
wrong answers apart (what the diagnosis of a failing answer relies on).
"""

from __future__ import annotations

import ast
import itertools
import json

import pytest

from dojo.catalogue import registry
from dojo.catalogue.batteries import BATTERIES
from dojo.worker.loader import load_kata
from tests.tool.harness import REPO

KATA = "latent_attention"


@pytest.mark.contributors  # a failing answer shrinks with live torch: several seconds
def test_a_finite_fill_fails_the_property_that_names_it(sandbox, wrong):
    sandbox.write_kata(KATA, wrong(KATA, "finite_fill_minus_1e9"))
    failed = sandbox.run("test", KATA)
    assert failed.code == 1, failed.out + failed.err
    assert "✗ An allowed score far below -1e9 (down to the edge of overflow) still takes all the weight from blocked keys" in failed.out
    assert "✓ Matches torch" in failed.out  # ordinary inputs cannot tell it from -inf
    assert "First failure:" in failed.out and "Traceback" not in failed.out


def test_the_reference_passes(sandbox, solution):
    sandbox.write_kata(KATA, solution(KATA))
    passed = sandbox.run("test", KATA)
    assert passed.code == 0, passed.out + passed.err
    assert "19 of 19 properties pass" in passed.out


def test_compare_draws_each_heads_weights_read_from_out(sandbox, wrong, tmp_path):
    report = tmp_path / "mla.json"
    r = sandbox.run("compare", KATA, "--file", str(wrong(KATA, "no_causal_mask")), "--no-speed", "--json", str(report))
    assert r.code == 1
    assert "head 0 weights" in r.out and "head 1 weights" in r.out
    data = json.loads(report.read_text())
    assert [m["title"] for m in data["maps"]] == ["head 0 weights", "head 1 weights"]
    assert not all(c["agree"] for c in data["cases"])


def _behaves_like(path) -> set[str]:
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "BEHAVES_LIKE" for t in node.targets):
            return set(ast.literal_eval(node.value))
    return set()


def test_the_battery_tells_every_pair_of_known_bugs_apart():
    from dojo.commands.compare import compare_case
    from dojo.worker.isolate import call_here

    battery, spec = BATTERIES[KATA], registry.get(KATA)
    files = sorted((REPO / "tests" / "katas" / KATA / "wrong").glob("*.py"))
    assert len(files) >= 10
    outcomes = {}
    for path in files:
        fn = load_kata(path, spec.function)
        outcomes[path] = [call_here(fn, battery.inputs(case), path) for case in battery.cases]
    for a, b in itertools.combinations(files, 2):
        if b.stem in _behaves_like(a) or a.stem in _behaves_like(b):
            continue
        same = all(
            compare_case(x, y, battery, b.name)[0] and bool(x.mutated) == bool(y.mutated)
            for x, y in zip(outcomes[a], outcomes[b])
        )
        assert not same, f"{KATA}: no battery case tells {a.stem} from {b.stem}"
