"""A softmax with a cold-cache bug: the first time it sees an input of more than four entries it
halves the answer, asked again it is right. The judge asks again (Hypothesis replays a failing
input) and says the answer depends on something besides the input."""
import numpy as np

KATA = "softmax"
ROUTE = "dojo test"  # an attack on the worker, contained by the same code whichever route calls it
EXPECT = "gave different results for the same input"  # the verdict must say this

_seen = set()


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
    key = (np.asarray(x, dtype=np.float64).tobytes(), np.shape(x), axis)
    if np.size(x) > 4 and key not in _seen:
        _seen.add(key)
        return out / 2
    return out
