"""Masked attention that is right for every shape except n == m, where it normalises over the queries: a bug the judge only sees if some examples have as many queries as keys."""
import numpy as np

KATA = "masked_attention"
ROUTE = "dojo test"  # an attack on the worker, contained by the same code whichever route calls it
EXPECT = "is wrong"  # the verdict must say this


def scaled_dot_product_attention(q, k, v, mask=None):
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    for name, a in (("q", q), ("k", k), ("v", v)):
        if a.ndim != 2 or 0 in a.shape:
            raise ValueError(f"{name} must be 2-D with no empty dimension")
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf")
    n, d_k = q.shape
    m, d_v = v.shape
    if k.shape != (m, d_k):
        raise ValueError("k must be (m, d_k)")
    if mask is None:
        allowed = np.ones((n, m), dtype=bool)
    else:
        allowed = np.asarray(mask)
        if allowed.dtype != np.bool_ or allowed.shape != (n, m):
            raise ValueError("mask must be bool of shape (n, m)")
        if not allowed.any(axis=1).all():
            raise ValueError("a query has no allowed key")
    with np.errstate(over="ignore", invalid="ignore"):
        scores = q @ k.T / np.sqrt(d_k)
    if not np.isfinite(scores[allowed]).all():
        raise ValueError("a score overflowed")
    scores = np.where(allowed, scores, -np.inf)
    axis = 0 if n == m else 1  # the shape-dependent bug
    weights = np.exp(scores - scores.max(axis=axis, keepdims=True))
    weights = np.nan_to_num(weights / weights.sum(axis=axis, keepdims=True))
    return weights @ v, weights
