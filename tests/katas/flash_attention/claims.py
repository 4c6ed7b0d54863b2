"""What each demonstration of flash_attention (its demos.py) claims, checked in its own numbers
(tests/tool/test_followups.py runs every demonstration with its claim): ``CLAIMS[name](result)``
is True or None when the claim holds, and False or raises when not."""


def flash_needs_less_memory(r):
    assert r["tiled_peak"] < r["full_peak"]
    assert r["tiled_peak"] < r["n"] * r["n"] * 8, "less than one float64 score matrix"
    assert r["max_diff"] < 1e-12, "and computes the same output"
    assert r["working"] < r["score"] / 1000


def recommended_tiles_fit(r):
    fits = {(row["b_r"], row["b_c"]): row["fits"] for row in r["rows"]}
    assert fits[(128, 64)] and fits[(64, 64)], "the tiles the answer recommends fit"
    assert not fits[(128, 128)], "doubling B_c no longer fits with double buffering"
    for row in r["rows"]:
        assert row["fits"] == (row["buffered"] <= r["budget"])


def causal_skips_almost_half(r):
    t = r["t"]
    assert r["skipped"] == t * (t - 1) // 2 == r["unmasked"]
    assert r["diagonal"] == t
    assert 0.5 < (t * t - r["skipped"]) / (t * t) < 0.6, "a little over half the work of full attention"
    assert r["skipped"] + r["diagonal"] + r["unmasked"] == t * t


CLAIMS = {
    "flash_memory": flash_needs_less_memory,
    "flash_block_sizes": recommended_tiles_fit,
    "causal_blocks": causal_skips_almost_half,
    "lse_rebuild": lambda r: r["rebuild_error"] < 1e-12 and r["p_bytes"] > 1000 * r["lse_bytes"],
}
