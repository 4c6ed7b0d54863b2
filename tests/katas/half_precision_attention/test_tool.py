"""The "Numerics" kata (half_precision_attention) through the tool.

End to end through the real entry point (``python -m dojo``) in a sandbox: a float16-throughout
answer fails ``dojo test`` with the property that names its bug, the reference passes, and
``dojo compare`` draws the weights (out with v = I) and judges a right answer (weights rounded to float16) at the
kata's own tolerance. In-process: the battery tells every pair of known wrong answers apart,
and the kata's tolerance is the one the judge, the diagnosis and compare use.
"""

from __future__ import annotations

import ast
import itertools
import json

import numpy as np
import pytest

from dojo.catalogue import registry, tolerances
from dojo.catalogue.batteries import BATTERIES
from dojo.worker.loader import load_kata
from tests.tool.harness import REPO

KATA = "half_precision_attention"


def test_the_numerics_track_holds_the_kata():
    assert [k.module for k in registry.KATAS if k.track == "Numerics"] == [KATA]


@pytest.mark.contributors  # two whole judge runs (8-13 s in CI): the README's line judges the reference in tests/
def test_float16_throughout_fails_and_the_reference_passes(sandbox, wrong, solution):
    sandbox.write_kata(KATA, wrong(KATA, "float16_throughout"))
    failed = sandbox.run("test", KATA)
    assert failed.code == 1, failed.out + failed.err
    assert "✗ Unscaled q·k above float16's 65504 in every row" in failed.out
    assert "First failure:" in failed.out and "Traceback" not in failed.out

    sandbox.write_kata(KATA, solution(KATA))
    passed = sandbox.run("test", KATA)
    assert passed.code == 0, passed.out + passed.err
    assert "12 of 12 properties pass" in passed.out


@pytest.mark.contributors
def test_compare_draws_the_weights_and_accepts_a_right_answer_with_float16_weights(sandbox, tmp_path):
    right = REPO / "tests" / "katas" / KATA / "right" / "float16_weights.py"
    report = tmp_path / "half.json"
    r = sandbox.run("compare", KATA, "--file", str(right), "--no-speed", "--json", str(report))
    assert r.code == 0, r.out + r.err
    data = json.loads(report.read_text())
    assert [m["title"] for m in data["maps"]] == ["out with v = I (the weights)"]
    assert all(c["agree"] for c in data["cases"])
    # not identical to the reference everywhere: agreement comes from the kata's tolerance
    assert any(d["max_abs"] > 0 for c in data["cases"] for d in c["diffs"].values())


def test_the_kata_tolerance_is_the_contracts_bound():
    battery = BATTERIES[KATA]
    assert battery.tolerance == "float16_attention"
    case = {"q": np.array([[1.0, 2.0]], np.float16), "k": np.array([[1.0, 0.0], [0.0, 3.0]], np.float16),
            "v": np.array([[4.0], [-2.0]], np.float16)}
    want = np.array([[-1.5]], np.float16)
    # ulp16(1.5) = 2^-10; S = 6 / sqrt(2); max |v| = 4
    bound = 2.0**-10 + 2.0**-12 * 4.0 * (1 + 6 / np.sqrt(2))
    assert tolerances.TOLERANCES["float16_attention"](case, want)[0, 0] == pytest.approx(bound)
    inside = np.array([[-1.5 + 0.9 * bound]], np.float16)
    outside = np.array([[-1.5 + 1.2 * bound]], np.float16)
    assert tolerances.agree("float16_attention", inside, want, case)
    assert not tolerances.agree("float16_attention", outside, want, case)
    assert not tolerances.agree("float16_attention", want.astype(np.float64), want, case)  # dtype


def _behaves_like(path) -> set[str]:
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "BEHAVES_LIKE" for t in node.targets):
            return set(ast.literal_eval(node.value))
    return set()


# The judge's self-check (tests/meta/test_judge_catches_bugs.py) also requires each wrong file to
# be named alone by the diagnosis, which uses this battery: here every pair, in the contributors' suite.
@pytest.mark.contributors
def test_the_battery_tells_every_pair_of_known_bugs_apart():
    from dojo.commands.compare import compare_case
    from dojo.worker.isolate import call_here

    battery, spec = BATTERIES[KATA], registry.get(KATA)
    files = sorted((REPO / "tests" / "katas" / KATA / "wrong").glob("*.py"))
    outcomes = {}
    for path in files:
        fn = load_kata(path, spec.function)
        outcomes[path] = [call_here(fn, battery.inputs(case), path) for case in battery.cases]
    inputs = [battery.inputs(case) for case in battery.cases]
    for a, b in itertools.combinations(files, 2):
        if b.stem in _behaves_like(a) or a.stem in _behaves_like(b):
            continue
        same = all(
            compare_case(x, y, battery, b.name, kw)[0] and bool(x.mutated) == bool(y.mutated)
            for x, y, kw in zip(outcomes[a], outcomes[b], inputs)
        )
        assert not same, f"{KATA}: no battery case tells {a.stem} from {b.stem}"
