"""Moves the axis to the end and normalises one row at a time in a Python loop."""
import numpy as np


class SoftmaxInputError(ValueError):
    """A subclass of ValueError is allowed by the contract."""


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=np.float64)
    if x.ndim == 0:
        raise SoftmaxInputError("scalar input")
    if not -x.ndim <= axis < x.ndim:
        raise SoftmaxInputError(f"axis {axis} out of range")
    moved = np.moveaxis(x, axis, -1)
    if moved.shape[-1] == 0:
        raise SoftmaxInputError("empty axis")
    rows = moved.reshape(-1, moved.shape[-1])
    out = np.empty_like(rows)
    for i, row in enumerate(rows):
        if any(np.isnan(v) or v == np.inf for v in row):
            raise SoftmaxInputError(f"row {i} has NaN or +inf")
        top = max(row)
        if top == -np.inf:
            raise SoftmaxInputError(f"row {i} is entirely -inf")
        e = np.exp(row - top)
        out[i] = e / e.sum()
    return np.moveaxis(out.reshape(moved.shape), -1, axis)
