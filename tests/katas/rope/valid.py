"""The contract of rope, written out again apart from its solution's docstring
(solutions/rope.py): ``check(call)`` raises ``Broken`` when one call drawn by its judge's
strategies breaks it (tests/meta/test_strategies.py draws them)."""

from __future__ import annotations

import numbers

import numpy as np

from tests.meta.validity import a_bool, finite_array, need, shaped


def check(call) -> None:
    x = finite_array(call, "x", 2)
    n, d = x.shape
    need(d % 2 == 0, f"x has an odd width d = {d}")
    positions = np.asarray(call["positions"])
    need(positions.dtype.kind in "iu", f"positions has dtype {positions.dtype}, not an integer dtype")
    shaped(positions, "positions", (n,))
    need((positions >= 0).all() and (positions <= 10**6).all(), f"a position is outside 0..10**6: {positions}")
    base = call.get("base", 10000.0)
    need(isinstance(base, numbers.Real) and not isinstance(base, bool) and np.isfinite(base) and base > 0,
         f"base = {base!r} is not a finite number > 0")
    a_bool(call.get("interleaved", False), "interleaved")
