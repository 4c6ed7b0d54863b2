"""Loops over heads in Python calling a single-head helper, and sums each head's share of w_o."""
import numbers

import numpy as np


class MultiheadAttentionError(ValueError):
    """A subclass of ValueError is allowed by the contract."""


def _single_head(q, k, v, causal):
    n = q.shape[0]
    with np.errstate(over="ignore", invalid="ignore"):
        s = q @ k.T / np.sqrt(q.shape[1])
    allowed = np.tril(np.ones((n, n), dtype=bool)) if causal else np.full((n, n), True)
    if np.isnan(s[allowed]).any() or np.isinf(s[allowed]).any():
        raise MultiheadAttentionError("a score overflowed; the inputs are too large")
    s = np.where(allowed, s, -np.inf)
    p = np.exp(s - np.max(s, axis=1, keepdims=True))
    p = p / np.sum(p, axis=1, keepdims=True)
    return p @ v, p


def multihead_attention(x, w_q, w_k, w_v, w_o, num_heads, causal=False):
    if isinstance(num_heads, bool) or not isinstance(num_heads, numbers.Integral):
        raise MultiheadAttentionError(f"num_heads must be an int, got {num_heads!r}")
    if num_heads < 1:
        raise MultiheadAttentionError(f"num_heads must be at least 1, got {num_heads}")
    mats = [np.array(a, dtype=np.float64) for a in (x, w_q, w_k, w_v, w_o)]
    for name, a in zip(("x", "w_q", "w_k", "w_v", "w_o"), mats):
        if a.ndim != 2 or min(a.shape) == 0:
            raise MultiheadAttentionError(f"{name} must be a non-empty 2-D array, got shape {a.shape}")
        if np.isnan(a).any() or np.isinf(a).any():
            raise MultiheadAttentionError(f"{name} must be finite")
    x, w_q, w_k, w_v, w_o = mats
    n, d_model = x.shape
    for name, w in (("w_q", w_q), ("w_k", w_k), ("w_v", w_v)):
        if w.shape[0] != d_model:
            raise MultiheadAttentionError(f"{name} has {w.shape[0]} rows; x has {d_model} columns")
    if w_k.shape[1] != w_q.shape[1]:
        raise MultiheadAttentionError("w_q and w_k must have equal widths")
    d_k, r_k = divmod(w_q.shape[1], num_heads)
    d_v, r_v = divmod(w_v.shape[1], num_heads)
    if r_k or r_v:
        raise MultiheadAttentionError("num_heads must divide the widths of w_q, w_k and w_v")
    if w_o.shape[0] != num_heads * d_v:
        raise MultiheadAttentionError(f"w_o needs {num_heads * d_v} rows, has {w_o.shape[0]}")

    q, k, v = x @ w_q, x @ w_k, x @ w_v
    out = np.zeros((n, w_o.shape[1]))
    weights = np.empty((num_heads, n, n))
    for h in range(num_heads):
        qk = slice(h * d_k, (h + 1) * d_k)
        vv = slice(h * d_v, (h + 1) * d_v)
        head, weights[h] = _single_head(q[:, qk], k[:, qk], v[:, vv], causal)
        out += head @ w_o[vv]
    return out, weights
