"""FlashAttention-2 style: keeps only each row's max and sum of exponentials, rebuilds P from them,
and uses D = rowsum(d_out * out). (Rebuilding P as exp(S - logsumexp) gave tied scores far below
zero weight 1 each: stop 57.)"""
import numpy as np


def attention_backward(q, k, v, d_out, mask=None):
    q = np.array(q, dtype=np.float64)
    k = np.array(k, dtype=np.float64)
    v = np.array(v, dtype=np.float64)
    d_out = np.array(d_out, dtype=np.float64)
    if q.ndim != 2 or k.ndim != 2 or v.ndim != 2 or 0 in q.shape + k.shape + v.shape:
        raise ValueError("q, k, v: 2-D, no empty dimension")
    if q.shape[1] != k.shape[1] or k.shape[0] != v.shape[0]:
        raise ValueError("incompatible shapes")
    for a in (q, k, v, d_out):
        if np.isnan(a).any() or np.isinf(a).any():
            raise ValueError("NaN or inf in the input")
    n, m = q.shape[0], k.shape[0]
    if d_out.shape != (n, v.shape[1]):
        raise ValueError("d_out has the wrong shape")
    if mask is not None:
        mask = np.asarray(mask)
        if mask.dtype != np.bool_ or mask.shape != (n, m):
            raise ValueError("mask must be bool (n, m)")
        if not mask.any(axis=1).all():
            raise ValueError("a query sees no key")
    scale = q.shape[1] ** -0.5
    with np.errstate(over="ignore", invalid="ignore"):
        s = (q @ k.T) * scale
    live = np.ones((n, m), dtype=bool) if mask is None else mask
    if not np.isfinite(s[live]).all():
        raise ValueError("overflow in the scores")
    s[~live] = -np.inf
    row_max = s.max(axis=1, keepdims=True)
    row_sum = np.exp(s - row_max).sum(axis=1, keepdims=True)
    p = np.exp(s - row_max) / row_sum
    out = p @ v
    with np.errstate(over="ignore", invalid="ignore"):
        dv = p.T @ d_out
        dp = d_out @ v.T
        big_d = (d_out * out).sum(axis=1, keepdims=True)
        ds = p * (dp - big_d)
        dq = (ds @ k) * scale
        dk = (ds.T @ q) * scale
    for g in (dq, dk, dv):
        if not np.isfinite(g).all():
            raise ValueError("gradient overflow")
    return dq, dk, dv
