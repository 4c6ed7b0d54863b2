"""What each demonstration of kv_cache_attention (its demos.py) claims, checked in its own numbers
(tests/tool/test_followups.py runs every demonstration with its claim): ``CLAIMS[name](result)``
is True or None when the claim holds, and False or raises when not."""

import pytest


def decoding_is_memory_bound_until_batched(r):
    intensity = [row["intensity"] for row in r["rows"]]
    assert intensity == sorted(intensity)
    assert r["rows"][0]["batch"] == 1 and intensity[0] < 2 < r["ridge"]
    assert intensity[-1] > r["ridge"], "some batch size reaches the GPU's flops per byte"


CLAIMS = {
    "kv_cache_memory": lambda r: (
        r["mha"] / r["gqa"] == r["heads"] / r["kv_heads"]
        and r["per_token"] * r["tokens"] == r["mha"]
        and r["mha"] > r["weights"]  # the answer: the cache can outgrow the weights
    ),
    "decode_intensity": decoding_is_memory_bound_until_batched,
    "kv_cache_recompute": lambda r: all(
        row["without"] / row["with"] == pytest.approx(row["n"], rel=1e-12) for row in r["rows"]
    ),
}
