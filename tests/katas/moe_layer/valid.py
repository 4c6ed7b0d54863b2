"""The contract of moe_layer, written out again apart from its solution's docstring
(solutions/moe_layer.py): ``check(call)`` raises ``Broken`` when one call drawn by its judge's
strategies breaks it, the cases it leaves open included (tests/meta/test_strategies.py draws them)."""

from __future__ import annotations

import numbers

import numpy as np

from tests.meta.validity import finite_array, need, shaped


def check(call) -> None:
    x = finite_array(call, "x", 2)
    w_router = finite_array(call, "w_router", 2)
    w1 = finite_array(call, "w1", 3)
    w2 = finite_array(call, "w2", 3)
    n, d_model = x.shape
    E, d_ff = w_router.shape[1], w1.shape[2]
    shaped(w_router, "w_router", (d_model, E))
    shaped(w1, "w1", (E, d_model, d_ff))
    shaped(w2, "w2", (E, d_ff, d_model))
    top_k = call["top_k"]
    need(isinstance(top_k, numbers.Integral) and not isinstance(top_k, (bool, np.bool_)) and 1 <= top_k <= E,
         f"top_k = {top_k!r} is not an int in [1, {E}]")
    with np.errstate(over="ignore", invalid="ignore"):
        logits = x @ w_router
    need(np.isfinite(logits).all(), "a router logit overflows")
    ordered = -np.sort(-logits, axis=1)  # each token's logits, largest first
    if top_k < E:  # the boundary: equal, or clearly apart (within 1e-9 relative is left open)
        last, next_ = ordered[:, top_k - 1], ordered[:, top_k]
        gap = np.abs(last - next_)
        need(((gap == 0) | (gap > 1e-9 * np.maximum(np.abs(last), np.abs(next_)))).all(),
             "logits within 1e-9 of a tie at the top_k boundary but not equal (left open)")
    need((ordered[:, 0] - ordered[:, top_k - 1] < 700).all(),
         "a chosen expert 700 or more below its token's best logit (left open)")
    # each chosen expert's out on its token: finite (an unchosen one's out is not part of out_i,
    # and may overflow)
    chosen = np.argsort(-logits, axis=1, kind="stable")[:, :top_k]
    with np.errstate(over="ignore", invalid="ignore"):
        hidden = np.maximum(np.einsum("nd,edf->enf", x, w1), 0.0)
        experts = np.einsum("enf,efd->end", hidden, w2)
    picked = experts[chosen, np.arange(n)[:, None]]  # (n, top_k, d_model)
    need(np.isfinite(picked).all(), "a chosen expert's out is not finite (the call is invalid or left open)")
