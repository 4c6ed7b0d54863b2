"""Fills blocked scores with a finite -1e30 (a NEG_INF = -1e30 constant) instead of -inf, which wins once a row's allowed scores lie below about -1e30. Any other large finite fill is the same bug, with its own threshold."""
import numpy as np

NEG_INF = -1e30  # "minus infinity" for the mask


def sliding_window_attention(q, k, v, window, num_sinks=0):
    for name, value, least in (("window", window, 1), ("num_sinks", num_sinks, 0)):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            raise ValueError(f"{name} must be an int, got {value!r}")
        if value < least:
            raise ValueError(f"{name} must be at least {least}, got {value}")
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    for name, a in (("q", q), ("k", k), ("v", v)):
        if a.ndim != 2 or 0 in a.shape:
            raise ValueError(f"{name} must be 2-D with no empty dimension, got {a.shape}")
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf")
    n, d_k = q.shape
    m, d_v = v.shape
    if k.shape[1] != d_k:
        raise ValueError("q and k must have the same width")
    if k.shape[0] != m:
        raise ValueError("k and v must have the same number of rows")
    if m < n:
        raise ValueError("the cache must hold at least the n new tokens")
    p = (m - n + np.arange(n))[:, None]
    j = np.arange(m)[None, :]
    allowed = (j <= p) & ((p - j < window) | (j < num_sinks))
    with np.errstate(over="ignore", invalid="ignore"):
        scores = q @ k.T / np.sqrt(d_k)
    if not np.isfinite(scores[allowed]).all():
        raise ValueError("an allowed score overflowed to inf")
    scores = np.where(allowed, scores, NEG_INF)
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    weights /= weights.sum(axis=1, keepdims=True)
    return weights @ v
