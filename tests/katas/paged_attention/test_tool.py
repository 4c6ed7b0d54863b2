"""The paged_attention kata through the tool: a known bug fails ``dojo test`` with the property
that names it and the reference passes, through the real entry point (``python -m dojo``) in a
sandbox; ``dojo compare`` draws the weights recovered from out; the battery tells every pair of
known wrong answers apart (what the diagnosis of a failing answer relies on)."""

from __future__ import annotations

import itertools
import json

import pytest

from dojo.catalogue import registry
from dojo.catalogue.batteries import BATTERIES
from dojo.worker.loader import load_kata
from tests.tool.harness import REPO

KATA = "paged_attention"


@pytest.mark.contributors  # two whole judge runs (8-13 s in CI): the README's line judges the reference in tests/
def test_a_finite_minus_1e9_fill_fails_with_the_property_that_names_it_and_the_reference_passes(sandbox, wrong, solution):
    sandbox.write_kata(KATA, wrong(KATA, "finite_fill_minus_1e9"))
    r = sandbox.run("test", KATA)
    assert r.code == 1, r.out + r.err
    assert "✗ Scores far below -1e9 (from -2e9 down to -1e306) are still valid" in r.out
    assert "✓ Matches torch: the used slots gathered through the block table" in r.out
    assert "Your answer behaves like a known bug: Blocks future keys with np.where(allowed, scores, -1e9)" in r.out
    assert "Traceback" not in r.out

    sandbox.write_kata(KATA, solution(KATA))
    r = sandbox.run("test", KATA)
    assert r.code == 0, r.out + r.err
    assert "16 of 16 properties pass" in r.out


@pytest.mark.contributors  # a second whole `dojo test` run: the contributors' suite
def test_validating_the_whole_pool_fails_on_garbage_outside_the_context(sandbox, wrong):
    sandbox.write_kata(KATA, wrong(KATA, "validates_all_pages"))
    r = sandbox.run("test", KATA)
    assert r.code == 1, r.out + r.err
    assert "✗ Pages the table does not name and slots at or past context_len may hold anything" in r.out
    assert "Checks the whole pool for NaN and inf" in r.out


def test_compare_draws_the_weights_recovered_from_out(sandbox, wrong, tmp_path):
    report = tmp_path / "paged.json"
    r = sandbox.run("compare", KATA, "--file", str(wrong(KATA, "top_left_causal")), "--no-speed", "--json", str(report))
    assert r.code == 1, r.out + r.err
    assert "weights (out with v = identity)" in r.out
    data = json.loads(report.read_text())
    assert [m["title"] for m in data["maps"]] == ["weights (out with v = identity)"]
    assert any(c["case"] == "prefill: n = m = 5, pages of 2" and c["agree"] for c in data["cases"])
    assert any(c["case"] == "a chunk: n=3 new, m=8 in pages of 2" and not c["agree"] for c in data["cases"])


def test_the_battery_tells_every_pair_of_known_bugs_apart():
    from dojo.commands.compare import compare_case
    from dojo.worker.isolate import call_here

    battery, spec = BATTERIES[KATA], registry.get(KATA)
    files = sorted((REPO / "tests" / "katas" / KATA / "wrong").glob("*.py"))
    outcomes = {}
    for path in files:
        fn = load_kata(path, spec.function)
        outcomes[path] = [call_here(fn, battery.inputs(case), path) for case in battery.cases]
    for a, b in itertools.combinations(files, 2):
        same = all(
            compare_case(x, y, battery, b.name)[0] and bool(x.mutated) == bool(y.mutated)
            for x, y in zip(outcomes[a], outcomes[b])
        )
        assert not same, f"{KATA}: no battery case tells {a.stem} from {b.stem}"
