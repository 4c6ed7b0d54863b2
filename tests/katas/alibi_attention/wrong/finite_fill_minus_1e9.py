"""Blocks future keys with a finite -1e9 instead of -inf: they leak when every allowed score is far below -1e9. Any other large finite fill is the same bug, with its own threshold."""
import numpy as np


def alibi_slopes(h):
    if h & (h - 1) == 0:
        return 2.0 ** (-8.0 * np.arange(1, h + 1) / h)
    c = 2 ** int(np.floor(np.log2(h)))
    return np.concatenate([alibi_slopes(c), alibi_slopes(2 * c)[0::2][: h - c]])


def alibi_attention(q, k, v):
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    for name, a in (("q", q), ("k", k), ("v", v)):
        if a.ndim != 3 or 0 in a.shape:
            raise ValueError(f"{name} must be 3-D with no empty dimension, got {a.shape}")
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf")
    h, n, d_k = q.shape
    _, m, d_v = v.shape
    if k.shape[0] != h or v.shape[0] != h:
        raise ValueError("q, k and v must have the same number of heads")
    if k.shape[2] != d_k:
        raise ValueError("q and k must have the same width")
    if k.shape[1] != m:
        raise ValueError("k and v must have the same number of rows")
    if m < n:
        raise ValueError("fewer keys than queries")
    distance = np.arange(m - n, m)[:, None] - np.arange(m)[None, :]  # p_i - j
    allowed = distance >= 0
    bias = -alibi_slopes(h)[:, None, None] * distance
    with np.errstate(over="ignore", invalid="ignore"):
        scores = q @ k.transpose(0, 2, 1) / np.sqrt(d_k) + bias
    if not np.isfinite(scores[:, allowed]).all():
        raise ValueError("an allowed score overflowed to inf")
    scores = np.where(allowed, scores, -1e9)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    return weights @ v
