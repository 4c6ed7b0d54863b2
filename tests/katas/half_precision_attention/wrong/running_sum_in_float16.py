"""Accumulates the softmax sums key by key in float16 (a streaming loop), which drifts over hundreds of keys."""
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
    q32, k32 = q.astype(np.float32), k.astype(np.float32)
    scores = q32 @ k32.T / np.sqrt(q.shape[1])
    weights = np.exp(scores - scores.max(axis=1, keepdims=True)).astype(np.float16)
    num = np.zeros((q.shape[0], v.shape[1]), dtype=np.float16)
    den = np.zeros((q.shape[0], 1), dtype=np.float16)
    for j in range(k.shape[0]):  # one key at a time, accumulators in float16
        num += weights[:, j:j + 1] * v[j]
        den += weights[:, j:j + 1]
    return num / den
