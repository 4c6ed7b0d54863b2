"""The ALiBi kata (alibi_attention) through the tool.

End to end through the real entry point (``python -m dojo``) in a sandbox: a known slope bug
fails ``dojo test`` with the property that names it and is diagnosed as itself, the reference
passes every property (these two run whole judges: contributors' suite), and ``dojo compare``
draws the weights of three heads (v = I, so out is the weights) and points at the future leak
of an answer without the causal mask.
"""

from __future__ import annotations

import json

import pytest


@pytest.mark.contributors  # about 7 s on two busy cores: a whole judge run and its diagnosis
def test_interleaving_the_wrong_slopes_fails_with_the_property_that_names_it(sandbox, wrong):
    sandbox.write_kata("alibi_attention", wrong("alibi_attention", "interleave_odd_indices"))
    failed = sandbox.run("test", "alibi_attention")
    assert failed.code == 1, failed.out + failed.err
    assert "✗ With h not a power of 2 (3, 5, 6, 7, 12, 24, ...) the slopes are those of c heads" in failed.out
    assert "✓ With many heads (16 to 256)" not in failed.out  # 24, 48, 96 and 200 heads are not powers of 2
    assert "takes the slopes of 2c heads at odd indices" in failed.out  # diagnosed as itself
    assert "First failure:" in failed.out and "Traceback" not in failed.out


@pytest.mark.contributors  # about 7 s: a whole judge run (the judge's own file checks the reference too)
def test_the_reference_passes_every_property(sandbox, solution):
    sandbox.write_kata("alibi_attention", solution("alibi_attention"))
    passed = sandbox.run("test", "alibi_attention")
    assert passed.code == 0, passed.out + passed.err
    assert "18 of 18 properties pass" in passed.out


def test_compare_draws_three_heads_and_the_future_leak(sandbox, wrong, tmp_path):
    report = tmp_path / "alibi.json"
    r = sandbox.run("compare", "alibi_attention", "--file", str(wrong("alibi_attention", "no_causal_mask")),
                    "--no-speed", "--json", str(report))
    assert r.code == 1, r.out + r.err
    data = json.loads(report.read_text())
    assert [m["title"] for m in data["maps"]] == [
        "head 4 (slope 1/2)", "head 0 (slope 1/4)", "head 3 (slope 1/256)",
    ]
    assert "yours puts weight on" in r.out and "a future leak" in r.out
    bad = {c["case"] for c in data["cases"] if not c["agree"]}
    assert "future keys 1e12 long along q[:, 0] (must get weight 0)" in bad
    assert "n = m = 1, h=2" not in bad  # one key: nothing to leak
