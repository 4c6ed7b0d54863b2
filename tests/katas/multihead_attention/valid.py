"""The contract of multihead_attention, written out again apart from its solution's docstring
(solutions/multihead_attention.py): ``check(call)`` raises ``Broken`` when one call drawn by its judge's
strategies breaks it (tests/meta/test_strategies.py draws them)."""

from __future__ import annotations

from tests.meta.validity import a_bool, a_positive_int, finite_array, finite_scores, heads, need, scores, shaped


def check(call) -> None:
    h = a_positive_int(call["num_heads"], "num_heads")
    a_bool(call.get("causal", False), "causal")
    x, w_q, w_k, w_v, w_o = (finite_array(call, name, 2) for name in ("x", "w_q", "w_k", "w_v", "w_o"))
    d_model = x.shape[1]
    for name, w in (("w_q", w_q), ("w_k", w_k), ("w_v", w_v)):
        need(w.shape[0] == d_model, f"{name} has {w.shape[0]} rows, not d_model = {d_model}")
        need(w.shape[1] % h == 0, f"{name}'s width {w.shape[1]} is not divisible by num_heads = {h}")
    shaped(w_k, "w_k", w_q.shape)
    need(w_o.shape[0] == w_v.shape[1], f"w_o has {w_o.shape[0]} rows, not num_heads * d_v = {w_v.shape[1]}")
    finite_scores(scores(heads(x, w_q, h), heads(x, w_k, h)), "a head's Q_h K_hᵀ / sqrt(d_k)")
