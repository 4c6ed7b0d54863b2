"""Through log-softmax: (x - max) - log(sum(exp(x - max))), as torch's log_softmax computes it.
(Until stop 57 it added the max back first, x - (max + log(sum)): with two equal logits of 1e20
the log 2 rounds away in max + log 2, and each got 1.)"""
import numpy as np


def softmax(x, axis=-1):
    x = np.array(x, dtype=np.float64)
    if x.ndim == 0:
        raise ValueError("need at least 1-D input")
    if axis >= x.ndim or axis < -x.ndim:
        raise ValueError("axis out of range")
    if x.shape[axis] == 0:
        raise ValueError("empty axis")
    if np.isnan(x).any() or (x == np.inf).any():
        raise ValueError("NaN/+inf in input")
    m = np.max(x, axis=axis, keepdims=True)
    if (m == -np.inf).any():
        raise ValueError("all -inf slice")
    shifted = x - m
    return np.exp(shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True)))
