"""Clamps the normaliser at 1e-6 (np.maximum(den, 1e-6), torch's clamp(min=eps)), so a query whose features are tiny is divided by 1e-6 instead of its true normaliser."""
import numpy as np

EPS = 1e-6  # keeps the division safe


def phi(x):
    return np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0.0)))  # elu(x) + 1


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
        return (fq @ (fk.T @ v)) / np.maximum(fq @ fk.sum(axis=0), EPS)[:, None]
    states = np.cumsum(fk[:, :, None] * v[:, None, :], axis=0)  # (m, d_k, d_v): Σ_{j<=t} phi(k_j) v_jᵀ
    zs = np.cumsum(fk, axis=0)  # (m, d_k)
    p = np.arange(m - n, m)  # query i's position
    num = np.einsum("nd,nde->ne", fq, states[p])
    den = np.einsum("nd,nd->n", fq, zs[p])
    return num / np.maximum(den, EPS)[:, None]
