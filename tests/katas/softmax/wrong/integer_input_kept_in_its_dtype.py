"""Keeps an integer array in its own dtype (only floats become float64), so x - max wraps around in int8 or uint8.

Exact in int64; in uint8 every entry below the slice's maximum wraps around to a large
positive number, and in int8 the difference overflows."""
import numpy as np


def softmax(x, axis=-1):
    x = np.asarray(x)
    if x.dtype.kind == "f" or x.dtype == object:
        x = x.astype(np.float64)
    if x.ndim == 0 or not -x.ndim <= axis < x.ndim or x.shape[axis] == 0:
        raise ValueError("x needs a dimension, a valid axis and a non-empty slice")
    if x.dtype.kind == "f":
        if np.isnan(x).any() or np.isposinf(x).any():
            raise ValueError("NaN or +inf in x")
        if np.isneginf(x).all(axis=axis).any():
            raise ValueError("a slice is entirely -inf")
    shifted = x - x.max(axis=axis, keepdims=True)
    e = np.exp(shifted.astype(np.float64))
    return e / e.sum(axis=axis, keepdims=True)
