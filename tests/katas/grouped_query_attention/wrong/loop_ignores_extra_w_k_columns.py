"""Slices each kv head's d_k columns out of x w_k without checking w_k's width, so k heads of another width than q heads go unnoticed."""
import numbers

import numpy as np


def grouped_query_attention(x, w_q, w_k, w_v, w_o, num_heads, num_kv_heads, causal=False):
    for name, value in (("num_heads", num_heads), ("num_kv_heads", num_kv_heads)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
            raise ValueError(f"{name} must be a positive int")
    h, h_kv = int(num_heads), int(num_kv_heads)
    if h % h_kv:
        raise ValueError("num_kv_heads must divide num_heads")
    g = h // h_kv
    x, w_q, w_k, w_v, w_o = (np.asarray(a, dtype=np.float64) for a in (x, w_q, w_k, w_v, w_o))
    for name, a in (("x", x), ("w_q", w_q), ("w_k", w_k), ("w_v", w_v), ("w_o", w_o)):
        if a.ndim != 2 or 0 in a.shape:
            raise ValueError(f"{name} must be 2-D with no empty dimension")
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf")
    n, d_model = x.shape
    for name, w in (("w_q", w_q), ("w_k", w_k), ("w_v", w_v)):
        if w.shape[0] != d_model:
            raise ValueError(f"{name} must have d_model rows")
    for name, w, heads in (("w_q", w_q, h), ("w_v", w_v, h_kv)):
        if w.shape[1] % heads:
            raise ValueError(f"the width of {name} is not divisible by its heads")
    d_k, d_v = w_q.shape[1] // h, w_v.shape[1] // h_kv
    if w_o.shape[0] != h * d_v:
        raise ValueError("w_o must have num_heads * d_v rows")
    with np.errstate(over="ignore", invalid="ignore"):
        Q, K, V = x @ w_q, x @ w_k, x @ w_v
    weights = np.zeros((h, n, n))
    heads = []
    blocked = np.triu(np.ones((n, n), dtype=bool), k=1) if causal else np.zeros((n, n), dtype=bool)
    for head in range(h):
        c = head // g
        with np.errstate(over="ignore", invalid="ignore"):
            s = Q[:, head * d_k : (head + 1) * d_k] @ K[:, c * d_k : (c + 1) * d_k].T / np.sqrt(d_k)
        if not (np.isfinite(s) | blocked).all():
            raise ValueError("a score overflowed to inf")
        s = np.where(blocked, -np.inf, s)
        w = np.exp(s - s.max(axis=-1, keepdims=True))
        w /= w.sum(axis=-1, keepdims=True)
        weights[head] = w
        heads.append(w @ V[:, c * d_v : (c + 1) * d_v])
    return np.concatenate(heads, axis=1) @ w_o, weights
