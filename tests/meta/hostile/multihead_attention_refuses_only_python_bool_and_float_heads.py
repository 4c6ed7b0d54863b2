"""A blind hostile round, stop 57: refuses num_heads with isinstance(h, (bool, float)), which lets np.float32(2.0)
and np.True_ through. Only Python's float and True were tried; NumPy's are drawn too now, and an
example tries np.float32(2.0) on every run."""
KATA = "multihead_attention"
ROUTE = "dojo test"
EXPECT = "expected a ValueError"  # what the verdict must say

import numbers

import numpy as np


def multihead_attention(x, w_q, w_k, w_v, w_o, num_heads, causal=False):
    if isinstance(num_heads, (bool, float)) or num_heads < 1:  # bool and float are rejected
        raise ValueError(f"num_heads must be a positive int, got {num_heads!r}")
    h = int(num_heads)
    x, w_q, w_k, w_v, w_o = (np.asarray(a, dtype=np.float64) for a in (x, w_q, w_k, w_v, w_o))
    for name, a in (("x", x), ("w_q", w_q), ("w_k", w_k), ("w_v", w_v), ("w_o", w_o)):
        if a.ndim != 2 or 0 in a.shape:
            raise ValueError(f"{name} must be 2-D with no empty dimension, got shape {a.shape}")
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf")
    n, d_model = x.shape
    for name, w in (("w_q", w_q), ("w_k", w_k), ("w_v", w_v)):
        if w.shape[0] != d_model:
            raise ValueError(f"{name} must have d_model = {d_model} rows, got {w.shape[0]}")
    if w_q.shape[1] != w_k.shape[1]:
        raise ValueError(f"w_q and w_k must have the same width, got {w_q.shape[1]} and {w_k.shape[1]}")
    for name, w in (("w_q and w_k", w_q), ("w_v", w_v)):
        if w.shape[1] % h:
            raise ValueError(f"the width of {name} ({w.shape[1]}) is not divisible by num_heads = {h}")
    d_k, d_v = w_q.shape[1] // h, w_v.shape[1] // h
    if w_o.shape[0] != h * d_v:
        raise ValueError(f"w_o must have num_heads * d_v = {h * d_v} rows, got {w_o.shape[0]}")

    with np.errstate(over="ignore", invalid="ignore"):
        q = (x @ w_q / np.sqrt(d_k)).reshape(n, h, d_k).transpose(1, 0, 2)  # (h, n, d_k), pre-scaled
        k = (x @ w_k).reshape(n, h, d_k).transpose(1, 0, 2)  # (h, n, d_k)
        v = (x @ w_v).reshape(n, h, d_v).transpose(1, 0, 2)  # (h, n, d_v)
        scores = q @ k.transpose(0, 2, 1)  # (h, n, n) = Q_h K_hᵀ / sqrt(d_k) for every head
    blocked = np.triu(np.ones((n, n), dtype=bool), k=1) if causal else np.zeros((n, n), dtype=bool)
    if not (np.isfinite(scores) | blocked).all():  # only scores that take part in the softmax
        raise ValueError("a score overflowed to inf; rescale x or the projections")
    np.copyto(scores, -np.inf, where=blocked)  # (h, n, n), future logits are -inf
    scores -= scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores, out=scores)  # (h, n, n)
    weights /= weights.sum(axis=-1, keepdims=True)
    heads = weights @ v  # (h, n, d_v)
    concat = heads.transpose(1, 0, 2).reshape(n, h * d_v)  # (n, h*d_v), head 0's columns first
    return concat @ w_o, weights  # (n, d_out), (h, n, n)
