"""Computes the causal case with the full (n, m) matrix phi(q) phi(k)ᵀ and a mask: right values, but memory grows with n·m."""
import numpy as np


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
    if not causal:
        return (fq @ (fk.T @ v)) / (fq @ fk.sum(axis=0))[:, None]
    a = fq @ fk.T
    a = np.where(np.tril(np.ones((n, m), dtype=bool), k=m - n), a, 0.0)
    return (a @ v) / a.sum(axis=1, keepdims=True)


SHOWS_IN_VALUES = False
#: Their values are all right (only memory tells them apart), so no input tells them apart by value.
BEHAVES_LIKE = ('full_matrix_when_not_causal', 'keeps_a_matrix_between_calls')
