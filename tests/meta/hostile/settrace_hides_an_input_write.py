
"""Writes into its input, and installs a trace function that rewrites the worker's local variable
`mutated` (the inputs the call changed) to an empty list before the worker answers. The judge
finds the write itself: the array lives in memory it reads back after the call
(dojo/worker/shared_inputs.py), and the worker's report on arrays is not read."""
import sys

import numpy as np

KATA = "softmax"
EXPECT = "modified its input `x` in place"  # the verdict must say this


def _trace(frame, event, arg):
    if frame.f_code.co_name != "_call" or "zygote" not in frame.f_code.co_filename:
        return None

    def rewrite(frame, event, arg):
        if "mutated" in frame.f_locals:
            frame.f_locals["mutated"] = []  # written back to the frame when the tracer returns
        return rewrite

    return rewrite


sys.settrace(_trace)


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
    out = right_softmax(x, axis)
    if isinstance(x, np.ndarray) and x.dtype == np.float64:
        x[...] = 0.0  # the caller's array, as the caller would see it
    return out
