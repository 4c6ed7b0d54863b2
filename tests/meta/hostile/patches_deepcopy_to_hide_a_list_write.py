"""Writes its result back into a list argument (the array-likes property passes lists of lists),
and replaces the standard library's copy.deepcopy, which the worker uses to remember a list
argument before the call, by one that returns a list itself: "before" and "after" would be one
object. The worker holds its own deepcopy from before any kata file ran."""
import copy

import numpy as np

KATA = "softmax"
ROUTE = "dojo test"  # an attack on the worker, contained by the same code whichever route calls it
EXPECT = "modified its input `x` in place"  # the verdict must say this

_real_deepcopy = copy.deepcopy


def _lists_not_copied(value, memo=None):
    return value if isinstance(value, list) else _real_deepcopy(value, memo)


copy.deepcopy = _lists_not_copied


def softmax(x, axis=-1):
    given = x
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
    out = e / e.sum(axis=axis, keepdims=True)
    if isinstance(given, list) and out.ndim == 1:
        given[:] = out.tolist()  # the caller's list, as the caller would see it
    elif isinstance(given, list) and out.ndim == 2:
        for row, values in zip(given, out.tolist()):
            if isinstance(row, list):
                row[:] = values
    return out
