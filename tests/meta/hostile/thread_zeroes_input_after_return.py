"""A softmax that is right, then zeroes its input from a background thread 50 ms after it has
returned (the caller's x is wrong by the time the caller looks again): the judge read the
shared memory as the answer arrived, before the thread wrote, and plain pytest passed. Each
answer now also reads again the inputs of the last 8 calls (dojo/worker/workers.py), and a
write found late is reported after every later call of that worker."""
KATA = "softmax"
EXPECT = "modified its input `x` in place"  # the verdict must say this

import threading
import time

import numpy as np

_kept = []


def _later(x):
    time.sleep(0.05)
    try:
        x[...] = 0
    except (ValueError, TypeError):
        pass


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
    out = e / e.sum(axis=axis, keepdims=True)
    if isinstance(x, np.ndarray) and x.flags.writeable:
        _kept.append(x)  # a view kept past the call
        threading.Thread(target=_later, args=(x,), daemon=True).start()
    return out
