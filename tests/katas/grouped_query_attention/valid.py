"""The contract of grouped_query_attention, written out again apart from its solution's docstring
(solutions/grouped_query_attention.py): ``check(call)`` raises ``Broken`` when one call drawn by its judge's
strategies breaks it (tests/meta/test_strategies.py draws them)."""

from __future__ import annotations

import numpy as np

from tests.meta.validity import a_bool, a_positive_int, finite_array, finite_scores, heads, need, scores


def check(call) -> None:
    h = a_positive_int(call["num_heads"], "num_heads")
    h_kv = a_positive_int(call["num_kv_heads"], "num_kv_heads")
    need(h % h_kv == 0, f"num_kv_heads = {h_kv} does not divide num_heads = {h}")
    a_bool(call.get("causal", False), "causal")
    x, w_q, w_k, w_v, w_o = (finite_array(call, name, 2) for name in ("x", "w_q", "w_k", "w_v", "w_o"))
    d_model = x.shape[1]
    for name, w in (("w_q", w_q), ("w_k", w_k), ("w_v", w_v)):
        need(w.shape[0] == d_model, f"{name} has {w.shape[0]} rows, not d_model = {d_model}")
    need(w_q.shape[1] % h == 0, f"w_q's width {w_q.shape[1]} is not divisible by num_heads = {h}")
    d_k = w_q.shape[1] // h
    need(w_k.shape[1] == h_kv * d_k, f"w_k's width {w_k.shape[1]} is not num_kv_heads * d_k = {h_kv * d_k}")
    need(w_v.shape[1] % h_kv == 0, f"w_v's width {w_v.shape[1]} is not divisible by num_kv_heads = {h_kv}")
    need(w_o.shape[0] == h * (w_v.shape[1] // h_kv), f"w_o has {w_o.shape[0]} rows, not num_heads * d_v")
    k = np.repeat(heads(x, w_k, h_kv), h // h_kv, axis=0)  # query head j uses kv head j // g
    finite_scores(scores(heads(x, w_q, h), k), "a query head's Q_h K_{h // g}ᵀ / sqrt(d_k)")
