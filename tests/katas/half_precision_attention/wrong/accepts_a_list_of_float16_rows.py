"""Checks the dtype only after np.asarray, so a list of float16 rows (or of float16 scalars), which np.asarray turns into a float16 array, is accepted instead of rejected."""
import numpy as np


def half_precision_attention(q, k, v):
    q, k, v = (np.asarray(a) for a in (q, k, v))
    for name, a in (("q", q), ("k", k), ("v", v)):
        if a.dtype != np.float16:
            raise ValueError(f"{name} must be a float16 NumPy array, got dtype {a.dtype}")
        if a.ndim != 2 or 0 in a.shape:
            raise ValueError(f"{name} must be 2-D and non-empty, got shape {a.shape}")
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf")
    if k.shape[1] != q.shape[1]:
        raise ValueError("q and k must have the same width")
    if k.shape[0] != v.shape[0]:
        raise ValueError("k and v must have the same number of rows")
    scores = q.astype(np.float64) @ k.astype(np.float64).T / np.sqrt(q.shape[1])
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    weights /= weights.sum(axis=1, keepdims=True)
    return (weights @ v.astype(np.float64)).astype(np.float16)
