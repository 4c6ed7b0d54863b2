"""Never checks for NaN or +inf, so they come out as NaN instead of a ValueError."""
import numpy as np


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=np.float64)
    if x.ndim == 0 or not -x.ndim <= axis < x.ndim or x.shape[axis] == 0:
        raise ValueError("bad shape or axis")
    if np.isneginf(x).all(axis=axis).any():
        raise ValueError("a slice is all -inf")
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)
