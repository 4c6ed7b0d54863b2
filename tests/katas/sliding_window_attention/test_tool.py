"""sliding_window_attention (kata 11) through the real entry point (``python -m dojo``) in a
sandbox: a known bug fails ``dojo test`` with the property that names it, the reference passes,
and ``dojo compare`` draws the weights (out with v = I) with the blocked cells marked."""

from __future__ import annotations

import pytest

import json

from dojo.catalogue import registry

KATA = "sliding_window_attention"


def test_the_kata_is_number_11_in_the_decoding_track():
    numbers = {k.module: i for i, k in enumerate(registry.KATAS, 1)}
    assert numbers[KATA] == 11 and registry.get(KATA).track == "Decoding and efficiency"


@pytest.mark.contributors  # two whole judge runs (8-13 s in CI): the README's line judges the reference in tests/
def test_a_finite_minus_1e9_fill_fails_and_the_reference_passes(sandbox, wrong, solution):
    sandbox.write_kata(KATA, wrong(KATA, "finite_fill_minus_1e9"))
    failed = sandbox.run("test", KATA)
    assert failed.code == 1, failed.out + failed.err
    assert "✗ When every allowed score lies far below -1e9" in failed.out
    assert "First failure:" in failed.out and "Traceback" not in failed.out

    sandbox.write_kata(KATA, solution(KATA))
    passed = sandbox.run("test", KATA)
    assert passed.code == 0, passed.out + passed.err
    assert "18 of 18 properties pass" in passed.out


def test_compare_draws_the_weights_and_marks_a_window_off_by_one(sandbox, wrong, tmp_path):
    report = tmp_path / "sliding.json"
    r = sandbox.run("compare", KATA, "--file", str(wrong(KATA, "window_off_by_one")), "--no-speed",
                    "--json", str(report))
    assert r.code == 1, r.out + r.err
    assert "yours puts weight on 6 cells that must be exactly 0" in r.out
    data = json.loads(report.read_text())
    assert [m["title"] for m in data["maps"]] == ["weights (out with v = I)"]
    bad = {c["case"] for c in data["cases"] if not c["agree"]}
    assert "window = 1, no sinks (each query sees only itself)" in bad
    assert "window longer than the cache (window 20, m=6)" not in bad
