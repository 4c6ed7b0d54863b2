"""Splits heads with reshape and einsum subscripts, checks num_heads with an explicit int test."""
import numpy as np


def multihead_attention(x, w_q, w_k, w_v, w_o, num_heads, causal=False):
    if type(num_heads) is not int and not isinstance(num_heads, np.integer):  # bool and float are refused
        raise ValueError(f"num_heads must be an int, got {type(num_heads).__name__}")
    if num_heads <= 0:
        raise ValueError(f"num_heads must be positive, got {num_heads}")
    arrays = {}
    for name, a in (("x", x), ("w_q", w_q), ("w_k", w_k), ("w_v", w_v), ("w_o", w_o)):
        a = np.asarray(a, dtype=np.float64)
        if a.ndim != 2:
            raise ValueError(f"{name} must be 2-D, got {a.ndim}-D")
        if a.size == 0:
            raise ValueError(f"{name} is empty: shape {a.shape}")
        arrays[name] = a
    x, w_q, w_k, w_v, w_o = (arrays[k] for k in ("x", "w_q", "w_k", "w_v", "w_o"))
    for name, a in arrays.items():
        if not np.isfinite(a).all():
            raise ValueError(f"{name} has NaN or inf")
    n, d_model = x.shape
    if not w_q.shape[0] == w_k.shape[0] == w_v.shape[0] == d_model:
        raise ValueError("w_q, w_k, w_v must each have d_model rows")
    if w_q.shape[1] != w_k.shape[1]:
        raise ValueError("w_q and w_k widths differ")
    if w_q.shape[1] % num_heads or w_v.shape[1] % num_heads:
        raise ValueError("projection widths must be divisible by num_heads")
    d_k = w_q.shape[1] // num_heads
    d_v = w_v.shape[1] // num_heads
    if w_o.shape[0] != num_heads * d_v:
        raise ValueError("w_o must have num_heads * d_v rows")

    q = (x @ w_q).reshape(n, num_heads, d_k)
    k = (x @ w_k).reshape(n, num_heads, d_k)
    v = (x @ w_v).reshape(n, num_heads, d_v)
    with np.errstate(over="ignore", invalid="ignore"):
        scores = np.einsum("ihd,jhd->hij", q, k) / np.sqrt(d_k)
    keep = np.tril(np.ones((n, n), dtype=bool)) if causal else np.ones((n, n), dtype=bool)
    if not np.isfinite(np.where(keep, scores, 0.0)).all():
        raise ValueError("attention scores overflow")
    scores = np.where(keep, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=2, keepdims=True))
    weights = e / e.sum(axis=2, keepdims=True)
    heads = np.einsum("hij,jhd->ihd", weights, v)
    return heads.reshape(n, num_heads * d_v) @ w_o, weights
