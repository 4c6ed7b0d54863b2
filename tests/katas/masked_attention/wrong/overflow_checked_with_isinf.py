"""Checks the allowed scores with np.isinf: a score whose products overflow to +inf and to -inf
sums to NaN, which np.isinf misses, and the weights come out NaN instead of a ValueError."""
import numpy as np


def scaled_dot_product_attention(q, k, v, mask=None):
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    for name, a in (("q", q), ("k", k), ("v", v)):
        if a.ndim != 2 or 0 in a.shape:
            raise ValueError(f"{name} must be 2-D with no empty dimension, got {a.shape}")
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf")
    n, d_k = q.shape
    m, d_v = v.shape
    if k.shape[1] != d_k:
        raise ValueError("q and k must have the same width")
    if k.shape[0] != m:
        raise ValueError("k and v must have the same number of rows")
    if mask is None:
        allowed = np.ones((n, m), dtype=bool)
    else:
        allowed = np.asarray(mask)
        if allowed.dtype != np.bool_:
            raise ValueError("mask must have dtype bool")
        if allowed.shape != (n, m):
            raise ValueError(f"mask must have shape {(n, m)}")
        if not allowed.any(axis=1).all():
            raise ValueError("a query has no allowed key")
    with np.errstate(over="ignore", invalid="ignore"):
        scores = (q[:, None, :] * k[None, :, :]).sum(axis=-1) / np.sqrt(d_k)
    if np.isinf(scores[allowed]).any():
        raise ValueError("an allowed score overflowed to inf")
    scores = np.where(allowed, scores, -np.inf)
    with np.errstate(invalid="ignore"):
        weights = np.exp(scores - scores.max(axis=1, keepdims=True))
        weights /= weights.sum(axis=1, keepdims=True)
    return weights @ v, weights
