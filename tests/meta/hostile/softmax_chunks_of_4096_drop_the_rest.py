"""For axes longer than 4096 the sum runs over whole chunks of 4096 only: the rest is left out of
the normaliser. The longest axis the judge tried had 1100 entries (a blind round, stop 58); an
example has 4200 now."""
KATA = "softmax"
ROUTE = "dojo test"
EXPECT = "is wrong"  # what the verdict must say

import numpy as np

CHUNK = 4096  # entries per chunk along a long axis


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
    length = x.shape[axis]
    if length <= CHUNK:
        e = np.exp(x - peak)  # x's shape; the largest entry of each slice is exactly 1
        return e / e.sum(axis=axis, keepdims=True)
    # long axes: sum the exponentials chunk by chunk to keep the temporaries small
    total = np.zeros_like(peak)
    for c in range(length // CHUNK):
        part = np.take(x, np.arange(c * CHUNK, (c + 1) * CHUNK), axis=axis)
        total += np.exp(part - peak).sum(axis=axis, keepdims=True)
    return np.exp(x - peak) / total
