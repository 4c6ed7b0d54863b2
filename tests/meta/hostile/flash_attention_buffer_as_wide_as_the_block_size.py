"""A realistic bug that passed every property (stop 53's blind hostile round): it preallocates its score buffer as (n, block_size), not (n, min(block_size, m)): a valid block size of
2**31 - 1 raises MemoryError. The judge drew block sizes up to m + 3 and 128.
The draw is there now; this file keeps it caught."""
KATA = "flash_attention"
ROUTE = "dojo test"  # a wrong value: the same properties whichever route runs them
EXPECT = "MemoryError"  # what the verdict must say

import numpy as np


def flash_attention(q, k, v, block_size, causal=False):
    if isinstance(block_size, (bool, np.bool_)) or not isinstance(block_size, (int, np.integer)) or block_size <= 0:
        raise ValueError("block_size must be a positive int")
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
    if causal and m < n:
        raise ValueError("causal needs m >= n")
    step = block_size
    buf = np.empty((n, block_size))  # the bug: one score buffer of the REQUESTED block size, not min(block_size, m)
    scale = 1.0 / np.sqrt(d_k)
    qs = q * scale
    mx = np.full(n, -np.inf)
    ssum = np.zeros(n)
    acc = np.zeros((n, v.shape[1]))
    pos = m - n + np.arange(n)
    with np.errstate(over="ignore", invalid="ignore"):
        for start in range(0, m, step):
            stop = min(m, start + step)
            s = buf[:, : stop - start]
            np.matmul(qs, k[start:stop].T, out=s)
            if causal:
                allowed = np.arange(start, stop)[None, :] <= pos[:, None]
                if np.isinf(s[allowed]).any():
                    raise ValueError("a score overflows to inf")
                s = np.where(allowed, s, -np.inf)
            elif np.isinf(s).any():
                raise ValueError("a score overflows to inf")
            new = np.maximum(mx, s.max(axis=1))
            live = np.isfinite(new)
            alpha = np.where(live, np.exp(np.where(live, mx - new, 0.0)), 1.0)
            alpha = np.where(np.isneginf(mx), 0.0, alpha)
            p = np.exp(s - np.where(live, new, 0.0)[:, None])
            p = np.where(live[:, None], p, 0.0)
            ssum = ssum * alpha + p.sum(axis=1)
            acc = acc * alpha[:, None] + p @ v[start:stop]
            mx = new
    return acc / ssum[:, None], mx + np.log(ssum)
