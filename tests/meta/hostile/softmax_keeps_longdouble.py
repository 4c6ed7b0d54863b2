"""Computes in np.result_type(x, np.float64): a longdouble x stays longdouble, and the result is
not the float64 the contract returns. No input was longdouble (a blind round, stop 58); it is a
form every array-likes property draws now (S.FORM_NAMES)."""
KATA = "softmax"
ROUTE = "dojo test"
EXPECT = "should be float64"  # what the verdict must say

import numpy as np


def softmax(x, axis=-1):
    x = np.asarray(x)
    x = x.astype(np.promote_types(x.dtype, np.float64))  # at least float64; never lose precision
    if x.ndim == 0:
        raise ValueError("softmax needs an array with at least one dimension, got a scalar")
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
