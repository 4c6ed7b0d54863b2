"""The contract of sliding_window_attention, written out again apart from its solution's docstring
(solutions/sliding_window_attention.py): ``check(call)`` raises ``Broken`` when one call drawn by its judge's
strategies breaks it (tests/meta/test_strategies.py draws them)."""

from __future__ import annotations

import numbers

import numpy as np

from tests.meta.validity import a_positive_int, need, q_k_v


def check(call) -> None:
    a_positive_int(call["window"], "window")
    sinks = call.get("num_sinks", 0)
    need(isinstance(sinks, numbers.Integral) and not isinstance(sinks, (bool, np.bool_)) and sinks >= 0,
         f"num_sinks = {sinks!r} is not an int >= 0")
    q_k_v(call, causal_cache=True)
