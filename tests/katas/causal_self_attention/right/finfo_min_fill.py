"""Fills future scores with np.finfo(np.float64).min instead of -inf, zeroes them after exp(),
with an explicit check for overflowing allowed scores."""
import numpy as np

LOWEST = np.finfo(np.float64).min


def causal_self_attention(x, w_q, w_k, w_v):
    x, w_q, w_k, w_v = [np.asarray(t, dtype=np.float64) for t in (x, w_q, w_k, w_v)]
    for name, t in zip(("x", "w_q", "w_k", "w_v"), (x, w_q, w_k, w_v)):
        if t.ndim != 2 or min(t.shape) == 0:
            raise ValueError(f"{name}: expected a non-empty matrix, got shape {t.shape}")
    n, d_model = x.shape
    if {w_q.shape[0], w_k.shape[0], w_v.shape[0]} != {d_model}:
        raise ValueError("projection row counts must equal d_model")
    if w_q.shape[1] != w_k.shape[1]:
        raise ValueError("query and key widths differ")
    if not (np.isfinite(x).all() and np.isfinite(w_q).all() and np.isfinite(w_k).all() and np.isfinite(w_v).all()):
        raise ValueError("non-finite input")
    with np.errstate(over="ignore", invalid="ignore"):
        scores = np.matmul(np.matmul(x, w_q), np.matmul(x, w_k).T) * (1.0 / np.sqrt(w_q.shape[1]))
    causal = np.tri(n, dtype=bool)
    if np.any(causal & ~np.isfinite(scores)):
        raise ValueError("an allowed score is not finite")
    filled = np.where(causal, scores, LOWEST)
    with np.errstate(over="ignore"):  # LOWEST - (a positive max) rounds to -inf: exp gives 0
        e = np.exp(filled - filled.max(axis=1, keepdims=True))
    e[~causal] = 0.0
    weights = e / e.sum(axis=1, keepdims=True)
    return np.matmul(weights, np.matmul(x, w_v)), weights
