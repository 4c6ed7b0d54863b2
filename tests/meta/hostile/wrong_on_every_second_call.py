"""A softmax that is right on odd calls and halves its answer on even ones (state kept between
calls): the same input gets two answers."""
import itertools

import numpy as np

KATA = "softmax"
EXPECT = {"pytest": "is wrong", "dojo test": "gave different results for the same input"}

_calls = itertools.count()


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
    return out / 2 if next(_calls) % 2 else out
