"""Groups the query heads as (num_kv_heads, g) and lets one einsum pair every group with its kv head; future scores filled with finfo.min."""
import operator

import numpy as np


class GQAError(ValueError):
    pass


def _count(value, name):
    if isinstance(value, (bool, np.bool_)):
        raise GQAError(f"{name} must not be a bool")
    try:
        value = operator.index(value)
    except TypeError:
        raise GQAError(f"{name} must be an int") from None
    if value < 1:
        raise GQAError(f"{name} must be at least 1")
    return value


def grouped_query_attention(x, w_q, w_k, w_v, w_o, num_heads, num_kv_heads, causal=False):
    h = _count(num_heads, "num_heads")
    h_kv = _count(num_kv_heads, "num_kv_heads")
    if h % h_kv:
        raise GQAError("num_kv_heads must divide num_heads")
    mats = {}
    for name, a in zip(("x", "w_q", "w_k", "w_v", "w_o"), (x, w_q, w_k, w_v, w_o)):
        a = np.asarray(a, dtype=np.float64)
        if a.ndim != 2 or min(a.shape) == 0:
            raise GQAError(f"{name} must be a non-empty matrix")
        if np.isnan(a).any() or np.isinf(a).any():
            raise GQAError(f"{name} is not finite")
        mats[name] = a
    x, w_q, w_k, w_v, w_o = (mats[k] for k in ("x", "w_q", "w_k", "w_v", "w_o"))
    n, d_model = x.shape
    for name in ("w_q", "w_k", "w_v"):
        if mats[name].shape[0] != d_model:
            raise GQAError(f"{name} rows must be d_model")
    if w_q.shape[1] % h or w_k.shape[1] % h_kv or w_v.shape[1] % h_kv:
        raise GQAError("a width does not split into heads")
    d_k = w_q.shape[1] // h
    if w_k.shape[1] // h_kv != d_k:
        raise GQAError("k heads must be as wide as q heads")
    d_v = w_v.shape[1] // h_kv
    if w_o.shape[0] != h * d_v:
        raise GQAError("w_o rows must be num_heads * d_v")
    g = h // h_kv
    with np.errstate(over="ignore", invalid="ignore"):
        q = (x @ w_q).reshape(n, h_kv, g, d_k)
        k = (x @ w_k).reshape(n, h_kv, d_k)
        v = (x @ w_v).reshape(n, h_kv, d_v)
        s = np.einsum("icgd,jcd->cgij", q, k) / np.sqrt(d_k)  # (h_kv, g, n, n)
    allowed = np.tril(np.ones((n, n), dtype=bool)) if causal else np.ones((n, n), dtype=bool)
    if not np.isfinite(s[..., allowed]).all():
        raise GQAError("overflow in a score")
    s = np.where(allowed, s, np.finfo(np.float64).min)
    e = np.where(allowed, np.exp(s - s.max(axis=-1, keepdims=True)), 0.0)
    weights = e / e.sum(axis=-1, keepdims=True)
    out = np.einsum("cgij,jcd->icgd", weights, v).reshape(n, h * d_v) @ w_o
    return out, weights.reshape(h, n, n)
