"""The contract of linear_attention, written out again apart from its solution's docstring
(solutions/linear_attention.py): ``check(call)`` raises ``Broken`` when one call drawn by its judge's
strategies breaks it (tests/meta/test_strategies.py draws them)."""

from __future__ import annotations

import numpy as np

from tests.meta.validity import a_bool, finite_array, need, shaped


def check(call) -> None:
    causal = a_bool(call.get("causal", False), "causal")
    q, k, v = (finite_array(call, name, 2) for name in ("q", "k", "v"))
    (n, d_k), (m, d_v) = q.shape, v.shape
    shaped(k, "k", (m, d_k))
    if causal:
        need(m >= n, f"m = {m} keys < n = {n} queries")
    need(((q >= -300) & (q <= 1e100)).all() and ((k >= -300) & (k <= 1e100)).all(),
         "an entry of q or k is outside [-300, 1e100]")
    need((np.abs(v) <= 1e100).all(), "an entry of v is larger than 1e100")
