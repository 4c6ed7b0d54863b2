"""Blocks future keys with np.where(allowed, scores, -1e9) instead of -inf, which is wrong when a row's allowed scores all lie far below -1e9. Any other large finite fill is the same bug, with its own threshold."""
import numpy as np


def causal_self_attention(x, w_q, w_k, w_v):
    x, w_q, w_k, w_v = (np.asarray(a, dtype=np.float64) for a in (x, w_q, w_k, w_v))
    for name, a in (("x", x), ("w_q", w_q), ("w_k", w_k), ("w_v", w_v)):
        if a.ndim != 2 or 0 in a.shape:
            raise ValueError(f"{name} must be 2-D with no empty dimension, got {a.shape}")
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf")
    n, d_model = x.shape
    for name, w in (("w_q", w_q), ("w_k", w_k), ("w_v", w_v)):
        if w.shape[0] != d_model:
            raise ValueError(f"{name} must have d_model = {d_model} rows")
    if w_q.shape[1] != w_k.shape[1]:
        raise ValueError("w_q and w_k must have the same width")
    d_k = w_q.shape[1]
    with np.errstate(over="ignore", invalid="ignore"):
        q, k, v = x @ w_q, x @ w_k, x @ w_v
        scores = q @ k.T / np.sqrt(d_k)
    allowed = np.tril(np.ones((n, n), dtype=bool))
    if not np.isfinite(scores[allowed]).all():
        raise ValueError("an allowed score overflowed to inf")
    scores = np.where(allowed, scores, -1e9)
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    weights /= weights.sum(axis=1, keepdims=True)
    return weights @ v, weights
