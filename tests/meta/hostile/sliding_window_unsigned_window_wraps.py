"""A realistic bug that passed every property (stop 53's blind hostile round): it computes p - window + 1 with window as given: an unsigned NumPy window (valid: "a NumPy integer")
wraps past zero, and rows keep only their sinks. The judge drew only signed NumPy ints.
The draw is there now; this file keeps it caught."""
KATA = "sliding_window_attention"
ROUTE = "dojo test"  # a wrong value: the same properties whichever route runs them
EXPECT = "given as uint"  # what the verdict must say

import numpy as np


def _int_param(name, x, low):
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, np.integer)):
        raise ValueError(f"{name} must be an int, got {type(x).__name__}")
    if x < low:
        raise ValueError(f"{name} must be >= {low}, got {x}")
    return x


def sliding_window_attention(q, k, v, window, num_sinks=0):
    window = _int_param("window", window, 1)
    num_sinks = _int_param("num_sinks", num_sinks, 0)
    q = np.asarray(q, dtype=np.float64)
    k = np.asarray(k, dtype=np.float64)
    v = np.asarray(v, dtype=np.float64)
    for name, a in (("q", q), ("k", k), ("v", v)):
        if a.ndim != 2:
            raise ValueError(f"{name} must be 2-D, got shape {a.shape}")
        if 0 in a.shape:
            raise ValueError(f"{name} has a zero dimension: {a.shape}")
        if not np.all(np.isfinite(a)):
            raise ValueError(f"{name} contains NaN or inf")
    n, d_k = q.shape
    m = k.shape[0]
    if k.shape[1] != d_k:
        raise ValueError("q and k must have the same width")
    if v.shape[0] != m:
        raise ValueError("k and v must have the same number of rows")
    if m < n:
        raise ValueError(f"the cache (m = {m}) is shorter than the new tokens (n = {n})")
    out = np.empty((n, v.shape[1]))
    scale = 1.0 / np.sqrt(d_k)
    with np.errstate(over="ignore", invalid="ignore"):
        for i in range(n):
            p = m - n + i
            lo = max(0, p - window + 1)            # first key of the window
            sinks = min(num_sinks, lo, p + 1)       # sinks before the window
            keys = np.concatenate([k[:sinks], k[lo:p + 1]])
            vals = np.concatenate([v[:sinks], v[lo:p + 1]])
            s = (keys @ q[i]) * scale
            if np.isinf(s).any():
                raise ValueError(f"query {i}: an allowed score overflows to inf")
            w = np.exp(s - s.max()) if s.size else s
            out[i] = (w / w.sum()) @ vals
    return out
