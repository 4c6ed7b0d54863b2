"""The contract of softmax, written out again apart from its solution's docstring
(solutions/softmax.py): ``check(call)`` raises ``Broken`` when one call drawn by its judge's
strategies breaks it (tests/meta/test_strategies.py draws them)."""

from __future__ import annotations

import numbers

import numpy as np

from tests.meta.validity import need


def check(call) -> None:
    x = np.asarray(call["x"], dtype=np.float64)
    need(x.ndim >= 1, "x is 0-d")
    axis = call.get("axis", -1)
    need(isinstance(axis, numbers.Integral) and not isinstance(axis, bool) and -x.ndim <= axis < x.ndim,
         f"axis = {axis!r} is not an axis of a {x.ndim}-D x")
    need(x.shape[axis] >= 1, f"x has length 0 along axis {axis}")
    need(not np.isnan(x).any() and not np.isposinf(x).any(), "x contains NaN or +inf")
    need(np.isfinite(x).any(axis=axis).all(), f"a slice of x along axis {axis} is entirely -inf")
