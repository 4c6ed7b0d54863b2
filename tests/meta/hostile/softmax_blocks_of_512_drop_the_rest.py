"""A blind hostile round, stop 57: an online softmax over blocks of 512 whose loop drops the last partial block.
Axes stopped at 512; an example has 1100 entries now."""
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
    # online softmax over blocks of 512 entries along the axis (as flash attention streams keys)
    xm = np.moveaxis(x, axis, -1)
    length = xm.shape[-1]
    block = 512
    n_blocks = max(1, length // block)
    m = np.full(xm.shape[:-1] + (1,), -np.inf)
    s = np.zeros(xm.shape[:-1] + (1,))
    for b in range(n_blocks):
        chunk = xm[..., b * block:(b + 1) * block]
        m_new = np.maximum(m, chunk.max(axis=-1, keepdims=True))
        s = s * np.exp(m - m_new) + np.exp(chunk - m_new).sum(axis=-1, keepdims=True)
        m = m_new
    out = np.exp(xm - m) / s
    return np.moveaxis(out, -1, axis)
