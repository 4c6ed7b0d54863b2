"""Repeats each kv head g times (np.repeat along the head axis, like torch's repeat_interleave), then plain batched multi-head attention."""
import numbers

import numpy as np


def grouped_query_attention(x, w_q, w_k, w_v, w_o, num_heads, num_kv_heads, causal=False):
    if not all(isinstance(c, numbers.Integral) and not isinstance(c, bool) for c in (num_heads, num_kv_heads)):
        raise ValueError("head counts must be ints")
    if min(num_heads, num_kv_heads) < 1 or num_heads % num_kv_heads:
        raise ValueError("head counts must be positive and num_kv_heads must divide num_heads")
    x, w_q, w_k, w_v, w_o = (np.asarray(a, dtype=float) for a in (x, w_q, w_k, w_v, w_o))
    if any(a.ndim != 2 or 0 in a.shape for a in (x, w_q, w_k, w_v, w_o)):
        raise ValueError("every input must be 2-D and non-empty")
    if not all(np.isfinite(a).all() for a in (x, w_q, w_k, w_v, w_o)):
        raise ValueError("NaN or inf in an input")
    n, d_model = x.shape
    H, G = num_heads, num_kv_heads
    if w_q.shape[0] != d_model or w_k.shape[0] != d_model or w_v.shape[0] != d_model:
        raise ValueError("w_q, w_k, w_v need d_model rows")
    d_k, rest_q = divmod(w_q.shape[1], H)
    d_v, rest_v = divmod(w_v.shape[1], G)
    if rest_q or rest_v or w_k.shape[1] != G * d_k:
        raise ValueError("widths do not fit the heads")
    if w_o.shape[0] != H * d_v:
        raise ValueError("w_o rows must be num_heads * d_v")
    with np.errstate(over="ignore", invalid="ignore"):
        q = np.einsum("nhd->hnd", (x @ w_q).reshape(n, H, d_k))
        k = np.repeat(np.einsum("ncd->cnd", (x @ w_k).reshape(n, G, d_k)), H // G, axis=0)  # (H, n, d_k)
        v = np.repeat(np.einsum("ncd->cnd", (x @ w_v).reshape(n, G, d_v)), H // G, axis=0)  # (H, n, d_v)
        s = np.einsum("hid,hjd->hij", q, k) / np.sqrt(d_k)
    future = np.triu(np.ones((n, n), dtype=bool), 1) if causal else np.zeros((n, n), dtype=bool)
    if np.isinf(s[:, ~future]).any() or np.isnan(s[:, ~future]).any():
        raise ValueError("a score overflowed")
    s[:, future] = -np.inf
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    out = np.einsum("hij,hjd->ihd", weights, v).reshape(n, H * d_v) @ w_o
    return out, weights
