"""The contract of masked_attention, written out again apart from its solution's docstring
(solutions/masked_attention.py): ``check(call)`` raises ``Broken`` when one call drawn by its judge's
strategies breaks it (tests/meta/test_strategies.py draws them)."""

from __future__ import annotations

from tests.meta.validity import bool_mask, need, q_k_v


def check(call) -> None:
    q, k, v = q_k_v(call)
    if call.get("mask") is not None:
        mask = bool_mask(call["mask"], (q.shape[0], k.shape[0]), "mask")
        need(mask.any(axis=1).all(), "a query row of mask has no allowed key")
