"""Cancels any alarm (the old in-process guard's SIGALRM), then loops forever: the judge reads the
worker's CPU time from outside, so no signal of the worker's own can stop the limit."""
import signal

import numpy as np

KATA = "softmax"
ROUTE = "dojo test"  # an attack on the worker, contained by the same code whichever route calls it
EXPECT = 'was still computing after 2 s of CPU time'  # the verdict must say this


def softmax(x, axis=-1):
    if np.size(x) > 4:
        signal.setitimer(signal.ITIMER_REAL, 0)
        while True:
            pass
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
