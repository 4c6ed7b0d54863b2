"""A wrong softmax (no max shift) that prints 2 MB on every call."""
import numpy as np

KATA = "softmax"
EXPECT = 'exp(1e4) overflows'  # the verdict must say this (its bug: no max shift)


def softmax(x, axis=-1):
    print('x' * 2_000_000)
    x = np.asarray(x, dtype=np.float64)
    if np.ndim(x) and np.size(x) and -np.ndim(x) <= axis < np.ndim(x) and np.isfinite(x).all():
        e = np.exp(x)
        return e / e.sum(axis=axis, keepdims=True)
    x = np.asarray(x, dtype=np.float64)
    if x.ndim == 0:
        raise ValueError("softmax needs at least one dimension")
    if not -x.ndim <= axis < x.ndim:
        raise ValueError("axis out of range")
    if x.shape[axis] == 0:
        raise ValueError("empty axis")
    if np.isnan(x).any() or np.isposinf(x).any():
        raise ValueError("NaN or +inf")
    peak = x.max(axis=axis, keepdims=True)
    if np.isneginf(peak).any():
        raise ValueError("a slice is entirely -inf")
    e = np.exp(x - peak)
    return e / e.sum(axis=axis, keepdims=True)
