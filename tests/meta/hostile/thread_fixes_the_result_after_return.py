
"""Returns zeros and leaves a thread that writes the right values into the returned array half a
second later: the judge has the values as they were sent, when the call returned."""
import threading
import time

import numpy as np

KATA = "softmax"
ROUTE = "dojo test"  # an attack on the worker, contained by the same code whichever route calls it
EXPECT = "is wrong"  # the verdict must say this


def _fix_later(out, right):
    time.sleep(0.5)
    out[...] = right


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
    out = np.zeros_like(right)
    threading.Thread(target=_fix_later, args=(out, right), daemon=True).start()
    return out
