"""A realistic bug that passed every property (stop 56's blind round): it
refuses every empty x (x.size == 0), where the contract refuses only length 0 along axis; an x
of shape (0, 3) with axis=-1 is valid and its answer is empty. No draw had an empty side.
Two examples are there now; this file keeps it caught."""
KATA = "softmax"
ROUTE = "dojo test"
EXPECT = 'raised ValueError on a valid input'  # what the verdict must say

import numpy as np


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=np.float64)
    if x.ndim == 0:
        raise ValueError("softmax needs an array with at least one dimension, got a scalar")
    if not -x.ndim <= axis < x.ndim:
        raise ValueError(f"axis {axis} is out of range for an array with {x.ndim} dimension(s)")
    if x.size == 0:
        raise ValueError("x is empty: there is nothing to normalise")
    if np.isnan(x).any() or np.isposinf(x).any():
        raise ValueError("x contains NaN or +inf; logits must be finite (or -inf when masked)")
    peak = x.max(axis=axis, keepdims=True)  # x's shape with 1 along axis
    if np.isneginf(peak).any():
        raise ValueError("a slice along the axis is entirely -inf: no entry can get any weight")
    e = np.exp(x - peak)  # x's shape; the largest entry of each slice is exactly 1
    return e / e.sum(axis=axis, keepdims=True)
