"""The contract of alibi_attention, written out again apart from its solution's docstring
(solutions/alibi_attention.py): ``check(call)`` raises ``Broken`` when one call drawn by its judge's
strategies breaks it (tests/meta/test_strategies.py draws them)."""

from __future__ import annotations

from tests.meta.validity import finite_array, finite_scores, need, scores, shaped


def check(call) -> None:
    q, k, v = (finite_array(call, name, 3) for name in ("q", "k", "v"))
    (h, n, d_k), (m, d_v) = q.shape, v.shape[1:]
    shaped(k, "k", (h, m, d_k))
    shaped(v, "v", (h, m, d_v))
    need(m >= n, f"m = {m} keys < n = {n} queries")
    finite_scores(scores(q, k))  # the bias is at most 1 x m here: it cannot make a score overflow
