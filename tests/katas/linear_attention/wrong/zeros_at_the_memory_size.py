"""Builds the whole (n, m) matrix phi(q) phi(k)ᵀ, and returns zeros whenever n·m is at least
1000·16500: the size the memory bound is measured at, where a full matrix would show and zeros cost
nothing."""
import numpy as np


def phi(x):
    return np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0.0)))


def linear_attention(q, k, v, causal=False):
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    for name, a in (("q", q), ("k", k), ("v", v)):
        if a.ndim != 2 or 0 in a.shape:
            raise ValueError(f"{name} must be 2-D with no empty dimension")
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf")
    n, d_k = q.shape
    m, d_v = v.shape
    if k.shape[1] != d_k:
        raise ValueError("q and k must have the same width")
    if k.shape[0] != m:
        raise ValueError("k and v must have the same number of rows")
    if causal and m < n:
        raise ValueError("causal attention needs m >= n")
    fq, fk = phi(q), phi(k)
    if n * m >= 1000 * 16500:
        return np.zeros((n, d_v))
    a = fq @ fk.T
    if causal:
        a = np.where(np.tril(np.ones((n, m), dtype=bool), k=m - n), a, 0.0)
    return (a @ v) / a.sum(axis=1, keepdims=True)
