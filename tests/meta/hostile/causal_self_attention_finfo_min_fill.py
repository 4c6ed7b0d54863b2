"""A blind hostile round, stop 57: future scores filled with finfo.min, which ties with an allowed score of exactly
finfo.min and takes half its weight. Multihead attention had that example since stop 56; causal
attention has it now."""
KATA = "causal_self_attention"
ROUTE = "dojo test"
EXPECT = "is wrong"  # what the verdict must say

import numpy as np


def causal_self_attention(x, w_q, w_k, w_v):
    x, w_q, w_k, w_v = (np.asarray(a, dtype=np.float64) for a in (x, w_q, w_k, w_v))
    for name, a in (("x", x), ("w_q", w_q), ("w_k", w_k), ("w_v", w_v)):
        if a.ndim != 2 or 0 in a.shape:
            raise ValueError(f"{name} must be 2-D with no empty dimension, got shape {a.shape}")
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf")
    n, d_model = x.shape
    for name, w in (("w_q", w_q), ("w_k", w_k), ("w_v", w_v)):
        if w.shape[0] != d_model:
            raise ValueError(f"{name} must have d_model = {d_model} rows, got {w.shape[0]}")
    if w_q.shape[1] != w_k.shape[1]:
        raise ValueError(f"w_q and w_k must have the same width d_k, got {w_q.shape[1]} and {w_k.shape[1]}")
    d_k = w_q.shape[1]

    with np.errstate(over="ignore", invalid="ignore"):
        q, k, v = x @ w_q, x @ w_k, x @ w_v  # (n, d_k), (n, d_k), (n, d_v)
        scores = q @ k.T / np.sqrt(d_k)  # (n, n)
    allowed = np.tril(np.ones((n, n), dtype=bool))  # (n, n), True on and below the diagonal
    if not np.isfinite(scores[allowed]).all():
        raise ValueError("a score overflowed to inf; rescale x or the projections")
    scores = np.where(allowed, scores, np.finfo(np.float64).min)  # (n, n), like HF: finfo.min, no inf - inf
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))  # (n, n)
    weights /= weights.sum(axis=1, keepdims=True)
    return weights @ v, weights  # (n, d_v), (n, n)
