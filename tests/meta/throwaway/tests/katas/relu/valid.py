"""The contract of relu, written out again apart from its solution's docstring
(solutions/relu.py): ``check(call)`` raises ``Broken`` when one call drawn by its judge's
strategies breaks it (tests/meta/test_strategies.py draws them)."""

from __future__ import annotations

import numpy as np

from tests.meta.validity import need


def check(call) -> None:
    x = np.asarray(call["x"], dtype=np.float64)
    need(x.ndim >= 1, "x is 0-d")
    need(np.isfinite(x).all(), "x contains NaN or inf")
