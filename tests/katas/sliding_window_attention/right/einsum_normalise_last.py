"""The full (n, m) mask with einsum; the unnormalised exps meet v first, the row sums divide at the end."""
import operator

import numpy as np


def _index(value, name, least):
    if isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must not be a bool")
    try:
        value = operator.index(value)  # ints and NumPy integers, never floats
    except TypeError:
        raise ValueError(f"{name} must be an int, got {type(value).__name__}") from None
    if value < least:
        raise ValueError(f"{name} must be >= {least}")
    return value


def sliding_window_attention(q, k, v, window, num_sinks=0):
    window = _index(window, "window", 1)
    num_sinks = _index(num_sinks, "num_sinks", 0)
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    if any(a.ndim != 2 or a.size == 0 for a in (q, k, v)):
        raise ValueError("q, k, v must be non-empty 2-D arrays")
    if not all(np.isfinite(a).all() for a in (q, k, v)):
        raise ValueError("q, k, v must be finite")
    if k.shape[1] != q.shape[1] or k.shape[0] != v.shape[0] or k.shape[0] < q.shape[0]:
        raise ValueError("shapes must be q (n, d), k (m, d), v (m, d_v) with m >= n")
    n, m = q.shape[0], k.shape[0]
    pos = np.arange(m - n, m)
    dist = pos[:, None] - np.arange(m)[None, :]  # p_i - j
    allowed = (dist >= 0) & ((dist < window) | (np.arange(m) < num_sinks)[None, :])
    with np.errstate(over="ignore", invalid="ignore"):
        s = np.einsum("id,jd->ij", q, k) / np.sqrt(q.shape[1])
    if not np.isfinite(s[allowed]).all():  # np.isinf missed a NaN: +inf and -inf products (stop 55)
        raise ValueError("an allowed score overflowed")
    s = np.where(allowed, s, -np.inf)
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return np.einsum("ij,jd->id", e, v) / e.sum(axis=1)[:, None]
