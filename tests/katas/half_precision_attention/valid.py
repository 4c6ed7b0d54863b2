"""The contract of half_precision_attention, written out again apart from its solution's docstring
(solutions/half_precision_attention.py): ``check(call)`` raises ``Broken`` when one call drawn by its judge's
strategies breaks it (tests/meta/test_strategies.py draws them)."""

from __future__ import annotations

import numpy as np

from tests.meta.validity import need, q_k_v


def check(call) -> None:
    for name in ("q", "k", "v"):
        need(type(call[name]) is np.ndarray and call[name].dtype == np.float16,
             f"{name} is not a NumPy array of dtype float16")
    q_k_v(call)  # float16 values: q·k cannot overflow float64
