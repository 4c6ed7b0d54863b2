"""The contract of causal_self_attention, written out again apart from its solution's docstring
(solutions/causal_self_attention.py): ``check(call)`` raises ``Broken`` when one call drawn by its judge's
strategies breaks it (tests/meta/test_strategies.py draws them)."""

from __future__ import annotations

from tests.meta.validity import finite_array, finite_scores, need, scores, shaped


def check(call) -> None:
    x, w_q, w_k, w_v = (finite_array(call, name, 2) for name in ("x", "w_q", "w_k", "w_v"))
    d_model = x.shape[1]
    for name, w in (("w_q", w_q), ("w_k", w_k), ("w_v", w_v)):
        need(w.shape[0] == d_model, f"{name} has {w.shape[0]} rows, not d_model = {d_model}")
    shaped(w_k, "w_k", w_q.shape)
    finite_scores(scores(x @ w_q, x @ w_k), "(x w_q)(x w_k)ᵀ / sqrt(d_k)")
