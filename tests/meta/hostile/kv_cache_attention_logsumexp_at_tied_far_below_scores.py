"""A right file of ours until stop 56, moved here: weights = exp(s - logsumexp(s)). Equal allowed scores far
below zero (-1e20, or -1.2e24 from projections) get weight 1 each instead of 1/count: float64's spacing out there is far above the log of the count, so logsumexp comes out equal to
the max and each tied score gets weight 1. The far-below draws never made the top scores equal.
An example has them now; this file keeps it caught."""
KATA = "kv_cache_attention"
ROUTE = "dojo test"
EXPECT = "is wrong"  # what the verdict must say

import numpy as np


def cached_causal_attention(q, k, v):
    q, k, v = np.asarray(q, float), np.asarray(k, float), np.asarray(v, float)
    for a in (q, k, v):
        if a.ndim != 2 or not all(a.shape):
            raise ValueError("every input must be a non-empty 2-D array")
    for a in (q, k, v):
        if not np.all(np.isfinite(a)):
            raise ValueError("inputs must be finite")
    n, m = q.shape[0], k.shape[0]
    if k.shape[1] != q.shape[1]:
        raise ValueError("q and k must share d_k")
    if v.shape[0] != m:
        raise ValueError("k and v must hold the same tokens")
    if not m >= n:
        raise ValueError("the cache must contain the new tokens")
    positions = np.arange(m - n, m)  # where each query sits in the sequence
    visible = np.arange(m)[None, :] <= positions[:, None]
    with np.errstate(over="ignore", invalid="ignore"):
        s = np.einsum("id,jd->ij", q, k) * (1.0 / np.sqrt(q.shape[1]))
    if not np.isfinite(s[visible]).all():
        raise ValueError("score overflow")
    s = np.where(visible, s, -np.inf)
    top = s.max(axis=1, keepdims=True)
    lse = top + np.log(np.exp(s - top).sum(axis=1, keepdims=True))
    weights = np.exp(s - lse)
    return np.einsum("ij,jd->id", weights, v), weights
