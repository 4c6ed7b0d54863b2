"""The recurrent form: one loop over the keys updating S += phi(k_j) v_jᵀ and z += phi(k_j), reading out each query when its own key has been added."""
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
    state = np.zeros((d_k, d_v))
    z = np.zeros(d_k)
    out = np.empty((n, d_v))
    for j in range(m):
        state += np.outer(fk[j], v[j])
        z += fk[j]
        i = j - (m - n)  # the query whose position is j
        if causal and i >= 0:
            out[i] = (fq[i] @ state) / (fq[i] @ z)
    if not causal:
        out = (fq @ state) / (fq @ z)[:, None]
    return out
