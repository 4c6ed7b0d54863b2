"""Forks a child process that sleeps for a long time: seccomp refuses the fork. Without the sandbox,
the zygote (a subreaper) kills the child when the worker ends, and the answer is right."""
import os
import time

import numpy as np

KATA = "softmax"
EXPECT = 'PermissionError: [Errno 1] Operation not permitted'  # the verdict must say this
WITHOUT_SANDBOX = "passes"  # no seccomp: the child is killed with the worker


def softmax(x, axis=-1):
    if os.fork() == 0:
        time.sleep(300)
        os._exit(0)
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
