"""A 1-D softmax applied slice by slice with np.apply_along_axis, validating up front (an x empty
along another axis is returned as it is: apply_along_axis refuses it)."""
import numpy as np


def _softmax_1d(row):
    shifted = row - row.max()
    e = np.exp(shifted)
    return e / e.sum()


def softmax(x, axis=-1):
    arr = np.array(x, dtype=np.float64, copy=True)
    if arr.ndim < 1:
        raise ValueError("expected an array, got a scalar")
    if not isinstance(axis, (int, np.integer)) or not (-arr.ndim <= axis < arr.ndim):
        raise ValueError(f"bad axis {axis!r} for {arr.ndim}-D input")
    if arr.shape[axis] == 0:
        raise ValueError("cannot normalise an empty axis")
    if np.isnan(arr).any():
        raise ValueError("NaN in input")
    if np.isposinf(arr).any():
        raise ValueError("+inf in input")
    if np.all(np.isneginf(arr), axis=axis).any():
        raise ValueError("some slice has no finite logit")
    if arr.size == 0:  # empty along another axis: apply_along_axis refuses it, the answer is empty
        return arr
    return np.apply_along_axis(_softmax_1d, axis, arr)
