"""A blind hostile round, stop 57: never casts the head counts to int; np.uint64 // np.int64 is a float64, and
the reshape refuses it. Both counts always came as one type; a mixed signed and unsigned pair is
drawn in about half the examples now."""
KATA = "grouped_query_attention"
ROUTE = "dojo test"
EXPECT = "your code raised"  # what the verdict must say

import numbers

import numpy as np


def grouped_query_attention(x, w_q, w_k, w_v, w_o, num_heads, num_kv_heads, causal=False):
    for name, value in (("num_heads", num_heads), ("num_kv_heads", num_kv_heads)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
            raise ValueError(f"{name} must be a positive int, got {value!r}")
    h, h_kv = num_heads, num_kv_heads
    if h % h_kv:
        raise ValueError(f"num_kv_heads = {h_kv} must divide num_heads = {h}")
    g = h // h_kv
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
    for name, w, heads in (("w_q", w_q, h), ("w_k", w_k, h_kv), ("w_v", w_v, h_kv)):
        if w.shape[1] % heads:
            raise ValueError(f"the width of {name} ({w.shape[1]}) is not divisible by its {heads} heads")
    d_k, d_v = w_q.shape[1] // h, w_v.shape[1] // h_kv
    if w_k.shape[1] != h_kv * d_k:
        raise ValueError(f"w_k must have num_kv_heads * d_k = {h_kv * d_k} columns, got {w_k.shape[1]}")
    if w_o.shape[0] != h * d_v:
        raise ValueError(f"w_o must have num_heads * d_v = {h * d_v} rows, got {w_o.shape[0]}")

    with np.errstate(over="ignore", invalid="ignore"):
        q = (x @ w_q / np.sqrt(d_k)).reshape(n, h_kv, g, d_k).transpose(1, 2, 0, 3)  # (h_kv, g, n, d_k)
        k = (x @ w_k).reshape(n, h_kv, d_k).transpose(1, 0, 2)[:, None]  # (h_kv, 1, n, d_k)
        v = (x @ w_v).reshape(n, h_kv, d_v).transpose(1, 0, 2)[:, None]  # (h_kv, 1, n, d_v)
        scores = q @ k.transpose(0, 1, 3, 2)  # (h_kv, g, n, n): query head c*g + j against kv head c
    blocked = np.triu(np.ones((n, n), dtype=bool), k=1) if causal else np.zeros((n, n), dtype=bool)
    if not (np.isfinite(scores) | blocked).all():  # only scores that take part in the softmax
        raise ValueError("a score overflowed to inf; rescale x or the projections")
    np.copyto(scores, -np.inf, where=blocked)
    scores -= scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores, out=scores)  # (h_kv, g, n, n)
    weights /= weights.sum(axis=-1, keepdims=True)
    heads = (weights @ v).reshape(h, n, d_v)  # (h, n, d_v), query heads in order
    concat = heads.transpose(1, 0, 2).reshape(n, h * d_v)  # (n, h*d_v)
    return concat @ w_o, weights.reshape(h, n, n)  # (n, d_out), (h, n, n)
