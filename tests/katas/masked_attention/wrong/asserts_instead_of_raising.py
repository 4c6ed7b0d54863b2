"""Checks the contract with assert, so bad input raises AssertionError, not ValueError."""
import numpy as np


def scaled_dot_product_attention(q, k, v, mask=None):
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    for name, a in (("q", q), ("k", k), ("v", v)):
        assert a.ndim == 2 and 0 not in a.shape, f"{name} must be 2-D with no empty dimension"
        assert np.isfinite(a).all(), f"{name} contains NaN or inf"
    n, d_k = q.shape
    m, d_v = v.shape
    assert k.shape[1] == d_k, "q and k must have the same width"
    assert k.shape[0] == m, "k and v must have the same number of rows"
    if mask is None:
        allowed = np.ones((n, m), dtype=bool)
    else:
        allowed = np.asarray(mask)
        assert allowed.dtype == np.bool_, "mask must have dtype bool"
        assert allowed.shape == (n, m), "mask must have shape (n, m)"
        assert allowed.any(axis=1).all(), "a query has no allowed key"
    with np.errstate(over="ignore", invalid="ignore"):
        scores = q @ k.T / np.sqrt(d_k)
    assert np.isfinite(scores[allowed]).all(), "an allowed score overflowed to inf"
    scores = np.where(allowed, scores, -np.inf)
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    weights /= weights.sum(axis=1, keepdims=True)
    return weights @ v, weights
