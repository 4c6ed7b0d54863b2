"""A softmax that, on inputs with more than 20 entries, sends itself SIGSTOP halfway (a debug
breakpoint left in: "attach a debugger here"): stopped, it neither computes nor sleeps as
/proc shows it (state T); the judge must end the wait, not hang."""
KATA = "softmax"
ROUTE = "dojo test"  # an attack on the worker, contained by the same code whichever route calls it
EXPECT = "without using the CPU"  # the verdict must say this

import os
import signal

import numpy as np


def softmax(x, axis=-1):
    a = np.asarray(x, dtype=np.float64)
    if a.ndim == 0:
        raise ValueError("scalar")
    if not -a.ndim <= axis < a.ndim:
        raise ValueError("axis out of range")
    if a.shape[axis] == 0:
        raise ValueError("empty axis")
    if np.isnan(a).any() or np.isposinf(a).any():
        raise ValueError("NaN or +inf")
    peak = a.max(axis=axis, keepdims=True)
    if np.isneginf(peak).any():
        raise ValueError("a slice is all -inf")
    if a.size > 20:
        os.kill(os.getpid(), signal.SIGSTOP)
    e = np.exp(a - peak)
    return e / e.sum(axis=axis, keepdims=True)
