"""Counts the descriptors its process holds (os.fstat on every number up to 4096: no file is
read, so the sandbox has nothing to refuse) and returns a wrong answer (half the softmax) when
it holds any besides its standard streams and its own channel to the judge: another judge's
connection to the zygote, the zygote's listening socket, a memory file of an earlier call. A
worker must hold nothing else, so this file is correct."""
import os

import numpy as np

KATA = "softmax"
ROUTE = "dojo test"  # an attack on the worker, contained by the same code whichever route calls it
EXPECT = "All "  # the verdict must say this
PASSES = True  # a correct answer: it must pass


def _held() -> list[int]:
    held = []
    for fd in range(3, 4096):
        try:
            os.fstat(fd)
        except OSError:
            continue
        held.append(fd)
    return held


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
    out = e / e.sum(axis=axis, keepdims=True)
    return out if len(_held()) <= 1 else out / 2  # one: the channel
