"""Blocked scores set to the most negative float (not -inf), then their weights zeroed by the mask."""
import numpy as np


def sliding_window_attention(q, k, v, window, num_sinks=0):
    for name, x, lo in (("window", window, 1), ("num_sinks", num_sinks, 0)):
        if not isinstance(x, (int, np.integer)) or isinstance(x, bool):
            raise ValueError(f"{name}: expected an int, got {x!r}")
        if x < lo:
            raise ValueError(f"{name}: expected >= {lo}, got {x}")
    q, k, v = np.array(q, float), np.array(k, float), np.array(v, float)
    for a in (q, k, v):
        if a.ndim != 2 or 0 in a.shape or not np.all(np.isfinite(a)):
            raise ValueError("each of q, k, v must be a finite, non-empty 2-D array")
    (n, d), (m, _) = q.shape, v.shape
    if k.shape != (m, d) or m < n:
        raise ValueError("k must be (m, d_k) like q's width, v must have m rows, and m >= n")
    i = np.arange(n)[:, None] + (m - n)
    j = np.arange(m)
    mask = (j <= i) & ((j > i - window) | (j < num_sinks))
    with np.errstate(over="ignore", invalid="ignore"):
        s = (q / np.sqrt(d)) @ k.T
    if not np.isfinite(s[mask]).all():
        raise ValueError("overflow in an allowed score")
    s = np.where(mask, s, np.finfo(np.float64).min)
    with np.errstate(over="ignore"):
        e = np.exp(s - s.max(axis=1, keepdims=True)) * mask
    return (e / e.sum(axis=1, keepdims=True)) @ v
