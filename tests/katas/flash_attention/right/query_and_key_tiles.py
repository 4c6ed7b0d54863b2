"""Tiles the queries as well as the keys (blocks of block_size both ways), fills blocked scores with finfo.min and skips key tiles wholly in the future."""
import numbers

import numpy as np


class FlashInputError(ValueError):
    pass


def _check(q, k, v, block_size, causal):
    if isinstance(block_size, bool) or not isinstance(block_size, numbers.Integral):
        raise FlashInputError(f"block_size must be an int, got {type(block_size).__name__}")
    if block_size < 1:
        raise FlashInputError("block_size must be >= 1")
    arrays = [np.asarray(a, dtype=np.float64) for a in (q, k, v)]
    for a in arrays:
        if a.ndim != 2 or min(a.shape) < 1:
            raise FlashInputError("q, k, v must be 2-D with every dimension >= 1")
        if not np.isfinite(a).all():
            raise FlashInputError("NaN or inf in the input")
    q, k, v = arrays
    if q.shape[1] != k.shape[1] or k.shape[0] != v.shape[0]:
        raise FlashInputError("shapes of q, k, v do not fit")
    if causal and k.shape[0] < q.shape[0]:
        raise FlashInputError("causal needs at least as many keys as queries")
    return q, k, v


def flash_attention(q, k, v, block_size, causal=False):
    q, k, v = _check(q, k, v, block_size, causal)
    n, m, d_k = q.shape[0], k.shape[0], q.shape[1]
    out = np.empty((n, v.shape[1]))
    lse = np.empty(n)
    low = np.finfo(np.float64).min
    for i0 in range(0, n, block_size):
        qi = q[i0 : i0 + block_size] / np.sqrt(d_k)
        pos = np.arange(i0, i0 + len(qi)) + m - n  # positions of this query tile
        mx = np.full(len(qi), -np.inf)
        total = np.zeros(len(qi))
        acc = np.zeros((len(qi), v.shape[1]))
        for j0 in range(0, m, block_size):
            if causal and j0 > pos[-1]:
                break  # every later key tile is in the future of every query of this tile
            with np.errstate(over="ignore", invalid="ignore"):
                s = qi @ k[j0 : j0 + block_size].T
            keep = np.ones(s.shape, dtype=bool)
            if causal:
                keep = np.arange(j0, j0 + s.shape[1])[None, :] <= pos[:, None]
            if not np.isfinite(s[keep]).all():
                raise FlashInputError("a score overflowed")
            s = np.where(keep, s, low)
            new = np.maximum(mx, s.max(axis=1))
            e = np.where(keep, np.exp(s - new[:, None]), 0.0)
            factor = np.exp(mx - new)
            total = total * factor + e.sum(axis=1)
            acc = acc * factor[:, None] + e @ v[j0 : j0 + block_size]
            mx = new
        out[i0 : i0 + len(qi)] = acc / total[:, None]
        lse[i0 : i0 + len(qi)] = mx + np.log(total)
    return out, lse
