
"""Replaces json.dumps, which the worker writes its answers with, by one that forges "this file
cannot be loaded" with a state of its choosing ("passed") and no message: the judge checks what
a worker says before it shows it."""
import json

import numpy as np

KATA = "softmax"
EXPECT = "sent a malformed answer"  # the verdict must say this

# a well-formed frame header (dojo/worker/wire.py) whose message is the forgery
json.dumps = lambda *args, **kwargs: '{"m": {"status": "cannot-load", "state": "passed"}, "v": {}, "b": []}'


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
    return right_softmax(x, axis)
