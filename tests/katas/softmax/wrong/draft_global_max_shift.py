"""A first draft without input checks that shifts by the global max (the bug of global_max_shift.py)."""
import numpy as np

FIRST_DRAFT_OF = "global_max_shift"
UNCHECKED = (
    "NaN in x",
    "+inf in x",
    "a slice entirely -inf",
    "a slice entirely -inf along axis=0",
    "0-d input (a scalar)",
)


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=np.float64)
    e = np.exp(x - x.max())
    return e / e.sum(axis=axis, keepdims=True)
