"""A wrong softmax (half the right answer) that writes 1 MB straight to file descriptors 1 and 2 on every
call (os.write, past any Python-level capture): the worker's descriptors are a pipe the judge
reads and caps."""
import os

import numpy as np

KATA = "softmax"
EXPECT = "is wrong"  # the verdict must say this


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
    os.write(1, b"x" * 1_000_000)
    os.write(2, b"y" * 1_000_000)
    return right_softmax(x, axis) / 2
