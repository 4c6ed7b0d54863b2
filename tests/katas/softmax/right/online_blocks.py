"""Online softmax along the axis in blocks of 256 (as flash attention streams its keys): a running
max and a running sum, rescaled as each block arrives; the last block may be partial."""
import numpy as np

BLOCK = 256


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=np.float64)
    if x.ndim == 0 or not -x.ndim <= axis < x.ndim:
        raise ValueError("x needs the axis")
    if x.shape[axis] == 0:
        raise ValueError("empty axis")
    if np.isnan(x).any() or np.isposinf(x).any():
        raise ValueError("NaN or +inf in x")
    x = np.moveaxis(x, axis, -1)
    n = x.shape[-1]
    m = np.full(x.shape[:-1] + (1,), -np.inf)
    total = np.zeros(x.shape[:-1] + (1,))
    for start in range(0, n, BLOCK):
        block = x[..., start:start + BLOCK]
        new_m = np.maximum(m, block.max(axis=-1, keepdims=True))
        shift = np.where(np.isneginf(new_m), 0.0, new_m)  # a row all -inf so far: nothing to add yet
        total = total * np.exp(m - shift) + np.exp(block - shift).sum(axis=-1, keepdims=True)
        m = new_m
    if np.isneginf(m).any():
        raise ValueError("a slice is entirely -inf")
    return np.moveaxis(np.exp(x - m) / total, -1, axis)
