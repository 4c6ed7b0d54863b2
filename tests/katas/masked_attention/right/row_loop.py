"""One query at a time in a Python loop, looking only at its allowed keys; raises a ValueError
subclass."""
import math

import numpy as np


class AttentionInputError(ValueError):
    """A subclass of ValueError is allowed by the contract."""


def scaled_dot_product_attention(q, k, v, mask=None):
    arrays = []
    for name, a in (("q", q), ("k", k), ("v", v)):
        a = np.array(a, dtype=np.float64)  # a copy, so nothing we do reaches the caller
        if a.ndim != 2 or min(a.shape) < 1:
            raise AttentionInputError(f"{name} must be a non-empty 2-D array, got shape {a.shape}")
        if np.isnan(a).any() or np.isinf(a).any():
            raise AttentionInputError(f"{name} has NaN or inf entries")
        arrays.append(a)
    q, k, v = arrays
    n, m = q.shape[0], k.shape[0]
    if q.shape[1] != k.shape[1]:
        raise AttentionInputError("q and k must share d_k")
    if v.shape[0] != m:
        raise AttentionInputError("k and v must have one row per key")
    if mask is None:
        mask = np.ones((n, m), dtype=bool)
    elif not isinstance(mask, np.ndarray) or mask.dtype != np.bool_:
        raise AttentionInputError("mask must be a NumPy bool array")
    elif mask.shape != (n, m):
        raise AttentionInputError(f"mask shape {mask.shape} != {(n, m)}")
    scale = 1.0 / math.sqrt(q.shape[1])
    weights = np.zeros((n, m))
    out = np.zeros((n, v.shape[1]))
    for i in range(n):
        keys = np.flatnonzero(mask[i])
        if keys.size == 0:
            raise AttentionInputError(f"query {i} is not allowed to see any key")
        with np.errstate(over="ignore", invalid="ignore"):
            row = np.array([q[i] @ k[j] for j in keys]) * scale
        if not np.isfinite(row).all():
            raise AttentionInputError(f"query {i}: a score overflowed")
        e = np.exp(row - row.max())
        weights[i, keys] = e / e.sum()
        out[i] = weights[i, keys] @ v[keys]
    return out, weights
