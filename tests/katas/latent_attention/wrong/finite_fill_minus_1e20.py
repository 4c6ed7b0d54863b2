"""Blocks future keys with a finite fill, np.where(allowed, scores, -1e20), so when every allowed score of a row lies below -1e20 the blocked keys take the weight. Any other large finite fill is the same bug, with its own threshold."""
import numbers

import numpy as np


def latent_attention(x, w_dkv, w_uk, w_uv, w_q, w_qr, w_kr, w_o, num_heads, positions):
    if isinstance(num_heads, (bool, np.bool_)) or not isinstance(num_heads, numbers.Integral) or num_heads < 1:
        raise ValueError(f"num_heads must be an int >= 1, got {num_heads!r}")
    h = int(num_heads)
    x, w_dkv, w_uk, w_uv, w_q, w_qr, w_kr, w_o = (
        np.asarray(a, dtype=np.float64) for a in (x, w_dkv, w_uk, w_uv, w_q, w_qr, w_kr, w_o))
    for a in (x, w_dkv, w_uk, w_uv, w_q, w_qr, w_kr, w_o):
        if a.ndim != 2 or 0 in a.shape:
            raise ValueError("every input must be 2-D and non-empty")
        if not np.isfinite(a).all():
            raise ValueError("inputs must be finite")
    n, d_model = x.shape
    d_c = w_dkv.shape[1]
    if not w_dkv.shape[0] == w_q.shape[0] == w_qr.shape[0] == w_kr.shape[0] == d_model:
        raise ValueError("w_dkv, w_q, w_qr and w_kr must have d_model rows")
    if w_uk.shape[0] != d_c or w_uv.shape[0] != d_c:
        raise ValueError("w_uk and w_uv must have d_c rows")
    if w_uk.shape[1] != w_q.shape[1]:
        raise ValueError("w_uk and w_q widths differ")
    if w_q.shape[1] % h or w_uv.shape[1] % h or w_qr.shape[1] % h:
        raise ValueError("widths must be divisible by num_heads")
    d_h, d_v, d_r = w_q.shape[1] // h, w_uv.shape[1] // h, w_qr.shape[1] // h
    if w_kr.shape[1] != d_r:
        raise ValueError("w_kr must have d_r columns")
    if d_r % 2:
        raise ValueError("d_r must be even")
    if w_o.shape != (h * d_v, d_model):
        raise ValueError("w_o must be (num_heads * d_v, d_model)")
    positions = np.asarray(positions)
    if positions.shape != (n,):
        raise ValueError("positions must have shape (n,)")
    if positions.dtype == np.bool_ or not np.issubdtype(positions.dtype, np.integer):
        raise ValueError("positions must be integers")
    if (positions < 0).any():
        raise ValueError("positions must be non-negative")
    pos = positions.astype(np.float64)

    def rope(t):  # (n, ..., d): pairs (i, i + d/2) of each trailing vector, at its row's position
        d = t.shape[-1]
        half = d // 2
        angle = (pos[:, None] * 10000.0 ** (-2.0 * np.arange(half) / d)).reshape(n, *(1,) * (t.ndim - 2), half)
        a, b = t[..., :half], t[..., half:2 * half]
        out = t.copy()
        out[..., :half], out[..., half:2 * half] = a * np.cos(angle) - b * np.sin(angle), a * np.sin(angle) + b * np.cos(angle)
        return out

    with np.errstate(over="ignore", invalid="ignore"):
        c_kv = x @ w_dkv  # (n, d_c)
        k_c = (c_kv @ w_uk).reshape(n, h, d_h).transpose(1, 0, 2)  # (h, n, d_h)
        v = (c_kv @ w_uv).reshape(n, h, d_v).transpose(1, 0, 2)  # (h, n, d_v)
        q_c = (x @ w_q).reshape(n, h, d_h).transpose(1, 0, 2)  # (h, n, d_h)
        q_r = rope((x @ w_qr).reshape(n, h, d_r)).transpose(1, 0, 2)  # (h, n, d_r)
        k_rope = rope(x @ w_kr)  # (n, d_r)
        scores = (q_c @ k_c.transpose(0, 2, 1) + q_r @ k_rope.T) / np.sqrt(d_h + d_r)  # (h, n, n)
    allowed = np.tril(np.ones((n, n), dtype=bool))
    if not np.isfinite(scores[:, allowed]).all():
        raise ValueError("a score overflowed")
    scores = np.where(allowed, scores, -1e20)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    with np.errstate(over="ignore", invalid="ignore"):
        heads = weights @ v  # (h, n, d_v)
        out = heads.transpose(1, 0, 2).reshape(n, h * d_v) @ w_o  # (n, d_model)
    if not np.isfinite(out).all():
        raise ValueError("out is not finite")
    return out, c_kv, k_rope
