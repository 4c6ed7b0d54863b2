"""One query at a time, the way a decoder runs: query i attends the cache prefix k[:m - n + i + 1]."""
import numpy as np


def cached_causal_attention(q, k, v):
    q = np.array(q, dtype=np.float64)
    k = np.array(k, dtype=np.float64)
    v = np.array(v, dtype=np.float64)
    if q.ndim != 2 or k.ndim != 2 or v.ndim != 2:
        raise ValueError("q, k and v must be 2-D")
    if min(q.shape + k.shape + v.shape) == 0:
        raise ValueError("empty input")
    if not (np.isfinite(q).all() and np.isfinite(k).all() and np.isfinite(v).all()):
        raise ValueError("NaN or inf in the input")
    n, m = len(q), len(k)
    if q.shape[1] != k.shape[1] or len(v) != m:
        raise ValueError("shapes do not fit")
    if m < n:
        raise ValueError("m < n")
    out = np.zeros((n, v.shape[1]))
    weights = np.zeros((n, m))
    for i in range(n):
        p = m - n + i  # this query's position in the sequence
        s = k[: p + 1] @ q[i] / np.sqrt(q.shape[1])
        if not np.isfinite(s).all():
            raise ValueError("a score overflowed")
        e = np.exp(s - s.max())
        w = e / e.sum()
        weights[i, : p + 1] = w
        out[i] = w @ v[: p + 1]
    return out, weights
