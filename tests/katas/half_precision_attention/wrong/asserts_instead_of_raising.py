"""Checks the contract with assert, so bad inputs raise AssertionError instead of ValueError."""
import numpy as np


def half_precision_attention(q, k, v):
    for a in (q, k, v):
        assert isinstance(a, np.ndarray) and a.dtype == np.float16, "inputs must be float16 arrays"
        assert a.ndim == 2 and 0 not in a.shape, "inputs must be 2-D and non-empty"
        assert np.isfinite(a).all(), "inputs must be finite"
    assert k.shape[1] == q.shape[1] and k.shape[0] == v.shape[0], "shapes do not match"
    scores = q.astype(np.float64) @ k.astype(np.float64).T / np.sqrt(q.shape[1])
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    weights /= weights.sum(axis=1, keepdims=True)
    return (weights @ v.astype(np.float64)).astype(np.float16)
