"""One query at a time, the way a streaming decoder runs: gather its sinks and its window, then softmax."""
import numbers

import numpy as np


def sliding_window_attention(q, k, v, window, num_sinks=0):
    for name, value, least in (("window", window, 1), ("num_sinks", num_sinks, 0)):
        if type(value) is bool or isinstance(value, np.bool_) or not isinstance(value, numbers.Integral):
            raise ValueError(f"{name} must be an integer")
        if value < least:
            raise ValueError(f"{name} must be >= {least}")
    window, num_sinks = int(window), int(num_sinks)  # a NumPy uint would wrap below 0 in p - window
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
    for i in range(n):
        p = m - n + i
        start = max(0, p - window + 1)
        keys = np.r_[np.arange(min(num_sinks, start)), np.arange(start, p + 1)]
        with np.errstate(over="ignore", invalid="ignore"):
            s = k[keys] @ q[i] / np.sqrt(q.shape[1])
        if not np.isfinite(s).all():
            raise ValueError(f"score of query {i} overflowed")
        w = np.exp(s - s.max())
        out[i] = w @ v[keys] / w.sum()
    return out
