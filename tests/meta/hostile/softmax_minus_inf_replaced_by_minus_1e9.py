"""A blind hostile round, stop 57: replaces -inf logits by -1e9 first. Beside a logit of -2e9 the masked entry takes
all the weight. Finite logits near -inf were never drawn beside a -inf; examples have -2e9,
-1e300 and finfo.min now."""
KATA = "softmax"
ROUTE = "dojo test"
EXPECT = "must be exactly 0"  # what the verdict must say

import numpy as np


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=np.float64)
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
    x = np.where(np.isneginf(x), -1e9, x)  # masked logits -> large negative, avoids inf - inf
    peak = x.max(axis=axis, keepdims=True)
    e = np.exp(x - peak)  # x's shape; the largest entry of each slice is exactly 1
    return e / e.sum(axis=axis, keepdims=True)
