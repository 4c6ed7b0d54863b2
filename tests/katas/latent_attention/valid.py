"""The contract of latent_attention, written out again apart from its solution's docstring
(solutions/latent_attention.py): ``check(call)`` raises ``Broken`` when one call drawn by its judge's
strategies breaks it (tests/meta/test_strategies.py draws them)."""

from __future__ import annotations

import numpy as np

from tests.meta.validity import a_positive_int, finite_array, finite_scores, heads, need, scores, shaped


def check(call) -> None:
    h = a_positive_int(call["num_heads"], "num_heads")
    names = ("x", "w_dkv", "w_uk", "w_uv", "w_q", "w_qr", "w_kr", "w_o")
    x, w_dkv, w_uk, w_uv, w_q, w_qr, w_kr, w_o = (finite_array(call, name, 2) for name in names)
    n, d_model = x.shape
    d_c = w_dkv.shape[1]
    for name, w, rows in (("w_dkv", w_dkv, d_model), ("w_q", w_q, d_model), ("w_qr", w_qr, d_model),
                          ("w_kr", w_kr, d_model), ("w_uk", w_uk, d_c), ("w_uv", w_uv, d_c)):
        need(w.shape[0] == rows, f"{name} has {w.shape[0]} rows, not {rows}")
    for name, w in (("w_q", w_q), ("w_uv", w_uv), ("w_qr", w_qr)):
        need(w.shape[1] % h == 0, f"{name}'s width {w.shape[1]} is not divisible by num_heads = {h}")
    shaped(w_uk, "w_uk", (d_c, w_q.shape[1]))
    d_h, d_v, d_r = w_q.shape[1] // h, w_uv.shape[1] // h, w_qr.shape[1] // h
    shaped(w_kr, "w_kr", (d_model, d_r))
    need(d_r % 2 == 0, f"d_r = {d_r} is odd")
    shaped(w_o, "w_o", (h * d_v, d_model))
    positions = np.asarray(call["positions"])
    need(positions.dtype.kind in "iu", f"positions has dtype {positions.dtype}, not an integer dtype")
    shaped(positions, "positions", (n,))
    need((positions >= 0).all() and (positions <= 10**6).all(), f"a position is outside 0..10**6: {positions}")
    with np.errstate(over="ignore", invalid="ignore"):  # the formulas' order (RoPE keeps norms)
        c_kv = x @ w_dkv
        q = np.concatenate([heads(x, w_q, h), heads(x, w_qr, h)], axis=-1)
        k_c = heads(c_kv, w_uk, h)
        k_r = np.broadcast_to(x @ w_kr, (h, n, d_r))
        k = np.concatenate([k_c, k_r], axis=-1)
        scores = q @ k.transpose(0, 2, 1) / np.sqrt(d_h + d_r)
    # An upper bound of every |score| whatever the rotation: RoPE changes no norm.
    bound = np.linalg.norm(q, axis=-1)[:, :, None] * np.linalg.norm(k, axis=-1)[:, None, :] / np.sqrt(d_h + d_r)
    finite_scores(bound, "a head's |[q_c, q_r]| |[k_c, k_rope]| / sqrt(d_h + d_r)")
    finite_scores(scores)
    v = heads(c_kv, w_uv, h)
    with np.errstate(over="ignore", invalid="ignore"):
        out_bound = np.abs(v).max() * np.abs(w_o).sum(axis=0).max()
    need(np.isfinite(out_bound), "out could overflow: max |v| times a column sum of |w_o| is not finite")
