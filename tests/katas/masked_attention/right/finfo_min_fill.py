"""Fills blocked scores with np.finfo(np.float64).min instead of -inf, with explicit checks for
fully masked rows and overflowing allowed scores."""
import numpy as np

LOWEST = np.finfo(np.float64).min


def scaled_dot_product_attention(q, k, v, mask=None):
    q, k, v = [np.asarray(t, dtype=np.float64) for t in (q, k, v)]
    for a in (q, k, v):
        if a.ndim != 2 or a.shape[0] == 0 or a.shape[1] == 0:
            raise ValueError(f"expected a non-empty 2-D array, got shape {a.shape}")
    if q.shape[1] != k.shape[1]:
        raise ValueError("q and k widths differ")
    if k.shape[0] != v.shape[0]:
        raise ValueError("k and v lengths differ")
    for a in (q, k, v):
        if not np.isfinite(a).all():
            raise ValueError("non-finite input")
    n, m = q.shape[0], k.shape[0]
    if mask is None:
        allowed = np.full((n, m), True)
    else:
        if not (hasattr(mask, "dtype") and mask.dtype == np.bool_):
            raise ValueError("mask must be boolean")
        if np.shape(mask) != (n, m):
            raise ValueError("mask must be (n, m)")
        allowed = np.asarray(mask)
        if np.any(np.sum(allowed, axis=1) == 0):
            raise ValueError("a row of the mask is all False")
    with np.errstate(over="ignore", invalid="ignore"):
        scores = np.matmul(q, k.T) * (1.0 / np.sqrt(q.shape[1]))
    if np.any(allowed & ~np.isfinite(scores)):
        raise ValueError("an allowed score is not finite")
    filled = np.where(allowed, scores, LOWEST)
    with np.errstate(over="ignore"):  # LOWEST - (a positive max) rounds to -inf: exp gives 0
        e = np.exp(filled - filled.max(axis=1, keepdims=True))
    e[~allowed] = 0.0
    weights = e / e.sum(axis=1, keepdims=True)
    return np.matmul(weights, v), weights
