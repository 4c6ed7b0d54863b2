"""A loop over query rows, the bias counted from the row index, -slope (i - j) (it differs from -slope (p_i - j) by a constant per row), finfo.min fills with explicit checks."""
import numpy as np


def _slopes(h):
    if h & (h - 1) == 0:
        return np.array([2.0 ** (-8.0 * (i + 1) / h) for i in range(h)])
    c = 1
    while 2 * c < h:
        c *= 2
    return np.concatenate([_slopes(c), _slopes(2 * c)[::2][: h - c]])


def alibi_attention(q, k, v):
    q, k, v = np.asarray(q, float), np.asarray(k, float), np.asarray(v, float)
    if q.ndim != 3 or k.ndim != 3 or v.ndim != 3:
        raise ValueError("expected 3-D q, k, v of shapes (h, n, d_k), (h, m, d_k), (h, m, d_v)")
    if q.size == 0 or k.size == 0 or v.size == 0:
        raise ValueError("q, k and v must not be empty")
    h, n, d_k = q.shape
    if k.shape[0] != h or v.shape[0] != h or k.shape[2] != d_k or k.shape[1] != v.shape[1]:
        raise ValueError(f"shapes do not fit: q {q.shape}, k {k.shape}, v {v.shape}")
    m = k.shape[1]
    if m < n:
        raise ValueError(f"{n} queries but only {m} keys")
    for name, a in (("q", q), ("k", k), ("v", v)):
        if np.isnan(a).any() or np.isinf(a).any():
            raise ValueError(f"{name} is not finite")
    slopes = _slopes(h)[:, None]
    out = np.zeros((h, n, v.shape[2]))
    lowest = np.finfo(np.float64).min
    for i in range(n):
        seen = m - n + i + 1  # keys 0 .. p_i
        with np.errstate(over="ignore", invalid="ignore"):
            s = np.einsum("hd,hjd->hj", q[:, i], k) / np.sqrt(d_k) - slopes * (i - np.arange(m))
        if not np.isfinite(s[:, :seen]).all():
            raise ValueError(f"query {i}: a score overflows")
        s[:, seen:] = lowest
        w = np.exp(s - s.max(axis=1, keepdims=True))
        w[:, seen:] = 0.0
        out[:, i] = np.einsum("hj,hjd->hd", w / w.sum(axis=1, keepdims=True), v)
    return out
