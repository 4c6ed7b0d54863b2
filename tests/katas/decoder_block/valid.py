"""The contract of decoder_block, written out again apart from its solution's docstring
(solutions/decoder_block.py): ``check(call)`` raises ``Broken`` when one call drawn by its judge's
strategies breaks it, the cases it leaves open included (tests/meta/test_strategies.py draws them)."""

from __future__ import annotations

import numpy as np

from tests.meta.validity import a_positive_int, finite_array, need, shaped


def check(call) -> None:
    h = a_positive_int(call["num_heads"], "num_heads")
    x = finite_array(call, "x", 2)
    n, d = x.shape
    w_q = finite_array(call, "w_q", 2)
    width = w_q.shape[1]
    need(width % h == 0, f"num_heads = {h} does not divide w_q's width {width}")
    d_head = width // h
    w_gate = finite_array(call, "w_gate", 2)
    d_ff = w_gate.shape[1]
    shapes = {"norm1": (d,), "norm2": (d,), "w_q": (d, width), "w_k": (d, width), "w_v": (d, width),
              "w_o": (width, d), "w_gate": (d, d_ff), "w_up": (d, d_ff), "w_down": (d_ff, d)}
    arrays = {}
    for name, shape in shapes.items():
        arrays[name] = finite_array(call, name, len(shape))
        shaped(arrays[name], name, shape)
    past_k, past_v = call.get("past_k"), call.get("past_v")
    need((past_k is None) == (past_v is None), "only one of past_k / past_v is given")
    p = 0
    if past_k is not None:
        past_k, past_v = np.asarray(past_k, dtype=np.float64), np.asarray(past_v, dtype=np.float64)
        need(past_k.ndim == 3 and past_v.ndim == 3, "a past is not 3-D")
        p = past_k.shape[1]
        shaped(past_k, "past_k", (h, p, d_head))
        shaped(past_v, "past_v", (h, p, d_head))
        need(np.isfinite(past_k).all() and np.isfinite(past_v).all(), "a past contains NaN or inf")

    with np.errstate(all="ignore"):
        def rms(a, w):
            return a / np.sqrt(np.mean(a * a, axis=-1, keepdims=True) + 1e-6) * w

        def heads(a):
            return a.reshape(n, h, d_head).transpose(1, 0, 2)

        xn = rms(x, arrays["norm1"])
        q, k, v = heads(xn @ w_q), heads(xn @ arrays["w_k"]), heads(xn @ arrays["w_v"])
        if past_k is not None:
            k, v = np.concatenate([past_k, k], axis=1), np.concatenate([past_v, v], axis=1)
        m = p + n
        scores = q @ k.transpose(0, 2, 1) / np.sqrt(d_head)
        allowed = np.arange(m)[None, :] <= p + np.arange(n)[:, None]
        need(np.isfinite(scores[:, allowed]).all(), "an allowed score overflows")
        need(np.isfinite(scores).all(), "a blocked score overflows (left open)")
        s = np.where(allowed, scores, -np.inf)
        w = np.exp(s - s.max(axis=-1, keepdims=True))
        w /= w.sum(axis=-1, keepdims=True)
        h1 = x + (w @ v).transpose(1, 0, 2).reshape(n, width) @ arrays["w_o"]
        hn = rms(h1, arrays["norm2"])
        g = hn @ w_gate
        out = h1 + (g / (1 + np.exp(-g)) * (hn @ arrays["w_up"])) @ arrays["w_down"]
    need(np.isfinite(out).all(), "out is not finite")
