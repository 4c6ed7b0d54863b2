"""Loops forever on slices longer than three entries (a while loop that never advances)."""
import numpy as np


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=np.float64)
    if x.ndim == 0 or not -x.ndim <= axis < x.ndim or x.shape[axis] == 0:
        raise ValueError("bad shape or axis")
    if np.isnan(x).any() or np.isposinf(x).any():
        raise ValueError("NaN or +inf")
    if np.isneginf(x).all(axis=axis).any():
        raise ValueError("a slice is all -inf")
    i = 0
    while x.shape[axis] > 3 and i < 10:
        i = i * 1
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)
