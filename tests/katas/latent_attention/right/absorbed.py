"""The decoding form: w_uk absorbed into the queries, which score the latent c_kv directly, and
the weights applied to c_kv before w_uv (the keys and values are never built)."""
import numbers

import numpy as np


def latent_attention(x, w_dkv, w_uk, w_uv, w_q, w_qr, w_kr, w_o, num_heads, positions):
    if isinstance(num_heads, bool) or not isinstance(num_heads, numbers.Integral) or num_heads <= 0:
        raise ValueError(f"num_heads must be a positive int, got {num_heads!r}")
    h = int(num_heads)
    a = [np.asarray(t, dtype=np.float64) for t in (x, w_dkv, w_uk, w_uv, w_q, w_qr, w_kr, w_o)]
    if any(t.ndim != 2 or t.size == 0 for t in a):
        raise ValueError("every input must be a non-empty 2-D array")
    if not all(np.isfinite(t).all() for t in a):
        raise ValueError("an input contains NaN or inf")
    x, w_dkv, w_uk, w_uv, w_q, w_qr, w_kr, w_o = a
    n, d_model = x.shape
    d_c = w_dkv.shape[1]
    if any(w.shape[0] != d_model for w in (w_dkv, w_q, w_qr, w_kr)) or any(w.shape[0] != d_c for w in (w_uk, w_uv)):
        raise ValueError("projection row counts do not chain")
    if w_uk.shape[1] != w_q.shape[1] or w_q.shape[1] % h or w_uv.shape[1] % h or w_qr.shape[1] % h:
        raise ValueError("projection widths do not fit num_heads")
    d_h, d_v, d_r = w_q.shape[1] // h, w_uv.shape[1] // h, w_qr.shape[1] // h
    if w_kr.shape[1] != d_r or d_r % 2 or w_o.shape != (h * d_v, d_model):
        raise ValueError("w_kr must be (d_model, d_r) with d_r even, w_o (num_heads * d_v, d_model)")
    positions = np.asarray(positions)
    if positions.shape != (n,) or positions.dtype.kind not in "iu" or (positions < 0).any():
        raise ValueError("positions must be n non-negative integers")

    half = d_r // 2
    angle = positions[:, None] * 10000.0 ** (-np.arange(half) / half)  # (n, d_r/2)
    turn = np.exp(1j * angle)  # each pair as a complex number

    def rope(t):  # (n, ..., d_r)
        z = (t[..., :half] + 1j * t[..., half:]) * turn.reshape(n, *(1,) * (t.ndim - 2), half)
        return np.concatenate([z.real, z.imag], axis=-1)

    with np.errstate(over="ignore", invalid="ignore"):
        c_kv = x @ w_dkv  # (n, d_c)
        q_c = (x @ w_q).reshape(n, h, d_h)
        q_abs = np.einsum("nhd,chd->hnc", q_c, w_uk.reshape(d_c, h, d_h))  # (h, n, d_c): q_c W_uk,hᵀ
        q_r = rope((x @ w_qr).reshape(n, h, d_r)).transpose(1, 0, 2)  # (h, n, d_r)
        k_rope = rope(x @ w_kr)  # (n, d_r)
        scores = (q_abs @ c_kv.T + q_r @ k_rope.T) / np.sqrt(d_h + d_r)  # (h, n, n)
    future = np.triu(np.ones((n, n), dtype=bool), 1)
    if not np.isfinite(scores[:, ~future]).all():
        raise ValueError("an allowed score overflowed")
    scores[:, future] = -np.inf
    p = np.exp(scores - scores.max(axis=-1, keepdims=True))
    p /= p.sum(axis=-1, keepdims=True)
    with np.errstate(over="ignore", invalid="ignore"):
        mixed = p @ c_kv  # (h, n, d_c): the weights applied to the latent
        heads = np.einsum("hnc,chd->nhd", mixed, w_uv.reshape(d_c, h, d_v))  # (n, h, d_v)
        out = heads.reshape(n, h * d_v) @ w_o
    if not np.isfinite(out).all():
        raise ValueError("out overflowed")
    return out, c_kv, k_rope
