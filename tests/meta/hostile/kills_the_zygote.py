"""Sends SIGKILL to its parent, the zygote that starts the judge's workers: the sandbox lets a
worker signal nothing but itself."""
import os
import signal

import numpy as np

KATA = "softmax"
EXPECT = "PermissionError: [Errno 1] Operation not permitted"  # the verdict must say this
NEEDS_SANDBOX = True  # without it the zygote dies, and every later call fails (not a pass)


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
    os.kill(os.getppid(), signal.SIGKILL)
    return right_softmax(x, axis)
