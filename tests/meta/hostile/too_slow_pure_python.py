"""A correct softmax computed entry by entry in pure Python, about 0.15 s of CPU a call (as a
Python loop over many entries would take): far inside the per-call limit, but a few hundred calls
take more than the kata's budget of CPU time. Too slow, and said so: never called a hang."""
import math
import time

import numpy as np

KATA = "softmax"
ROUTE = "dojo test"  # an attack on the worker, contained by the same code whichever route calls it
EXPECT = "too slow:"  # the verdict must say this
SECONDS_PER_CALL = 0.15  # of CPU time


def _entry_by_entry(row):
    peak = max(row)
    exps = [math.exp(value - peak) for value in row]
    total = sum(exps)
    return [e / total for e in exps]


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
    start = time.process_time()
    out = right_softmax(x, axis)  # the contract's ValueErrors, and the array's shape
    moved = np.moveaxis(out, axis, -1)
    rows = np.moveaxis(np.asarray(x, dtype=np.float64), axis, -1).reshape(-1, moved.shape[-1])
    result = np.array([_entry_by_entry(list(row)) for row in rows]).reshape(moved.shape)
    while time.process_time() - start < SECONDS_PER_CALL:  # more entries than these
        _entry_by_entry([0.5] * 64)
    return np.moveaxis(result, -1, axis)
