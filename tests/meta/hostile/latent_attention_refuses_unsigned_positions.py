"""A realistic bug that passed every property (stop 56's blind round): it takes
positions of a signed integer dtype only, so uint32 positions are refused (the contract takes any
integer dtype). Positions were drawn as int64 arrays or lists only.
int32, uint32 and uint64 are drawn now, and uint32 is an example; this file keeps it caught."""
KATA = "latent_attention"
ROUTE = "dojo test"
EXPECT = 'raised ValueError on a valid input'  # what the verdict must say

import numbers

import numpy as np


def latent_attention(x, w_dkv, w_uk, w_uv, w_q, w_qr, w_kr, w_o, num_heads, positions):
    if isinstance(num_heads, (bool, np.bool_)) or not isinstance(num_heads, numbers.Integral) or num_heads < 1:
        raise ValueError(f"num_heads must be an int >= 1, got {num_heads!r}")
    h = int(num_heads)
    names = ("x", "w_dkv", "w_uk", "w_uv", "w_q", "w_qr", "w_kr", "w_o")
    arrays = {}
    for name, a in zip(names, (x, w_dkv, w_uk, w_uv, w_q, w_qr, w_kr, w_o)):
        a = np.asarray(a, dtype=np.float64)
        if a.ndim != 2 or 0 in a.shape:
            raise ValueError(f"{name} must be 2-D with no empty dimension, got shape {a.shape}")
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf")
        arrays[name] = a
    x, w_dkv, w_uk, w_uv, w_q, w_qr, w_kr, w_o = (arrays[k] for k in names)
    n, d_model = x.shape
    d_c = w_dkv.shape[1]
    for name in ("w_dkv", "w_q", "w_qr", "w_kr"):
        if arrays[name].shape[0] != d_model:
            raise ValueError(f"{name} must have d_model = {d_model} rows (x's width), got {arrays[name].shape[0]}")
    for name in ("w_uk", "w_uv"):
        if arrays[name].shape[0] != d_c:
            raise ValueError(f"{name} must have d_c = {d_c} rows (w_dkv's width), got {arrays[name].shape[0]}")
    if w_uk.shape[1] != w_q.shape[1]:
        raise ValueError(f"w_uk and w_q must have the same width num_heads * d_h, got {w_uk.shape[1]} and {w_q.shape[1]}")
    for name in ("w_q", "w_uv", "w_qr"):
        if arrays[name].shape[1] % h:
            raise ValueError(f"the width of {name} ({arrays[name].shape[1]}) is not divisible by num_heads = {h}")
    d_h, d_v, d_r = w_q.shape[1] // h, w_uv.shape[1] // h, w_qr.shape[1] // h
    if w_kr.shape[1] != d_r:
        raise ValueError(f"w_kr must have d_r = {d_r} columns (w_qr's width / num_heads), got {w_kr.shape[1]}")
    if d_r % 2:
        raise ValueError(f"the RoPE width d_r must be even (pairs of columns), got {d_r}")
    if w_o.shape != (h * d_v, d_model):
        raise ValueError(f"w_o must be (num_heads * d_v, d_model) = ({h * d_v}, {d_model}), got {w_o.shape}")
    positions = np.asarray(positions)
    if positions.shape != (n,):
        raise ValueError(f"positions must have shape (n,) = ({n},), got {positions.shape}")
    if not np.issubdtype(positions.dtype, np.signedinteger):
        raise ValueError(f"positions must be integers, got dtype {positions.dtype}")
    if (positions < 0).any():
        raise ValueError("positions must be non-negative")

    theta = 10000.0 ** (-2.0 * np.arange(d_r // 2) / d_r)  # (d_r/2,)
    angle = positions.astype(np.float64)[:, None] * theta  # (n, d_r/2)
    cos, sin = np.cos(angle), np.sin(angle)

    def rope(t):  # (n, ..., d_r): each trailing vector rotated at its row's position
        a, b = t[..., : d_r // 2], t[..., d_r // 2 :]
        c, s = (u.reshape(n, *(1,) * (t.ndim - 2), d_r // 2) for u in (cos, sin))
        return np.concatenate([a * c - b * s, a * s + b * c], axis=-1)

    with np.errstate(over="ignore", invalid="ignore"):
        c_kv = x @ w_dkv  # (n, d_c)
        k_c = (c_kv @ w_uk).reshape(n, h, d_h).transpose(1, 0, 2)  # (h, n, d_h)
        v = (c_kv @ w_uv).reshape(n, h, d_v).transpose(1, 0, 2)  # (h, n, d_v)
        q_c = (x @ w_q).reshape(n, h, d_h).transpose(1, 0, 2)  # (h, n, d_h)
        q_r = rope((x @ w_qr).reshape(n, h, d_r)).transpose(1, 0, 2)  # (h, n, d_r)
        k_rope = rope(x @ w_kr)  # (n, d_r), shared by every head
        q = np.concatenate([q_c, q_r], axis=-1) / np.sqrt(d_h + d_r)  # (h, n, d_h + d_r)
        k = np.concatenate([k_c, np.broadcast_to(k_rope, (h, n, d_r))], axis=-1)  # (h, n, d_h + d_r)
        scores = q @ k.transpose(0, 2, 1)  # (h, n, n)
    blocked = np.triu(np.ones((n, n), dtype=bool), k=1)  # (n, n): key j after query i
    if not (np.isfinite(scores) | blocked).all():
        raise ValueError("a score overflowed (or is NaN); rescale x or the projections")
    np.copyto(scores, -np.inf, where=blocked)
    scores -= scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores, out=scores)  # (h, n, n)
    weights /= weights.sum(axis=-1, keepdims=True)
    with np.errstate(over="ignore", invalid="ignore"):
        heads = weights @ v  # (h, n, d_v)
        out = heads.transpose(1, 0, 2).reshape(n, h * d_v) @ w_o  # (n, d_model)
    if not np.isfinite(out).all():
        raise ValueError("out is not finite (a product overflowed); rescale x or the projections")
    return out, c_kv, k_rope
