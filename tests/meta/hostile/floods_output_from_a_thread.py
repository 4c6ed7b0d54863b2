"""A right softmax whose import starts a thread that writes to its standard output without
pause (debug logging left on in a loop): the judge must keep reading and capping it, and still
watch the worker's CPU time, never spin on the pipe."""
KATA = "softmax"
PASSES = True  # a right answer: its output is capped, its verdict unharmed

import os
import threading

import numpy as np


def _flood():
    chunk = b"debug: still here\n" * 3641  # 64 KiB
    while True:
        try:
            os.write(1, chunk)
        except OSError:
            return


threading.Thread(target=_flood, daemon=True).start()


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
    e = np.exp(a - peak)
    return e / e.sum(axis=axis, keepdims=True)
