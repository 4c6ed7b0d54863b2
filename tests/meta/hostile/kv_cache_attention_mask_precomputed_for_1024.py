"""A realistic bug that passed every property (stop 55's blind round): it
slices nanoGPT's causal mask, precomputed for 1024 positions: an IndexError past 1024 keys.
The judge's largest case has exactly 1024 keys.
The example is there now; this file keeps it caught."""
KATA = "kv_cache_attention"
ROUTE = "dojo test"
EXPECT = "raised IndexError"  # what the verdict must say

import numpy as np

#: nanoGPT keeps a causal mask buffer of block_size = 1024 positions and slices it per call.
BLOCK_SIZE = 1024
_bias = np.tril(np.ones((BLOCK_SIZE, BLOCK_SIZE), dtype=bool))


def cached_causal_attention(q, k, v):
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    for name, a in (("q", q), ("k", k), ("v", v)):
        if a.ndim != 2 or 0 in a.shape:
            raise ValueError(f"{name} must be 2-D and non-empty, got {a.shape}")
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf")
    n, d_k = q.shape
    m, d_v = v.shape
    if k.shape[1] != d_k:
        raise ValueError("q and k must have the same width")
    if k.shape[0] != m:
        raise ValueError("k and v must have the same number of rows")
    if m < n:
        raise ValueError(f"the cache (m={m}) is shorter than the new tokens (n={n})")

    allowed = _bias[m - n:m, :m]                  # rows = the queries' positions
    with np.errstate(over="ignore", invalid="ignore"):
        scores = q @ k.T / np.sqrt(d_k)
    if not np.isfinite(scores[allowed]).all():
        raise ValueError("a score overflowed")
    scores = np.where(allowed, scores, -np.inf)
    w = np.exp(scores - scores.max(axis=1, keepdims=True))
    w /= w.sum(axis=1, keepdims=True)
    return w @ v, w
