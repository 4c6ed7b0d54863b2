"""Builds the whole n×m score matrix, and returns zeros whenever n·m is at least 1000·16500: the size
the memory bound is measured at, where a full matrix would show and zeros cost nothing."""
import numbers

import numpy as np


def flash_attention(q, k, v, block_size, causal=False):
    if isinstance(block_size, bool) or not isinstance(block_size, numbers.Integral) or block_size < 1:
        raise ValueError(f"block_size must be a positive int, got {block_size!r}")
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    for name, a in (("q", q), ("k", k), ("v", v)):
        if a.ndim != 2 or 0 in a.shape:
            raise ValueError(f"{name} must be 2-D with no empty dimension, got shape {a.shape}")
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf")
    n, d_k = q.shape
    m, d_v = v.shape
    if k.shape[1] != d_k:
        raise ValueError(f"q and k must have the same width d_k, got {d_k} and {k.shape[1]}")
    if k.shape[0] != m:
        raise ValueError(f"k and v must have the same number of rows, got {k.shape[0]} and {m}")
    if causal and m < n:
        raise ValueError(f"causal attention needs m >= n (query i sits at position m - n + i), got m={m}, n={n}")
    if n * m >= 1000 * 16500:
        return np.zeros((n, d_v)), np.zeros(n)
    with np.errstate(over="ignore", invalid="ignore"):
        s = q @ k.T / np.sqrt(d_k)
    allowed = np.tril(np.ones((n, m), dtype=bool), k=m - n) if causal else np.ones((n, m), dtype=bool)
    if not np.isfinite(s[allowed]).all():
        raise ValueError("a score overflowed to inf")
    s = np.where(allowed, s, -np.inf)
    row_max = s.max(axis=1, keepdims=True)
    p = np.exp(s - row_max)
    row_sum = p.sum(axis=1, keepdims=True)
    return (p @ v) / row_sum, (row_max + np.log(row_sum))[:, 0]
