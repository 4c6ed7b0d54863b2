"""Two passes: the lse first, then out = sum of exp(s - lse) v. Two equal scores of 1e10 get
weight 1 - 1.4e-6 between them, not 1: lse = max + log(2) loses the log 2 to rounding. The
judge had no tie that large (a blind round, stop 58); an example has one now."""
KATA = "flash_attention"
ROUTE = "dojo test"
EXPECT = "is wrong"  # what the verdict must say

import numbers

import numpy as np


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

    q = q / np.sqrt(d_k)  # (n, d_k), pre-scaled: a copy, the caller's q is untouched
    position = np.arange(m - n, m)[:, None]  # (n, 1), query i's position in the sequence
    row_max = np.full((n, 1), -np.inf)  # (n, 1) running max of the scores seen so far
    row_sum = np.zeros((n, 1))  # (n, 1) running Σ exp(s - row_max)
    acc = np.zeros((n, d_v))  # (n, d_v) running Σ exp(s - row_max) v
    def block_scores(start):
        k_b = k[start : start + block_size]  # (b, d_k)
        with np.errstate(over="ignore", invalid="ignore"):
            s = q @ k_b.T  # (n, b)
        allowed = np.arange(start, start + len(k_b)) <= position if causal else None  # (n, b)
        if not np.isfinite(s if allowed is None else s[allowed]).all():
            raise ValueError("a score q·k/sqrt(d_k) overflowed; rescale q or k")
        if allowed is not None:
            s[~allowed] = -np.inf
        return s

    # pass 1: the log-sum-exp of every row, online over the key blocks
    for start in range(0, m, block_size):
        s = block_scores(start)
        new_max = np.maximum(row_max, s.max(axis=1, keepdims=True))  # (n, 1), finite: key 0 is always allowed
        row_sum = row_sum * np.exp(row_max - new_max) + np.exp(s - new_max).sum(axis=1, keepdims=True)
        row_max = new_max
    lse = row_max + np.log(row_sum)  # (n, 1)
    # pass 2: out = Σ_j exp(s - lse) v_j, the weights already normalised
    for start in range(0, m, block_size):
        acc += np.exp(block_scores(start) - lse) @ v[start : start + block_size]
    return acc, lse[:, 0]  # (n, d_v), (n,)
