"""Heads as einsum subscripts, the two score terms summed separately, a max-shifted softmax. (It was
exp(s - logsumexp(s)) until stop 57: tied scores far below zero got weight 1 each.)"""
import numpy as np


def latent_attention(x, w_dkv, w_uk, w_uv, w_q, w_qr, w_kr, w_o, num_heads, positions):
    if type(num_heads) is bool or not isinstance(num_heads, (int, np.integer)):
        raise ValueError(f"num_heads must be an int, got {type(num_heads).__name__}")
    if num_heads < 1:
        raise ValueError(f"num_heads must be at least 1, got {num_heads}")
    h = int(num_heads)
    names = ("x", "w_dkv", "w_uk", "w_uv", "w_q", "w_qr", "w_kr", "w_o")
    arrays = [np.asarray(a, dtype=np.float64) for a in (x, w_dkv, w_uk, w_uv, w_q, w_qr, w_kr, w_o)]
    for name, a in zip(names, arrays):
        if a.ndim != 2:
            raise ValueError(f"{name} must be 2-D, got {a.ndim}-D")
        if a.size == 0:
            raise ValueError(f"{name} is empty: {a.shape}")
        if np.isnan(a).any() or np.isinf(a).any():
            raise ValueError(f"{name} has NaN or inf")
    x, w_dkv, w_uk, w_uv, w_q, w_qr, w_kr, w_o = arrays
    n, d_model = x.shape
    d_c = w_dkv.shape[1]
    if {w_dkv.shape[0], w_q.shape[0], w_qr.shape[0], w_kr.shape[0]} != {d_model}:
        raise ValueError("w_dkv, w_q, w_qr, w_kr need d_model rows")
    if {w_uk.shape[0], w_uv.shape[0]} != {d_c}:
        raise ValueError("w_uk, w_uv need d_c rows")
    if w_uk.shape[1] != w_q.shape[1] or any(w.shape[1] % h for w in (w_q, w_uv, w_qr)):
        raise ValueError("head widths do not fit num_heads")
    d_h, d_v, d_r = w_q.shape[1] // h, w_uv.shape[1] // h, w_qr.shape[1] // h
    if w_kr.shape[1] != d_r or d_r % 2 == 1:
        raise ValueError("w_kr must be (d_model, d_r) with d_r even")
    if w_o.shape[0] != h * d_v or w_o.shape[1] != d_model:
        raise ValueError("w_o must be (num_heads * d_v, d_model)")
    p = np.asarray(positions)
    if p.ndim != 1 or len(p) != n or p.dtype.kind not in "iu" or np.any(p < 0):
        raise ValueError("positions must be n non-negative integers")

    half = d_r // 2
    freq = np.power(10000.0, -np.arange(0, d_r, 2) / d_r)  # (d_r/2,)
    ang = np.einsum("n,f->nf", p.astype(np.float64), freq)
    cos = np.concatenate([np.cos(ang)] * 2, axis=1)  # (n, d_r)
    sin = np.concatenate([np.sin(ang)] * 2, axis=1)

    def rot(t, c, s):  # t (..., d_r): t cos + rotate_half(t) sin
        return t * c + np.concatenate([-t[..., half:], t[..., :half]], axis=-1) * s

    with np.errstate(over="ignore", invalid="ignore"):
        c_kv = x @ w_dkv
        k_c = np.einsum("nc,chd->nhd", c_kv, w_uk.reshape(d_c, h, d_h))
        v = np.einsum("nc,chd->nhd", c_kv, w_uv.reshape(d_c, h, d_v))
        q_c = np.einsum("nm,mhd->nhd", x, w_q.reshape(d_model, h, d_h))
        q_r = rot(np.einsum("nm,mhd->nhd", x, w_qr.reshape(d_model, h, d_r)), cos[:, None], sin[:, None])
        k_rope = rot(x @ w_kr, cos, sin)
        s = (np.einsum("ihd,jhd->hij", q_c, k_c) + np.einsum("ihd,jd->hij", q_r, k_rope)) / np.sqrt(d_h + d_r)
    causal = np.tri(n, dtype=bool)
    if not np.isfinite(s[:, causal]).all():
        raise ValueError("an allowed attention score is not finite")
    s = np.where(causal, s, -np.inf)
    m = s.max(axis=2, keepdims=True)
    e = np.exp(s - m)
    with np.errstate(over="ignore", invalid="ignore"):
        o = np.einsum("hij,jhd->ihd", e / e.sum(axis=2, keepdims=True), v).reshape(n, h * d_v) @ w_o
    if not np.isfinite(o).all():
        raise ValueError("out overflowed")
    return o, c_kv, k_rope
