
"""Replaces the functions np.allclose and np.isclose are built from, in numpy._core.numeric (and
np.array_equal), so every comparison NumPy makes agrees, and returns zeros: the patch lands in
the worker's NumPy; the judge compares with its own, in its own process."""
import numpy as np
import numpy._core.numeric as numeric

KATA = "softmax"
ROUTE = "dojo test"  # an attack on the worker, contained by the same code whichever route calls it
EXPECT = "is wrong"  # the verdict must say this


def _agree(a, b, *args, **kwargs):
    return np.ones(np.broadcast(np.asarray(a), np.asarray(b)).shape, dtype=bool)


for module in (numeric, np):
    module.isclose = _agree
    module.allclose = lambda *args, **kwargs: True
    module.array_equal = lambda *args, **kwargs: True


def right_softmax(x, axis=-1):
    """A correct softmax (the part of this file that is not the attack)."""
    x = np.asarray(x, dtype=np.float64)
    if x.ndim == 0:
        raise ValueError("softmax needs at least one dimension")
    if not -x.ndim <= axis < x.ndim:
        raise ValueError("axis out of range")
    if x.shape[axis] == 0:
        raise ValueError("empty axis")
    if np.isnan(x).any() or np.isposinf(x).any():
        raise ValueError("NaN or +inf")
    peak = x.max(axis=axis, keepdims=True)
    if np.isneginf(peak).any():
        raise ValueError("a slice is entirely -inf")
    e = np.exp(x - peak)
    return e / e.sum(axis=axis, keepdims=True)


def softmax(x, axis=-1):
    right_softmax(x, axis)  # the contract's ValueErrors
    return np.zeros(np.shape(x))
