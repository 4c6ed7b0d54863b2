"""Computes the whole (n, m) matrix phi(q) phi(k)ᵀ into a buffer it allocates on the first call of
each size and keeps in the module for later calls (no new memory after the first call): right
values, one n×m matrix held all the time."""
import numpy as np

# Its outputs are right: only the judge's memory property sees this bug, so the diagnosis
# (which compares outputs) never names it.
SHOWS_IN_VALUES = False
#: Their values are all right (only memory tells them apart), so no input tells them apart by value.
BEHAVES_LIKE = ('causal_full_matrix', 'full_matrix_when_not_causal')

_BUFFERS = {}  # (n, m) -> an (n, m) float64 buffer, kept between calls


def phi(x):
    return np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0.0)))


def linear_attention(q, k, v, causal=False):
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
    fq, fk = phi(q), phi(k)
    a = _BUFFERS.get((n, m))
    if a is None:
        a = _BUFFERS[(n, m)] = np.empty((n, m))
    np.matmul(fq, fk.T, out=a)
    if causal:
        for i in range(n):  # query i sees keys j <= m - n + i
            a[i, m - n + i + 1 :] = 0.0
    return (a @ v) / a.sum(axis=1, keepdims=True)
