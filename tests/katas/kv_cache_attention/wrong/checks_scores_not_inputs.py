"""Checks only the scores for NaN/inf, not the inputs, so a NaN in a future key or in v slips through."""
import numpy as np


def cached_causal_attention(q, k, v):
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    for name, a in (("q", q), ("k", k), ("v", v)):
        if a.ndim != 2 or 0 in a.shape:
            raise ValueError(f"{name} must be 2-D with no empty dimension, got {a.shape}")
    n, d_k = q.shape
    m, d_v = v.shape
    if k.shape[1] != d_k:
        raise ValueError("q and k must have the same width")
    if k.shape[0] != m:
        raise ValueError("k and v must have the same number of rows")
    if m < n:
        raise ValueError("the cache must hold at least the n new tokens")
    allowed = np.tril(np.ones((n, m), dtype=bool), k=m - n)
    with np.errstate(over="ignore", invalid="ignore"):
        scores = q @ k.T / np.sqrt(d_k)
    if not np.isfinite(scores[allowed]).all():
        raise ValueError("an allowed score overflowed to inf")
    scores = np.where(allowed, scores, -np.inf)
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    weights /= weights.sum(axis=1, keepdims=True)
    return weights @ v, weights
