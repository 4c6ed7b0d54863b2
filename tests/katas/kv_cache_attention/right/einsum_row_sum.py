"""Positions compared with arange, scores with einsum, the softmax normalised by the row sum."""
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
    e = np.exp(s - s.max(axis=1, keepdims=True))
    weights = e / e.sum(axis=1, keepdims=True)
    return np.einsum("ij,jd->id", weights, v), weights
