"""Computes in np.result_type(q, k, v, np.float64): longdouble inputs give longdouble out and
weights, not float64 (a blind round, stop 58). longdouble is one of the drawn forms now."""
KATA = "masked_attention"
ROUTE = "dojo test"
EXPECT = "should be float64"  # what the verdict must say

import numpy as np


def scaled_dot_product_attention(q, k, v, mask=None):
    q, k, v = (np.asarray(a) for a in (q, k, v))
    dtype = np.result_type(q, k, v, np.float64)  # at least float64; keep more precision if given it
    q, k, v = (a.astype(dtype) for a in (q, k, v))
    for name, a in (("q", q), ("k", k), ("v", v)):
        if a.ndim != 2 or 0 in a.shape:
            raise ValueError(f"{name} must be 2-D with no empty dimension, got shape {a.shape}")
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf")
    n, d_k = q.shape
    m, d_v = v.shape
    if k.shape[1] != d_k:
        raise ValueError(f"q and k must have the same width d_k, got {d_k} and {k.shape[1]}")
    if k.shape[0] != m:
        raise ValueError(f"k and v must have the same number of rows, got {k.shape[0]} and {m}")
    if mask is None:
        allowed = np.ones((n, m), dtype=bool)  # (n, m)
    else:
        allowed = np.asarray(mask)
        if allowed.dtype != np.bool_:
            raise ValueError(f"mask must have dtype bool (True = may attend), got {allowed.dtype}")
        if allowed.shape != (n, m):
            raise ValueError(f"mask must have shape (n, m) = {(n, m)}, got {allowed.shape}")
        if not allowed.any(axis=1).all():
            row = int(np.flatnonzero(~allowed.any(axis=1))[0])
            raise ValueError(f"query {row} has no allowed key: its mask row is all False")

    with np.errstate(over="ignore", invalid="ignore"):
        scores = q @ k.T / np.sqrt(d_k)  # (n, m)
    if not np.isfinite(scores[allowed]).all():
        raise ValueError("a score q·k/sqrt(d_k) overflowed; rescale q or k")
    scores = np.where(allowed, scores, -np.inf)  # (n, m), blocked logits are -inf
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))  # (n, m)
    weights /= weights.sum(axis=1, keepdims=True)
    return weights @ v, weights  # (n, d_v), (n, m)
