"""Subtracts the max in place, so the caller's float64 array is changed."""
import numpy as np


def softmax(x, axis=-1):
    x_in = x
    x = np.asarray(x, dtype=np.float64)
    if x.ndim == 0 or not -x.ndim <= axis < x.ndim or x.shape[axis] == 0:
        raise ValueError("bad shape or axis")
    if np.isnan(x).any() or np.isposinf(x).any():
        raise ValueError("NaN or +inf")
    if np.isneginf(x).all(axis=axis).any():
        raise ValueError("a slice is all -inf")
    x = x_in if isinstance(x_in, np.ndarray) and x_in.dtype == np.float64 else x
    x -= x.max(axis=axis, keepdims=True)
    np.exp(x, out=x)
    return x / x.sum(axis=axis, keepdims=True)
