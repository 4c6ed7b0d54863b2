
"""Returns zeros as an ndarray subclass that lies: it compares equal to anything, and its
__array__, __repr__ and __str__ show the right answer. Only its data travels to the judge, as a
plain array: zeros."""
import numpy as np

KATA = "softmax"
ROUTE = "dojo test"  # an attack on the worker, contained by the same code whichever route calls it
EXPECT = "is wrong"  # the verdict must say this


class Answer(np.ndarray):
    right = None

    def __array_finalize__(self, obj):
        self.right = getattr(obj, "right", None)

    def __array__(self, dtype=None, copy=None):
        return self.right

    def __eq__(self, other):
        return np.ones(self.shape, dtype=bool)

    def __ne__(self, other):
        return np.zeros(self.shape, dtype=bool)

    def __repr__(self):
        return repr(self.right)

    __str__ = __repr__


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
    right = right_softmax(x, axis)
    out = np.zeros_like(right).view(Answer)
    out.right = right
    return out
