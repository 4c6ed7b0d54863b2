"""The contract of kv_cache_attention, written out again apart from its solution's docstring
(solutions/kv_cache_attention.py): ``check(call)`` raises ``Broken`` when one call drawn by its judge's
strategies breaks it (tests/meta/test_strategies.py draws them)."""

from __future__ import annotations

from tests.meta.validity import q_k_v


def check(call) -> None:
    q_k_v(call, causal_cache=True)
