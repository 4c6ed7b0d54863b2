"""A correct softmax whose module sets np.seterr(all='raise'): the worker's own machinery (envelopes,
the input check) and the judge's arithmetic must not care. Its own exp() and division underflow on purpose
(exp(-3e4) is 0), so it says so with np.errstate: without that, its own code would raise
FloatingPointError, as it would anywhere."""
import numpy as np

KATA = "softmax"
ROUTE = "dojo test"  # an attack on the worker, contained by the same code whichever route calls it
EXPECT = 'All '  # the verdict must say this
PASSES = True  # a correct answer: it must pass

np.seterr(all='raise')


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
    with np.errstate(under="ignore"):  # exp and the division both underflow to 0 for far-apart logits
        e = np.exp(x - peak)
        return e / e.sum(axis=axis, keepdims=True)
