"""A right file of ours as it was until stop 56 (it normalises by the row sum now): weights =
exp(s - logsumexp(s)). Equal allowed scores far below zero get weight 1 each instead of
1/count: float64's spacing out there is far above the log of the count, so logsumexp comes out equal to
the max and each tied score gets weight 1. The far-below draws never made the top scores equal.
An example has them now; this file keeps it caught."""
KATA = "grouped_query_attention"
ROUTE = "dojo test"
EXPECT = "is wrong"  # what the verdict must say

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
    top = s.max(axis=-1, keepdims=True)
    lse = top + np.log(np.exp(s - top).sum(axis=-1, keepdims=True))
    weights = np.exp(s - lse)
    out = np.einsum("hij,hjd->ihd", weights, v).reshape(n, H * d_v) @ w_o
    return out, weights
