"""Einsum for both products; validates every shape first, then the values."""
import numpy as np


def scaled_dot_product_attention(q, k, v, mask=None):
    q, k, v = np.asarray(q, np.float64), np.asarray(k, np.float64), np.asarray(v, np.float64)
    if any(a.ndim != 2 for a in (q, k, v)):
        raise ValueError("q, k and v must all be 2-D")
    if any(a.size == 0 for a in (q, k, v)):
        raise ValueError("q, k and v must not be empty")
    (n, d_k), (m, d_k2), (m2, _) = q.shape, k.shape, v.shape
    if d_k != d_k2:
        raise ValueError(f"width mismatch: q has {d_k}, k has {d_k2}")
    if m != m2:
        raise ValueError(f"k has {m} rows, v has {m2}")
    if mask is not None:
        mask = np.asarray(mask)
        if mask.dtype != bool or mask.shape != (n, m):
            raise ValueError(f"mask must be a bool array of shape {(n, m)}")
        if not mask.any(axis=-1).all():
            raise ValueError("some query may attend to no key")
    if not (np.isfinite(q).all() and np.isfinite(k).all() and np.isfinite(v).all()):
        raise ValueError("inputs must be finite")
    with np.errstate(over="ignore", invalid="ignore"):
        s = np.einsum("id,jd->ij", q, k) / np.sqrt(d_k)
    keep = np.ones_like(s, dtype=bool) if mask is None else mask
    if np.isinf(s[keep]).any() or np.isnan(s[keep]).any():
        raise ValueError("score overflow")
    s[~keep] = -np.inf
    s -= s.max(axis=-1, keepdims=True)
    p = np.exp(s)
    p /= p.sum(axis=-1, keepdims=True)
    return np.einsum("ij,jd->id", p, v), p
