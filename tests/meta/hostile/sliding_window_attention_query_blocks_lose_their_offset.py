"""A realistic bug that passed every property (stop 55's blind round): it
processes the queries in blocks of 128 and forgets each block's offset in the positions:
wrong from the 129th query on. The judge drew at most 128 queries.
The example is there now; this file keeps it caught."""
KATA = "sliding_window_attention"
ROUTE = "dojo test"
EXPECT = "out is wrong"  # what the verdict must say

import numpy as np

BLOCK = 128  # queries per block: bounds the (block, keys) score tile for long prefills


def sliding_window_attention(q, k, v, window, num_sinks=0):
    for name, value, least in (("window", window, 1), ("num_sinks", num_sinks, 0)):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            raise ValueError(f"{name} must be an int, got {value!r}")
        if value < least:
            raise ValueError(f"{name} must be >= {least}, got {value}")
    window, num_sinks = int(window), int(num_sinks)
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    for name, a in (("q", q), ("k", k), ("v", v)):
        if a.ndim != 2 or 0 in a.shape:
            raise ValueError(f"{name} must be 2-D and non-empty, got {a.shape}")
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf")
    n, d_k = q.shape
    m, d_v = v.shape
    if k.shape[1] != d_k:
        raise ValueError("q and k widths differ")
    if k.shape[0] != m:
        raise ValueError("k and v row counts differ")
    if m < n:
        raise ValueError("cache shorter than the queries")
    out = np.empty((n, d_v))
    j = np.arange(m)[None, :]
    for s in range(0, n, BLOCK):
        e = min(s + BLOCK, n)
        p = (m - n + np.arange(e - s))[:, None]  # positions of this block's queries
        allowed = (j <= p) & ((p - j < window) | (j < num_sinks))
        with np.errstate(over="ignore", invalid="ignore"):
            scores = q[s:e] @ k.T / np.sqrt(d_k)
        if not np.isfinite(scores[allowed]).all():
            raise ValueError("an allowed score overflowed")
        scores = np.where(allowed, scores, -np.inf)
        w = np.exp(scores - scores.max(axis=1, keepdims=True))
        w /= w.sum(axis=1, keepdims=True)
        out[s:e] = w @ v
    return out
