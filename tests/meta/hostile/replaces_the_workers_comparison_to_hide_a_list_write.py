"""A right softmax that, given x as a list, empties it after computing (x.clear()), and hides the
write by replacing the worker's comparison: ``sys.modules["dojo.worker.zygote_child"]._same =
lambda a, b: True``, at import. A list argument lives only in the worker, which compares it
with a copy from before the call (a fourth hostile round, stop 51: it passed). The worker's
comparison, and the copy it compares with, are bound when the worker's own module is imported,
before any kata file runs, and its recursion goes through a closure: replacing the module's
names changes nothing. (Code that reaches the worker's frames or function objects still can:
``hides_a_list_write_through_the_workers_frame``.)"""
KATA = "softmax"
ROUTE = "dojo test"  # an attack on the worker, contained by the same code whichever route calls it
EXPECT = "modified its input `x` in place"  # the verdict must say this

import sys

import numpy as np

_worker = sys.modules.get("dojo.worker.zygote_child")
if _worker is not None:
    _worker._same = lambda a, b: True


def softmax(x, axis=-1):
    given = x
    x = np.asarray(x, dtype=np.float64)
    if x.ndim == 0:
        raise ValueError("softmax needs at least one dimension")
    if not -x.ndim <= axis < x.ndim:
        raise ValueError("axis out of range")
    if x.shape[axis] == 0:
        raise ValueError("empty axis")
    if np.isnan(x).any() or np.isposinf(x).any():
        raise ValueError("NaN or +inf in x")
    peak = x.max(axis=axis, keepdims=True)
    if np.isneginf(peak).any():
        raise ValueError("a slice is entirely -inf")
    e = np.exp(x - peak)
    out = e / e.sum(axis=axis, keepdims=True)
    if isinstance(given, list):
        given.clear()  # the input write the contract forbids
    return out
