"""Flash attention with the right values, computed from the full n x m score matrix, that calls
tracemalloc.reset_peak() (and stops tracemalloc) around the work, as if the judge counted memory
with tracemalloc: the judge reads the worker's resident memory from the kernel, from outside."""
import numbers
import tracemalloc

import numpy as np

KATA = "flash_attention"
ROUTE = "dojo test"  # the memory bound is measured by the same code in both routes
EXPECT = "the memory bound is broken"  # the verdict must say this


def hide_the_peak():
    if tracemalloc.is_tracing():
        tracemalloc.reset_peak()
        tracemalloc.stop()


def flash_attention(q, k, v, block_size, causal=False):
    """Right values, computed from the full n x m score matrix (what the contract forbids)."""
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
    if k.shape[1] != d_k or k.shape[0] != m:
        raise ValueError("q, k and v do not fit together")
    if causal and m < n:
        raise ValueError("causal attention needs m >= n")
    hide_the_peak()
    with np.errstate(over="ignore", invalid="ignore"):
        s = q @ k.T / np.sqrt(d_k)  # (n, m): the whole matrix
    allowed = np.arange(m) <= np.arange(m - n, m)[:, None] if causal else np.ones((n, m), dtype=bool)
    if not np.isfinite(s[allowed]).all():
        raise ValueError("a score q.k/sqrt(d_k) overflowed; rescale q or k")
    s = np.where(allowed, s, -np.inf)
    peak = s.max(axis=1, keepdims=True)
    p = np.exp(s - peak)
    total = p.sum(axis=1, keepdims=True)
    hide_the_peak()
    return (p / total) @ v, (peak + np.log(total))[:, 0]
