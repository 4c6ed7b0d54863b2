
"""Returns an object that equals everything and whose __repr__ and __str__ call os._exit(0): the
judge never calls them, the worker does (to describe what came back), and the worker's end is
the verdict."""
import os

import numpy as np

KATA = "softmax"
EXPECT = "it exited with status 0"  # the verdict must say this


class Answer:
    def __eq__(self, other):
        return True

    def __repr__(self):
        os._exit(0)

    __str__ = __repr__


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
    right_softmax(x, axis)
    return Answer()
