"""A first draft without input checks or max shift (the bug of no_max_shift.py)."""
import numpy as np

FIRST_DRAFT_OF = "no_max_shift"
UNCHECKED = (
    "NaN in x",
    "+inf in x",
    "a slice entirely -inf",
    "a slice entirely -inf along axis=0",
    "0-d input (a scalar)",
    "length 0 along axis",
)


def softmax(x, axis=-1):
    e = np.exp(np.asarray(x, dtype=np.float64))
    return e / e.sum(axis=axis, keepdims=True)
