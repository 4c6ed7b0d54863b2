"""The contract of flash_attention, written out again apart from its solution's docstring
(solutions/flash_attention.py): ``check(call)`` raises ``Broken`` when one call drawn by its judge's
strategies breaks it (tests/meta/test_strategies.py draws them)."""

from __future__ import annotations

from tests.meta.validity import a_bool, a_positive_int, q_k_v


def check(call) -> None:
    a_positive_int(call["block_size"], "block_size")
    causal = a_bool(call.get("causal", False), "causal")
    q_k_v(call, causal_cache=causal)
