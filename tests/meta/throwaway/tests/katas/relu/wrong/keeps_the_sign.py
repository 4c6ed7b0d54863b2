"""Returns |x| instead of max(x, 0): negative entries come back positive."""
import numpy as np


def relu(x):
    x = np.asarray(x, dtype=np.float64)
    if x.ndim == 0 or not np.isfinite(x).all():
        raise ValueError("bad x")
    return np.abs(x)
