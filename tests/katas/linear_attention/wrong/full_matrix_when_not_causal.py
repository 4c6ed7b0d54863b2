"""Keeps a running state when causal, but computes the non-causal case in the textbook order (phi(q) phi(k)ᵀ) v: right values, but an n×m matrix."""
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
        a = fq @ fk.T  # (n, m)
        return (a @ v) / a.sum(axis=1, keepdims=True)
    out = np.empty((n, d_v))
    state = fk[: m - n].T @ v[: m - n]
    z = fk[: m - n].sum(axis=0)
    for i in range(n):
        j = m - n + i
        state = state + np.outer(fk[j], v[j])
        z = z + fk[j]
        out[i] = (fq[i] @ state) / (fq[i] @ z)
    return out


SHOWS_IN_VALUES = False
#: Their values are all right (only memory tells them apart), so no input tells them apart by value.
BEHAVES_LIKE = ('causal_full_matrix', 'keeps_a_matrix_between_calls')
