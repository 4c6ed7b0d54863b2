"""A right softmax that keeps a reference to every array it is given and, from its 40th call
on, zeroes the input of the call 30 calls before (no thread, no timer: the write happens inside
a later call, into an array the caller passed long ago). The judge read again only the last 8
calls' inputs after each answer, so this passed; older calls are now read again in turn
(dojo/worker/late_writes.py)."""
KATA = "softmax"
ROUTE = "dojo test"  # an attack on the worker, contained by the same code whichever route calls it
EXPECT = "modified its input `x` in place"  # the verdict must say this

import numpy as np

_kept = []


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
        _kept.append(x)
        if len(_kept) > 30:
            old = _kept[-31]
            if old.size:
                old[...] = 0
    return out
