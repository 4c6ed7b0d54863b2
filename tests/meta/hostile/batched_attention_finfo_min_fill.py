"""A realistic bug that passed every property (stop 56's second blind round): blocked
scores are filled with np.finfo(np.float64).min (rows with no allowed key still zeroed). Where
an allowed score is exactly finfo.min a blocked key ties with it and takes half the weight.
An example has that score now (S.FINFO_MIN_FACTORS); this file keeps it caught."""
KATA = "batched_attention"
ROUTE = "dojo test"
EXPECT = 'is wrong'  # what the verdict must say

import numbers

import numpy as np


def batched_multihead_attention(x, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias,
                                num_heads, key_padding_mask=None, causal=False):
    if isinstance(num_heads, bool) or not isinstance(num_heads, numbers.Integral) or num_heads < 1:
        raise ValueError(f"num_heads must be a positive int, got {num_heads!r}")
    h = int(num_heads)
    x = np.asarray(x, dtype=np.float64)
    if x.ndim != 3 or 0 in x.shape:
        raise ValueError(f"x must be (B, n, E) with no empty dimension, got shape {x.shape}")
    B, n, E = x.shape
    if E % h:
        raise ValueError(f"num_heads = {h} does not divide the embedding size E = {E}")
    d_head = E // h
    params = {}
    for name, a, shape in (
        ("in_proj_weight", in_proj_weight, (3 * E, E)),
        ("in_proj_bias", in_proj_bias, (3 * E,)),
        ("out_proj_weight", out_proj_weight, (E, E)),
        ("out_proj_bias", out_proj_bias, (E,)),
    ):
        a = np.asarray(a, dtype=np.float64)
        if a.shape != shape:
            raise ValueError(f"{name} must have shape {shape} for E = {E}, got {a.shape}")
        params[name] = a
    for name, a in (("x", x), *params.items()):
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf")
    allowed = np.ones((B, 1, n, n), dtype=bool)  # (B, 1, n, n): [b, ., query, key]
    if key_padding_mask is not None:
        pad = np.asarray(key_padding_mask)
        if pad.dtype != np.bool_:
            raise ValueError(f"key_padding_mask must have dtype bool (True = padding), got {pad.dtype}")
        if pad.shape != (B, n):
            raise ValueError(f"key_padding_mask must have shape (B, n) = {(B, n)}, got {pad.shape}")
        allowed = allowed & ~pad[:, None, None, :]  # (B, 1, n, n), padded keys blocked
    if causal:
        allowed = allowed & np.tril(np.ones((n, n), dtype=bool))  # (B, 1, n, n)

    with np.errstate(over="ignore", invalid="ignore"):
        qkv = x @ params["in_proj_weight"].T + params["in_proj_bias"]  # (B, n, 3E)
        if not np.isfinite(qkv).all():
            raise ValueError("a projection of x overflowed; rescale x or in_proj_weight")
        q, k, v = (
            a.reshape(B, n, h, d_head).transpose(0, 2, 1, 3)  # (B, h, n, d_head)
            for a in np.split(qkv, 3, axis=-1)
        )
        scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(d_head)  # (B, h, n, n)
    allowed = np.broadcast_to(allowed, scores.shape)  # (B, h, n, n)
    if not np.isfinite(scores[allowed]).all():
        raise ValueError("a score overflowed to inf; rescale x or the projections")
    scores = np.where(allowed, scores, np.finfo(np.float64).min)  # (B, h, n, n), blocked: the most negative float
    has_key = allowed.any(axis=-1, keepdims=True)  # (B, h, n, 1)
    top = np.where(has_key, scores.max(axis=-1, keepdims=True), 0.0)  # (B, h, n, 1)
    weights = np.exp(scores - top)  # (B, h, n, n); a row with no key is all 0
    total = weights.sum(axis=-1, keepdims=True)  # (B, h, n, 1)
    weights = np.divide(weights, total, out=np.zeros_like(weights), where=has_key)
    heads = weights @ v  # (B, h, n, d_head)
    concat = heads.transpose(0, 2, 1, 3).reshape(B, n, E)  # (B, n, E), head 0's columns first
    with np.errstate(over="ignore", invalid="ignore"):
        out = concat @ params["out_proj_weight"].T + params["out_proj_bias"]  # (B, n, E)
    if not np.isfinite(out).all():
        raise ValueError("out overflowed; rescale the projections")
    return out, weights
