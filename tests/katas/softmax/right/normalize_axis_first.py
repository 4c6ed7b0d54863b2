"""Normalises the axis with NumPy's own helper (whose AxisError is a ValueError) and uses
np.where to zero masked entries explicitly."""
import numpy as np

try:
    from numpy.lib.array_utils import normalize_axis_index
except ImportError:  # NumPy < 2
    from numpy.core.multiarray import normalize_axis_index


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=np.float64)
    if x.ndim == 0:
        raise ValueError("softmax of a scalar is undefined")
    axis = normalize_axis_index(axis, x.ndim)
    if x.shape[axis] == 0:
        raise ValueError("empty axis")
    if not np.all(np.isfinite(x) | np.isneginf(x)):
        raise ValueError("only finite values and -inf are allowed")
    masked = np.isneginf(x)
    if masked.all(axis=axis).any():
        raise ValueError("a slice has no finite entry")
    finite = np.where(masked, -np.finfo(np.float64).max, x)
    e = np.exp(finite - finite.max(axis=axis, keepdims=True))
    e = np.where(masked, 0.0, e)
    return e / e.sum(axis=axis, keepdims=True)
