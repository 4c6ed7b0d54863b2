"""Through log-softmax: x - logsumexp(x), with the max taken out of the log-sum."""
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
    lse = m + np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))
    return np.exp(x - lse)
