"""A right file of ours until stop 58 (tests/katas/flash_attention/right/exp2_log2.py): FlashAttention-2's
base-2 online softmax, with the scores themselves scaled by log2(e). An allowed score near
finfo.min (valid: it is finite) becomes -inf there, and the file refuses it as an overflow. The
far-below draws stopped near -1e306; stop 58's example of an allowed score of exactly finfo.min
found it. The right file scales only the differences from the running max now."""
KATA = "flash_attention"
ROUTE = "dojo test"
EXPECT = "raised ValueError on a valid input"  # what the verdict must say

import operator

import numpy as np

log2e = np.log2(np.e)


def flash_attention(q, k, v, block_size, causal=False):
    if type(block_size) is bool:
        raise ValueError("block_size must be an int, not a bool")
    try:
        block_size = operator.index(block_size)
    except TypeError:
        raise ValueError(f"block_size must be an int, got {block_size!r}") from None
    if block_size <= 0:
        raise ValueError("block_size must be positive")
    q, k, v = (np.array(a, dtype=np.float64) for a in (q, k, v))
    if q.ndim != 2 or k.ndim != 2 or v.ndim != 2 or 0 in q.shape + k.shape + v.shape:
        raise ValueError("q, k, v must be non-empty 2-D arrays")
    if not all(np.isfinite(a).all() for a in (q, k, v)):
        raise ValueError("q, k, v must be finite")
    n, m = q.shape[0], k.shape[0]
    if q.shape[1] != k.shape[1] or v.shape[0] != m:
        raise ValueError("q, k, v shapes do not fit")
    if causal and m < n:
        raise ValueError("causal needs m >= n")
    q2 = q * (log2e / np.sqrt(q.shape[1]))  # scores in log2 units
    mx = np.full(n, -np.inf)
    l = np.zeros(n)
    o = np.zeros((n, v.shape[1]))
    qpos = np.arange(n) + (m - n)
    for j0 in range(0, m, block_size):
        kj, vj = k[j0 : j0 + block_size], v[j0 : j0 + block_size]
        with np.errstate(over="ignore", invalid="ignore"):
            s2 = q2 @ kj.T
        if causal:
            ok = np.arange(j0, j0 + len(kj))[None, :] <= qpos[:, None]
            if not np.isfinite(s2[ok]).all():  # not np.isinf: a NaN score too (stop 55)
                raise ValueError("score overflow")
            s2 = np.where(ok, s2, -np.inf)
        elif not np.isfinite(s2).all():
            raise ValueError("score overflow")
        mj = np.maximum(mx, s2.max(axis=1))
        alpha = np.exp2(mx - mj)
        pj = np.exp2(s2 - mj[:, None])
        l = alpha * l + pj.sum(axis=1)
        o = alpha[:, None] * o + pj @ vj
        mx = mj
    return o / l[:, None], (mx + np.log2(l)) / log2e
