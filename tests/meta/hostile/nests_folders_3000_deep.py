"""A correct softmax that, when imported, nests 3000 folders in its own temporary folder (the one
place it may write): Python 3.11's rmtree recurses once per level and raised RecursionError in
the judge, left the folder, and broke the next run's sweep. The judge removes a folder without
recursion or long paths (dojo/worker/worker_folders.py), and nothing is left."""
import os

import numpy as np

KATA = "softmax"
ROUTE = "dojo test"  # an attack on the worker, contained by the same code whichever route calls it
EXPECT = "All "  # the verdict must say this
PASSES = True  # a correct answer: it must pass

try:
    _here = os.open(".", os.O_RDONLY)
    for _ in range(3000):
        os.mkdir("d", dir_fd=_here)
        _next = os.open("d", os.O_RDONLY, dir_fd=_here)
        os.close(_here)
        _here = _next
    os.close(_here)
except OSError:
    pass


def softmax(x, axis=-1):
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
