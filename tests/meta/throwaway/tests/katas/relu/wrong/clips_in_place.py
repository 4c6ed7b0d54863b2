"""Clips the caller's array in place (x[x < 0] = 0) and returns it."""
import numpy as np


def relu(x):
    if not isinstance(x, np.ndarray) or x.dtype != np.float64:
        x = np.asarray(x, dtype=np.float64)
    if x.ndim == 0 or not np.isfinite(x).all():
        raise ValueError("bad x")
    x[x < 0] = 0.0
    return x
