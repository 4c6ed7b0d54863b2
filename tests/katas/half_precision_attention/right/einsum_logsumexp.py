"""Right: float64 einsum and log-sum-exp, weights never normalised by division."""
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
    q64, k64, v64 = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    scores = np.einsum("id,jd->ij", q64, k64) / np.sqrt(q.shape[1])
    top = scores.max(axis=1, keepdims=True)
    lse = top + np.log(np.exp(scores - top).sum(axis=1, keepdims=True))
    return np.einsum("ij,jc->ic", np.exp(scores - lse), v64).astype(np.float16)
