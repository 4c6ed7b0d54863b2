"""Replaces np.allclose, np.isclose and np.testing's checks so that every comparison agrees, and
returns nonsense: the judge compares with its own NumPy, in its own process."""
import numpy as np

KATA = "softmax"
ROUTE = "dojo test"  # an attack on the worker, contained by the same code whichever route calls it
EXPECT = 'is wrong'  # the verdict must say this


def softmax(x, axis=-1):
    np.allclose = lambda *a, **k: True
    np.isclose = lambda a, b, **k: np.ones(np.broadcast(a, b).shape, dtype=bool)
    np.array_equal = lambda *a, **k: True
    np.testing.assert_allclose = np.testing.assert_array_equal = lambda *a, **k: None
    return np.zeros(np.shape(x))
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
