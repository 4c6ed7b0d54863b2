"""Einsum for the projections and both products; validates every shape first, then the values."""
import numpy as np


def causal_self_attention(x, w_q, w_k, w_v):
    x, w_q, w_k, w_v = (np.asarray(a, dtype=np.float64) for a in (x, w_q, w_k, w_v))
    if any(a.ndim != 2 for a in (x, w_q, w_k, w_v)):
        raise ValueError("x, w_q, w_k and w_v must all be 2-D")
    if x.size == 0:
        raise ValueError("x is empty")
    d_model = x.shape[1]
    if not (w_q.shape[0] == w_k.shape[0] == w_v.shape[0] == d_model):
        raise ValueError(f"every projection needs d_model = {d_model} rows")
    if w_q.shape[1] != w_k.shape[1]:
        raise ValueError("w_q and w_k widths differ")
    if w_q.shape[1] == 0 or w_v.shape[1] == 0:
        raise ValueError("a projection has width 0")
    if not all(np.isfinite(a).all() for a in (x, w_q, w_k, w_v)):
        raise ValueError("NaN or inf in the input")
    n, d_k = x.shape[0], w_q.shape[1]
    with np.errstate(over="ignore", invalid="ignore"):
        q = np.einsum("nd,dk->nk", x, w_q)
        k = np.einsum("nd,dk->nk", x, w_k)
        v = np.einsum("nd,dv->nv", x, w_v)
        s = np.einsum("ik,jk->ij", q, k) / np.sqrt(d_k)
    i, j = np.indices((n, n))
    past = j <= i
    if not np.isfinite(s[past]).all():
        raise ValueError("a causal score overflowed")
    s[~past] = -np.inf
    p = np.exp(s - s.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    return np.einsum("ij,jv->iv", p, v), p
