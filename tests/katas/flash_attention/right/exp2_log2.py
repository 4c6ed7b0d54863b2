"""FlashAttention-2 style: the online softmax in base 2 (exp2 of log2(e)-scaled differences from the running max); the scores, the max and lse stay in natural units (until stop 58 it scaled the scores themselves, and an allowed score near finfo.min became -inf there)."""
import operator

import numpy as np

LOG2E = np.log2(np.e)


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
    qs = q / np.sqrt(q.shape[1])
    mx = np.full(n, -np.inf)
    l = np.zeros(n)
    o = np.zeros((n, v.shape[1]))
    qpos = np.arange(n) + (m - n)
    for j0 in range(0, m, block_size):
        kj, vj = k[j0 : j0 + block_size], v[j0 : j0 + block_size]
        with np.errstate(over="ignore", invalid="ignore"):
            s = qs @ kj.T
        if causal:
            ok = np.arange(j0, j0 + len(kj))[None, :] <= qpos[:, None]
            if not np.isfinite(s[ok]).all():  # not np.isinf: a NaN score too (stop 55)
                raise ValueError("score overflow")
            s = np.where(ok, s, -np.inf)
        elif not np.isfinite(s).all():
            raise ValueError("score overflow")
        mj = np.maximum(mx, s.max(axis=1))
        with np.errstate(over="ignore"):
            alpha = np.exp2((mx - mj) * LOG2E)
            pj = np.exp2((s - mj[:, None]) * LOG2E)
        l = alpha * l + pj.sum(axis=1)
        o = alpha[:, None] * o + pj @ vj
        mx = mj
    return o / l[:, None], mx + np.log(l)
