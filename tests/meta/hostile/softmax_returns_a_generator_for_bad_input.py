"""A right softmax that, for inputs it should reject, returns a generator instead of raising
ValueError (an honest bug: "validate lazily"). The message put the generator in as it was, the
run's JSON record could not hold it, and the verdict was "the judge did not finish" with the
judge's own TypeError (stop 53's hostile round): now its repr is shown."""
KATA = "softmax"
ROUTE = "dojo test"  # the run's record (its JSON) is what broke, written the same way in both routes
EXPECT = "your code returned a result:\n    <generator object"  # what the verdict must say

import numpy as np


def _checked(x, axis):
    if x.ndim == 0 or not -x.ndim <= axis < x.ndim or x.shape[axis] == 0:
        return False
    if np.isnan(x).any() or np.isposinf(x).any():
        return False
    return not np.isneginf(x.max(axis=axis, keepdims=True)).any()


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=np.float64)
    if not _checked(x, axis):
        return (ValueError("bad input") for _ in range(1))  # a lazy error, never raised
    peak = x.max(axis=axis, keepdims=True)
    e = np.exp(x - peak)
    return e / e.sum(axis=axis, keepdims=True)
