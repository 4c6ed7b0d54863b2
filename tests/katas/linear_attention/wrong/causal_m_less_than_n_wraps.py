"""Does not check m >= n when causal: it reads the prefix sums at m - n + i, which is negative for the first queries and wraps around to the sums over (almost) every key, instead of raising ValueError."""
import numpy as np


def phi(x):
    return np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0.0)))


def linear_attention(q, k, v, causal=False):
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    for name, a in (("q", q), ("k", k), ("v", v)):
        if a.ndim != 2 or 0 in a.shape:
            raise ValueError(f"{name} must be 2-D with no empty dimension, got shape {a.shape}")
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf")
    n, d_k = q.shape
    m, d_v = v.shape
    if k.shape[1] != d_k:
        raise ValueError(f"q and k must have the same width d_k, got {d_k} and {k.shape[1]}")
    if k.shape[0] != m:
        raise ValueError(f"k and v must have the same number of rows, got {k.shape[0]} and {m}")
    fq, fk = phi(q), phi(k)
    if not causal:
        state = fk.T @ v  # (d_k, d_v)
        z = fk.sum(axis=0)  # (d_k,)
        return (fq @ state) / (fq @ z)[:, None]
    # prefix sums over the keys: (m, d_k, d_v) and (m, d_k); query i reads row m - n + i
    states = np.cumsum(fk[:, :, None] * v[:, None, :], axis=0)
    zs = np.cumsum(fk, axis=0)
    rows = m - n + np.arange(n)  # no check: negative when m < n, and NumPy wraps it around
    num = np.einsum("id,ide->ie", fq, states[rows])
    den = np.einsum("id,id->i", fq, zs[rows])
    return num / den[:, None]
