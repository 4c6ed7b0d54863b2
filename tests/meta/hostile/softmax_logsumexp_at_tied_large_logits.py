"""A blind hostile round, stop 57: softmax as exp(x - logsumexp(x)). Two equal logits of 1e20 get 1 each, not 1/2:
the log 2 that logsumexp adds to the max is below float64's spacing out there. Logits stopped near
4e5; an example has 1e20 now."""
KATA = "softmax"
ROUTE = "dojo test"
EXPECT = "is wrong"  # what the verdict must say

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
    lse = peak + np.log(np.exp(x - peak).sum(axis=axis, keepdims=True))  # logsumexp
    return np.exp(x - lse)
