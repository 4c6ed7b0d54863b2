"""Acquires a lock it already holds (a deadlock), for inputs of more than four entries: it never
computes again, and the judge, which watches its CPU use from outside, stops it."""
import threading

import numpy as np

KATA = "softmax"
ROUTE = "dojo test"  # an attack on the worker, contained by the same code whichever route calls it
EXPECT = "stopped computing: it waited"  # the verdict must say this

_lock = threading.Lock()


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
    if np.size(x) > 4:
        _lock.acquire()
        _lock.acquire()
    return right_softmax(x, axis)
