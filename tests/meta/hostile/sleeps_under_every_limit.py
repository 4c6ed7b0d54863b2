"""A correct softmax that sleeps 4 s in every call: under the per-call limits (5 s idle in a row,
10 s asleep in all, 2 s of CPU), so no single call is stopped, and a few hundred calls would keep
the judge waiting for its whole deadline ("the judge itself did not finish: not your fault").
The kata's calls may sleep 10 s in all (dojo/worker/remote.py ASLEEP_BUDGET): the candidate's doing,
said within a minute on both routes."""
import time

import numpy as np

KATA = "softmax"
ROUTE = "dojo test"  # an attack on the worker, contained by the same code whichever route calls it
EXPECT = "asleep in its"  # the verdict must say this


def softmax(x, axis=-1):
    time.sleep(4)
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
