"""Writes into its input, and replaces np.array_equal by one that always agrees: a one-line way
past a check that runs in the process the candidate's code runs in, had that check used NumPy
(the worker compares the inputs' bytes, which no NumPy function touches)."""
import numpy as np

KATA = "softmax"
EXPECT = "modified its input `x` in place"  # the verdict must say this

np.array_equal = lambda *args, **kwargs: True


def right_softmax(x, axis=-1):
    """A correct softmax (the part of this file that is not the attack)."""
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


def softmax(x, axis=-1):
    out = right_softmax(x, axis)
    if isinstance(x, np.ndarray) and x.dtype == np.float64:
        x[...] = 0.0  # the caller's array, as the caller would see it
    return out
