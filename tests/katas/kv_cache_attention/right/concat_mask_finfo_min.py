"""The cached keys are all visible, the new block is plain causal: mask = [ones(n, m - n) | tril(n, n)], filled with finfo.min."""
import numpy as np


class CacheShapeError(ValueError):
    pass


def cached_causal_attention(q, k, v):
    arrays = {}
    for name, a in (("q", q), ("k", k), ("v", v)):
        a = np.asarray(a, dtype=np.float64)
        if a.ndim != 2:
            raise CacheShapeError(f"{name} must be 2-D")
        if a.size == 0:
            raise CacheShapeError(f"{name} is empty")
        if np.isnan(a).any() or np.isinf(a).any():
            raise CacheShapeError(f"{name} has NaN or inf")
        arrays[name] = a
    q, k, v = arrays["q"], arrays["k"], arrays["v"]
    (n, d_k), (m, d_kk), (m_v, _) = q.shape, k.shape, v.shape
    if d_k != d_kk:
        raise CacheShapeError("q and k widths differ")
    if m != m_v:
        raise CacheShapeError("k and v lengths differ")
    if n > m:
        raise CacheShapeError("more new tokens than cached tokens")
    mask = np.concatenate(
        [np.ones((n, m - n), dtype=bool), np.tril(np.ones((n, n), dtype=bool))], axis=1
    )
    with np.errstate(over="ignore", invalid="ignore"):
        scores = (q / np.sqrt(d_k)) @ k.T
    if np.isinf(scores[mask]).any() or np.isnan(scores[mask]).any():
        raise CacheShapeError("overflow")
    scores = np.where(mask, scores, np.finfo(np.float64).min)
    shifted = scores - scores.max(axis=-1, keepdims=True)
    e = np.where(mask, np.exp(shifted), 0.0)
    weights = e / e.sum(axis=-1, keepdims=True)
    return weights @ v, weights
