"""Computes in float32 and returns the float32 result instead of float16."""
import numpy as np


def half_precision_attention(q, k, v):
    for name, a in (("q", q), ("k", k), ("v", v)):
        if not isinstance(a, np.ndarray) or a.dtype != np.float16:
            raise ValueError(f"{name} must be a float16 NumPy array")
        if a.ndim != 2 or 0 in a.shape:
            raise ValueError(f"{name} must be 2-D and non-empty, got {np.shape(a)}")
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf")
    if k.shape[1] != q.shape[1]:
        raise ValueError("q and k must have the same width")
    if k.shape[0] != v.shape[0]:
        raise ValueError("k and v must have the same number of rows")
    q32, k32, v32 = (a.astype(np.float32) for a in (q, k, v))
    scores = q32 @ k32.T / np.float32(np.sqrt(q.shape[1]))
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    weights /= weights.sum(axis=1, keepdims=True)
    return weights @ v32
