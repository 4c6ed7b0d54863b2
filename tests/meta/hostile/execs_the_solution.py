"""Runs the reference answer (solutions/softmax.py, relative to the current folder) with exec: the
worker's current folder is its own temporary one, so there is no such file."""
import os

import numpy as np

KATA = "softmax"
EXPECT = 'FileNotFoundError'  # the verdict must say this


def softmax(x, axis=-1):
    namespace = {}
    exec(open(os.path.join(os.getcwd(), 'solutions', 'softmax.py')).read(), namespace)
    return namespace['softmax'](x, axis)
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
