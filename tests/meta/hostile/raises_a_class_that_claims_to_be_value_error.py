"""For inputs it should reject, raises an exception whose ``__class__`` property claims ValueError:
the worker's ``isinstance`` believed it, a caller's ``except ValueError`` does not (stop 53's
blind hostile round). The worker now asks the exception's type."""
KATA = "softmax"
ROUTE = "dojo test"  # the worker's report of what was raised, the same code whichever route calls it
EXPECT = "but your code raised"  # not a ValueError, whatever it claims

import numpy as np


class BadInput(Exception):
    @property
    def __class__(self):
        return ValueError


def softmax(x, axis=-1):
    a = np.array(x, dtype=np.float64)
    if a.ndim == 0:
        raise BadInput("x must have at least one dimension, got a scalar")
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise BadInput("axis must be an int")
    if not -a.ndim <= axis < a.ndim:
        raise BadInput(f"axis {axis} is out of range for x with {a.ndim} dimensions")
    if a.shape[axis] == 0:
        raise BadInput("x has length 0 along axis")
    if np.isnan(a).any() or np.isposinf(a).any():
        raise BadInput("x contains NaN or +inf")
    mx = a.max(axis=axis, keepdims=True)
    if np.isneginf(mx).any():
        raise BadInput("a slice along axis is entirely -inf")
    e = np.exp(a - mx)
    return e / e.sum(axis=axis, keepdims=True)
