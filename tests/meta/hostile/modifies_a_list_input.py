"""A correct softmax that, given a list (the array-likes property passes lists of lists), writes
its result back into the caller's list: honest code saving memory, and an input modified in
place all the same."""
import numpy as np

KATA = "softmax"
EXPECT = "modified its input `x` in place"  # the verdict must say this


def _fill(target, values):
    for i, value in enumerate(values):
        if isinstance(value, list):
            _fill(target[i], value)
        else:
            target[i] = value


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
    if isinstance(x, list):
        _fill(x, out.tolist())
    return out
