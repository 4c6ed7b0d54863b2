"""Right: one query at a time, scores in float32 with the scale applied to q first."""
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
    out = np.empty((q.shape[0], v.shape[1]), dtype=np.float16)
    k32, v32 = k.astype(np.float32), v.astype(np.float32)
    for i in range(q.shape[0]):
        s = k32 @ (q[i].astype(np.float32) / np.float32(np.sqrt(q.shape[1])))
        e = np.exp(s - s.max())
        out[i] = (e @ v32) / e.sum()
    return out
