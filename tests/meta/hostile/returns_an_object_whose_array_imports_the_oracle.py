
"""Returns an object that claims to be an ndarray (its __class__ says so) and whose __array__
imports the judge's oracle to make the answer. Only values travel to the judge, and they are
made in the worker, where the oracle cannot be imported: the object arrives as what it is."""
import numpy as np

KATA = "softmax"
EXPECT = "should be a NumPy array, got Answer"  # the verdict must say this


class Answer:
    def __init__(self, x, axis):
        self.x, self.axis = x, axis

    @property
    def __class__(self):
        return np.ndarray

    def __array__(self, dtype=None, copy=None):
        from tests import oracle

        return oracle.softmax(np.asarray(self.x, dtype=np.float64), axis=self.axis)


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
    right_softmax(x, axis)
    return Answer(x, axis)
