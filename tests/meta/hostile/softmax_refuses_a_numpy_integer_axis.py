"""Refuses an axis that is not a Python int. The contract said "int" and the judge drew only
Python ints (a blind round, stop 58): the contract says a Python or NumPy integer now, and the
array-likes property passes axis as one."""
KATA = "softmax"
ROUTE = "dojo test"
EXPECT = "raised ValueError on a valid input"  # what the verdict must say

import numpy as np


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=np.float64)
    if x.ndim == 0:
        raise ValueError("softmax needs an array with at least one dimension, got a scalar")
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise ValueError(f"axis must be an int, got {axis!r}")
    if not -x.ndim <= axis < x.ndim:
        raise ValueError(f"axis {axis} is out of range for an array with {x.ndim} dimension(s)")
    if x.shape[axis] == 0:
        raise ValueError(f"axis {axis} has length 0: there is nothing to normalise")
    if np.isnan(x).any() or np.isposinf(x).any():
        raise ValueError("x contains NaN or +inf; logits must be finite (or -inf when masked)")
    peak = x.max(axis=axis, keepdims=True)  # x's shape with 1 along axis
    if np.isneginf(peak).any():
        raise ValueError("a slice along the axis is entirely -inf: no entry can get any weight")
    e = np.exp(x - peak)  # x's shape; the largest entry of each slice is exactly 1
    return e / e.sum(axis=axis, keepdims=True)
