
"""Starts a thread at import that keeps putting back its own np.allclose, np.isclose and
np.array_equal (every comparison agrees), and returns zeros: the thread lives in the worker, the
judge compares in its own process."""
import threading
import time

import numpy as np

KATA = "softmax"
ROUTE = "dojo test"  # an attack on the worker, contained by the same code whichever route calls it
EXPECT = "is wrong"  # the verdict must say this


def _keep_patching():
    while True:
        np.allclose = lambda *args, **kwargs: True
        np.isclose = lambda a, b, **kwargs: np.ones(np.broadcast(a, b).shape, dtype=bool)
        np.array_equal = lambda *args, **kwargs: True
        time.sleep(0.001)


threading.Thread(target=_keep_patching, daemon=True).start()


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
    return np.zeros(np.shape(x))
