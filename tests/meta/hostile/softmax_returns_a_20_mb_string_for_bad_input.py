"""For inputs it should reject, returns a 20 MB string: the verdict printed all of it, 22 MB
(stop 53's hostile round; what the code prints was capped, what it returns was not). It is now
cut after 300 characters."""
KATA = "softmax"
EXPECT = "more characters)"  # what the verdict must say

import numpy as np


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=np.float64)
    bad = (x.ndim == 0 or not -x.ndim <= axis < x.ndim or x.shape[axis] == 0
           or np.isnan(x).any() or np.isposinf(x).any())
    if bad or np.isneginf(x.max(axis=axis, keepdims=True)).any():
        return "bad input! " * 2_000_000
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)
