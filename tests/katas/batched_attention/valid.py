"""The contract of batched_attention, written out again apart from its solution's docstring
(solutions/batched_attention.py): ``check(call)`` raises ``Broken`` when one call drawn by its judge's
strategies breaks it (tests/meta/test_strategies.py draws them)."""

from __future__ import annotations

import numpy as np

from tests.meta.validity import a_bool, a_positive_int, bool_mask, finite_array, finite_scores, need, scores, shaped


def check(call) -> None:
    x = finite_array(call, "x", 3)
    B, n, E = x.shape
    h = a_positive_int(call["num_heads"], "num_heads")
    need(E % h == 0, f"num_heads = {h} does not divide E = {E}")
    shapes = {
        "in_proj_weight": (3 * E, E), "in_proj_bias": (3 * E,), "out_proj_weight": (E, E), "out_proj_bias": (E,),
    }
    p = {name: finite_array(call, name, len(shape)) for name, shape in shapes.items()}
    for name, shape in shapes.items():
        shaped(p[name], name, shape)
    if call.get("key_padding_mask") is not None:
        bool_mask(call["key_padding_mask"], (B, n), "key_padding_mask")
    a_bool(call.get("causal", False), "causal")
    with np.errstate(over="ignore", invalid="ignore"):
        qkv = x @ p["in_proj_weight"].T + p["in_proj_bias"]  # (B, n, 3E)
    need(np.isfinite(qkv).all(), "a projection x W_inᵀ + b_in is not finite")
    q, k = (qkv[..., i * E : (i + 1) * E].reshape(B, n, h, -1).transpose(0, 2, 1, 3) for i in (0, 1))
    finite_scores(scores(q, k), "a head's Q_h K_hᵀ / sqrt(d_head)")
