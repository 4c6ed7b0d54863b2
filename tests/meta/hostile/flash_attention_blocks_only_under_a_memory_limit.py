"""A flash attention that tells the judge's memory measure apart: its worker runs under a finite
RLIMIT_DATA (dojo/worker/memory.py), every other worker under none. Measured, it runs a blocked
loop; elsewhere the whole (n, m) matrix, right in every value. Hiding the limit would not help
(a probe allocation finds it too), and choosing the loop by the input's size does the same: what
the judge must see is that the loop it measures is right. It is not here (the last, partial block
of keys is dropped), and the measured input has partial blocks (m = 16500, block 64), its values
checked with causal=False and True. A blocked loop that is right passes: that is a right answer."""
KATA = "flash_attention"
ROUTE = "dojo test"  # the memory bound is measured by the same code in both routes
EXPECT = "This is the input the memory bound is measured on"  # what the verdict should say

import resource

import numbers

import numpy as np


def _full(q, k, v, block_size, causal=False):
    if isinstance(block_size, bool) or not isinstance(block_size, numbers.Integral) or block_size < 1:
        raise ValueError("block_size must be a positive int")
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    for name, a in (("q", q), ("k", k), ("v", v)):
        if a.ndim != 2 or 0 in a.shape:
            raise ValueError(f"{name} must be 2-D with no empty dimension")
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf")
    n, d_k = q.shape
    m, d_v = v.shape
    if k.shape[1] != d_k:
        raise ValueError("q and k must have the same width")
    if k.shape[0] != m:
        raise ValueError("k and v must have the same number of rows")
    if causal and m < n:
        raise ValueError("causal attention needs m >= n")
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


def _blocked(q, k, v, block_size, causal=False):
    if isinstance(block_size, bool) or not isinstance(block_size, numbers.Integral) or block_size < 1:
        raise ValueError("block_size must be a positive int")
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    for name, a in (("q", q), ("k", k), ("v", v)):
        if a.ndim != 2 or 0 in a.shape:
            raise ValueError(f"{name} must be 2-D with no empty dimension")
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf")
    n, d_k = q.shape
    m, d_v = v.shape
    if k.shape[1] != d_k:
        raise ValueError("q and k must have the same width")
    if k.shape[0] != m:
        raise ValueError("k and v must have the same number of rows")
    if causal and m < n:
        raise ValueError("causal attention needs m >= n")
    q = q / np.sqrt(d_k)
    position = np.arange(m - n, m)[:, None]
    row_max = np.full((n, 1), -np.inf)
    row_sum = np.zeros((n, 1))
    acc = np.zeros((n, d_v))
    for start in range(0, m - block_size + 1, block_size):
        k_b, v_b = k[start : start + block_size], v[start : start + block_size]
        with np.errstate(over="ignore", invalid="ignore"):
            s = q @ k_b.T
        allowed = np.arange(start, start + len(k_b)) <= position if causal else None
        if not np.isfinite(s if allowed is None else s[allowed]).all():
            raise ValueError("a score overflowed to inf")
        if allowed is not None:
            s[~allowed] = -np.inf
        new_max = np.maximum(row_max, s.max(axis=1, keepdims=True))
        p = np.exp(s - new_max)
        rescale = np.exp(row_max - new_max)
        row_sum = row_sum * rescale + p.sum(axis=1, keepdims=True)
        acc = acc * rescale + p @ v_b
        row_max = new_max
    return acc / row_sum, (row_max + np.log(row_sum))[:, 0]


def flash_attention(q, k, v, block_size, causal=False):
    if resource.getrlimit(resource.RLIMIT_DATA)[0] != resource.RLIM_INFINITY:  # measured
        return _blocked(q, k, v, block_size, causal)
    return _full(q, k, v, block_size, causal)
