import numpy as np


def relu(x):
    """The rectified linear unit of ``x``, entry by entry.

    Contract
    --------
    x : array-like of any shape with at least one dimension; computed in float64.

    Returns a new float64 array with x's shape: each entry is max(x, 0). ``x`` itself is never
    modified.

    Raises ValueError (a subclass is fine), with a message a person can act on, when:
    - x contains NaN or inf anywhere;
    - x is 0-d (a scalar).

    NumPy only: do not import torch, jax, tensorflow, scipy or sklearn.
    """
    x = np.asarray(x, dtype=np.float64)
    if x.ndim == 0:
        raise ValueError("x is a scalar; pass an array with at least one dimension")
    if not np.isfinite(x).all():
        raise ValueError("x contains NaN or inf")
    return np.maximum(x, 0.0)
