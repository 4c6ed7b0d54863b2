"""Loops over heads and queries; each query scores only its allowed keys 0..i (no mask at all)."""
import math
import operator

import numpy as np


def latent_attention(x, w_dkv, w_uk, w_uv, w_q, w_qr, w_kr, w_o, num_heads, positions):
    if isinstance(num_heads, (bool, np.bool_)):
        raise ValueError("num_heads must be an int, not a bool")
    try:
        h = operator.index(num_heads)  # ints and NumPy integers; floats raise TypeError
    except TypeError:
        raise ValueError(f"num_heads must be an int, got {num_heads!r}") from None
    if h < 1:
        raise ValueError(f"num_heads must be >= 1, got {h}")
    mats = {}
    for name, a in zip(("x", "w_dkv", "w_uk", "w_uv", "w_q", "w_qr", "w_kr", "w_o"),
                       (x, w_dkv, w_uk, w_uv, w_q, w_qr, w_kr, w_o)):
        a = np.array(a, dtype=np.float64)  # a copy: nothing of the caller's is touched
        if a.ndim != 2 or min(a.shape) == 0:
            raise ValueError(f"{name}: expected a non-empty 2-D array, got shape {a.shape}")
        if not np.all(np.isfinite(a)):
            raise ValueError(f"{name}: NaN or inf")
        mats[name] = a
    x = mats["x"]
    n, d_model = x.shape
    d_c = mats["w_dkv"].shape[1]
    for name in ("w_dkv", "w_q", "w_qr", "w_kr"):
        if mats[name].shape[0] != d_model:
            raise ValueError(f"{name}: needs {d_model} rows")
    for name in ("w_uk", "w_uv"):
        if mats[name].shape[0] != d_c:
            raise ValueError(f"{name}: needs {d_c} rows")
    if mats["w_uk"].shape[1] != mats["w_q"].shape[1]:
        raise ValueError("w_uk and w_q: widths differ")
    for name in ("w_q", "w_uv", "w_qr"):
        if mats[name].shape[1] % h != 0:
            raise ValueError(f"{name}: width not divisible by num_heads")
    d_h, d_v, d_r = mats["w_q"].shape[1] // h, mats["w_uv"].shape[1] // h, mats["w_qr"].shape[1] // h
    if mats["w_kr"].shape[1] != d_r:
        raise ValueError("w_kr: width must be d_r")
    if d_r % 2:
        raise ValueError("d_r must be even")
    if mats["w_o"].shape != (h * d_v, d_model):
        raise ValueError("w_o: wrong shape")
    pos = np.asarray(positions)
    if pos.shape != (n,) or not np.issubdtype(pos.dtype, np.integer) or pos.dtype == bool:
        raise ValueError("positions: need n integers")
    if np.any(pos < 0):
        raise ValueError("positions: negative entry")

    def rope_row(vec, p):
        half = d_r // 2
        res = np.empty(d_r)
        for i in range(half):
            angle = p * 10000.0 ** (-2.0 * i / d_r)
            a, b = vec[i], vec[i + half]
            res[i] = a * math.cos(angle) - b * math.sin(angle)
            res[i + half] = a * math.sin(angle) + b * math.cos(angle)
        return res

    with np.errstate(over="ignore", invalid="ignore"):
        c_kv = x @ mats["w_dkv"]
        k_all = c_kv @ mats["w_uk"]
        v_all = c_kv @ mats["w_uv"]
        q_all = x @ mats["w_q"]
        qr_all = x @ mats["w_qr"]
        k_rope = np.stack([rope_row(r, int(p)) for r, p in zip(x @ mats["w_kr"], pos)])
        concat = np.zeros((n, h * d_v))
        scale = 1.0 / math.sqrt(d_h + d_r)
        for g in range(h):
            kc = k_all[:, g * d_h:(g + 1) * d_h]
            vg = v_all[:, g * d_v:(g + 1) * d_v]
            for i in range(n):
                qc = q_all[i, g * d_h:(g + 1) * d_h]
                qr = rope_row(qr_all[i, g * d_r:(g + 1) * d_r], int(pos[i]))
                s = (kc[: i + 1] @ qc + k_rope[: i + 1] @ qr) * scale
                if not np.all(np.isfinite(s)):
                    raise ValueError(f"head {g}, query {i}: a score overflowed")
                w = np.exp(s - s.max())
                concat[i, g * d_v:(g + 1) * d_v] = (w / w.sum()) @ vg[: i + 1]
        out = concat @ mats["w_o"]
    if not np.all(np.isfinite(out)):
        raise ValueError("out overflowed")
    return out, c_kv, k_rope
