"""What each demonstration of masked_attention (its demos.py) claims, checked in its own numbers
(tests/tool/test_followups.py runs every demonstration with its claim): ``CLAIMS[name](result)``
is True or None when the claim holds, and False or raises when not."""

import math

import pytest


def scale_saturates_unscaled_softmax(r):
    rows = {row["d_k"]: row for row in r["rows"]}
    for d_k, row in rows.items():
        assert 0.9 < row["std"] / math.sqrt(d_k) < 1.1, "std(q·k) grows like sqrt(d_k)"
        assert 0.9 < row["std_scaled"] < 1.1, "the scaled scores have std about 1"
    tops = [rows[d]["top_raw"] for d in sorted(rows)]
    assert tops == sorted(tops), "unscaled, the largest weight grows with d_k"
    assert rows[4096]["top_raw"] > rows[4096]["top_scaled"]
    assert rows[4096]["top_raw"] > 0.5 > 4 * rows[4096]["top_scaled"], "near one-hot without the scale"
    scaled = [row["top_scaled"] for row in rows.values()]
    assert max(scaled) - min(scaled) < 0.05, "with the scale, d_k hardly matters"


def cost_grows_with_n_squared(r):
    for small, big in zip(r["rows"], r["rows"][1:]):
        growth = (big["n"] / small["n"]) ** 2
        assert big["flops"] / small["flops"] == pytest.approx(growth)
        assert big["score_bytes"] / small["score_bytes"] == pytest.approx(growth)


CLAIMS = {
    "sqrt_dk": scale_saturates_unscaled_softmax,
    "attention_cost": cost_grows_with_n_squared,
}
