"""Query tiles of 1024 counted as max(1, n // 1024): with 1025 queries the last one is never
computed (its out row and lse stay 0). The judge drew at most a few hundred queries (a blind
round, stop 58); an example has 1025 now."""
KATA = "flash_attention"
ROUTE = "dojo test"
EXPECT = "is wrong"  # what the verdict must say

import numbers

import numpy as np

Q_TILE = 1024  # queries per tile


def flash_attention(q, k, v, block_size, causal=False):
    if isinstance(block_size, bool) or not isinstance(block_size, numbers.Integral) or block_size < 1:
        raise ValueError(f"block_size must be a positive int, got {block_size!r}")
    block_size = int(block_size)  # np.uint8(200): start + block_size would wrap around past 255
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

    q_all = q / np.sqrt(d_k)  # (n, d_k), pre-scaled: a copy, the caller's q is untouched
    out_all, lse_all = np.zeros((n, d_v)), np.zeros(n)
    # outer loop over query tiles of Q_TILE rows (FlashAttention-2's Br), inner loop over key blocks
    for t in range(max(1, n // Q_TILE)):
        rows = slice(t * Q_TILE, (t + 1) * Q_TILE)
        out_all[rows], lse_all[rows] = _tile(q_all[rows], k, v, np.arange(m - n, m)[rows, None], block_size, causal)
    return out_all, lse_all


def _tile(q, k, v, position, block_size, causal):
    n, d_v, m = q.shape[0], v.shape[1], k.shape[0]
    row_max = np.full((n, 1), -np.inf)  # (n, 1) running max of the scores seen so far
    row_sum = np.zeros((n, 1))  # (n, 1) running Σ exp(s - row_max)
    acc = np.zeros((n, d_v))  # (n, d_v) running Σ exp(s - row_max) v
    for start in range(0, m, block_size):
        k_b, v_b = k[start : start + block_size], v[start : start + block_size]  # (b, d_k), (b, d_v)
        with np.errstate(over="ignore", invalid="ignore"):
            s = q @ k_b.T  # (n, b)
        allowed = np.arange(start, start + len(k_b)) <= position if causal else None  # (n, b)
        if not np.isfinite(s if allowed is None else s[allowed]).all():
            raise ValueError("a score q·k/sqrt(d_k) overflowed; rescale q or k")
        if allowed is not None:
            s[~allowed] = -np.inf
        new_max = np.maximum(row_max, s.max(axis=1, keepdims=True))  # (n, 1), finite: key 0 is always allowed
        p = np.exp(s - new_max)  # (n, b)
        rescale = np.exp(row_max - new_max)  # (n, 1), exp(-inf) = 0 on the first block
        row_sum = row_sum * rescale + p.sum(axis=1, keepdims=True)
        acc = acc * rescale + p @ v_b  # (n, d_v)
        row_max = new_max
    return acc / row_sum, (row_max + np.log(row_sum))[:, 0]  # (n, d_v), (n,)
