"""Query head h uses kv head h % num_kv_heads (tiling) instead of h // g: consecutive query heads must share a kv head."""
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
    for name, w, heads in (("w_q", w_q, h), ("w_k", w_k, h_kv), ("w_v", w_v, h_kv)):
        if w.shape[1] % heads:
            raise ValueError(f"the width of {name} is not divisible by its heads")
    d_k, d_v = w_q.shape[1] // h, w_v.shape[1] // h_kv
    if w_k.shape[1] != h_kv * d_k:
        raise ValueError("w_k must have num_kv_heads * d_k columns")
    if w_o.shape[0] != h * d_v:
        raise ValueError("w_o must have num_heads * d_v rows")
    with np.errstate(over="ignore", invalid="ignore"):
        q = (x @ w_q).reshape(n, h, d_k).transpose(1, 0, 2) / np.sqrt(d_k)
        k = (x @ w_k).reshape(n, h_kv, d_k).transpose(1, 0, 2)
        v = (x @ w_v).reshape(n, h_kv, d_v).transpose(1, 0, 2)
        kv_of = np.arange(h) % h_kv
        k, v = k[kv_of], v[kv_of]
        scores = q @ k.transpose(0, 2, 1)
    blocked = np.triu(np.ones((n, n), dtype=bool), k=1) if causal else np.zeros((n, n), dtype=bool)
    if not (np.isfinite(scores) | blocked).all():
        raise ValueError("a score overflowed to inf")
    scores = np.where(blocked, -np.inf, scores)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    heads = weights @ v
    concat = heads.transpose(1, 0, 2).reshape(n, h * d_v)
    return concat @ w_o, weights
