"""Forks twice (a daemon: the middle process exits, the grandchild leaves the session and
sleeps) and answers. seccomp refuses the fork; without the sandbox the orphan is reparented to
the zygote, a subreaper, which kills it."""
import os
import time

import numpy as np

KATA = "softmax"
EXPECT = "PermissionError: [Errno 1] Operation not permitted"  # the verdict must say this
WITHOUT_SANDBOX = "passes"  # the daemon is killed by the zygote: nothing is left behind


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
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            time.sleep(300)
        os._exit(0)
    return right_softmax(x, axis)
