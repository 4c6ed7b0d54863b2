"""Checks the contract with assert, so bad input raises AssertionError, not ValueError."""
import numpy as np


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=np.float64)
    assert x.ndim > 0 and -x.ndim <= axis < x.ndim and x.shape[axis] > 0, "bad shape or axis"
    assert not np.isnan(x).any() and not np.isposinf(x).any(), "NaN or +inf"
    assert not np.isneginf(x).all(axis=axis).any(), "a slice is all -inf"
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)
