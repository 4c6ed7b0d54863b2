"""A blind hostile round, stop 57: queries in chunks of 512 (n // 512 of them): rows from 512 on stay 0. Sizes
stopped at 512; an example has 520 queries and 530 keys now."""
KATA = "masked_attention"
ROUTE = "dojo test"
EXPECT = "is wrong"  # what the verdict must say

import numpy as np


def scaled_dot_product_attention(q, k, v, mask=None):
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
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

    # process the queries in chunks of 512 rows to bound the (chunk, m) score matrix
    chunk = 512
    out = np.zeros((n, d_v))
    weights_all = np.zeros((n, m))
    for c in range(max(1, n // chunk)):
        rows = slice(c * chunk, (c + 1) * chunk)
        with np.errstate(over="ignore", invalid="ignore"):
            scores = q[rows] @ k.T / np.sqrt(d_k)
        ok = allowed[rows]
        if not np.isfinite(scores[ok]).all():
            raise ValueError("a score q·k/sqrt(d_k) overflowed; rescale q or k")
        scores = np.where(ok, scores, -np.inf)
        weights = np.exp(scores - scores.max(axis=1, keepdims=True))
        weights /= weights.sum(axis=1, keepdims=True)
        weights_all[rows] = weights
        out[rows] = weights @ v
    return out, weights_all
