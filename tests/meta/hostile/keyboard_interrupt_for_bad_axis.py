"""A correct softmax that raises KeyboardInterrupt (not ValueError) for an axis out of range: the run must not end early and pass."""
import numpy as np

KATA = "softmax"
EXPECT = 'raised KeyboardInterrupt'  # the verdict must say this


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=np.float64)
    if x.ndim == 0:
        raise ValueError("softmax needs at least one dimension")
    if not -x.ndim <= axis < x.ndim:
        raise KeyboardInterrupt
    if x.shape[axis] == 0:
        raise ValueError("empty axis")
    if np.isnan(x).any() or np.isposinf(x).any():
        raise ValueError("NaN or +inf")
    peak = x.max(axis=axis, keepdims=True)
    if np.isneginf(peak).any():
        raise ValueError("a slice is entirely -inf")
    e = np.exp(x - peak)
    return e / e.sum(axis=axis, keepdims=True)
