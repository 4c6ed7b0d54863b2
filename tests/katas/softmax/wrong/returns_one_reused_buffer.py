"""Saves an allocation per call: one output buffer per shape, kept at module level and filled
again by every call, is what it returns. Each result is right when it is returned; the next call
of the same shape overwrites the one a caller kept."""
import numpy as np

#: Each call's values are right, taken alone: the diagnosis, which replays calls one by one, has
#: nothing to compare.
SHOWS_IN_VALUES = False
#: `dojo compare`'s battery calls it once per case: no single call shows the bug.
ONE_CALL_CANNOT_SHOW = "a later call writes into the result of an earlier one"

_OUT = {}


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=np.float64)
    if x.ndim == 0 or not -x.ndim <= axis < x.ndim or x.shape[axis] == 0:
        raise ValueError("bad shape or axis")
    if np.isnan(x).any() or np.isposinf(x).any():
        raise ValueError("NaN or +inf")
    if np.isneginf(x).all(axis=axis).any():
        raise ValueError("a slice is all -inf")
    out = _OUT.setdefault(x.shape, np.empty(x.shape))
    np.exp(x - x.max(axis=axis, keepdims=True), out=out)
    out /= out.sum(axis=axis, keepdims=True)
    return out
