"""einsum throughout, with the padding and causal masks kept as an additive -inf bias and empty rows zeroed."""
import numpy as np


def batched_multihead_attention(x, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias,
                                num_heads, key_padding_mask=None, causal=False):
    if type(num_heads) is bool or not isinstance(num_heads, (int, np.integer)) or num_heads <= 0:
        raise ValueError("num_heads must be a positive int")
    x = np.asarray(x, dtype=np.float64)
    if x.ndim != 3 or x.size == 0:
        raise ValueError("x must be a non-empty (B, n, E) array")
    B, n, E = x.shape
    if E % num_heads != 0:
        raise ValueError("E must be divisible by num_heads")
    w_in, b_in, w_out, b_out = (np.asarray(a, dtype=np.float64) for a in
                                (in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias))
    if w_in.shape != (3 * E, E) or b_in.shape != (3 * E,) or w_out.shape != (E, E) or b_out.shape != (E,):
        raise ValueError("parameter shapes do not match E")
    for a in (x, w_in, b_in, w_out, b_out):
        if not np.isfinite(a).all():
            raise ValueError("NaN or inf in the input")
    bias = np.zeros((B, n, n))
    if key_padding_mask is not None:
        pad = np.asarray(key_padding_mask)
        if pad.dtype != bool or pad.shape != (B, n):
            raise ValueError("key_padding_mask must be bool (B, n)")
        bias = bias + np.where(pad, -np.inf, 0.0)[:, None, :]
    if causal:
        bias = bias + np.where(np.tri(n, dtype=bool), 0.0, -np.inf)
    H, D = num_heads, E // num_heads
    with np.errstate(all="ignore"):
        w = w_in.reshape(3, H, D, E)
        q, k, v = (np.einsum("bne,hde->bhnd", x, w[i]) + b_in.reshape(3, H, 1, D)[i] for i in range(3))
        if not (np.isfinite(q).all() and np.isfinite(k).all() and np.isfinite(v).all()):
            raise ValueError("projection overflow")
        s = np.einsum("bhid,bhjd->bhij", q, k) / np.sqrt(D)
    live = np.isfinite(bias)[:, None]  # (B, 1, n, n)
    if not np.isfinite(np.where(live, s, 0.0)).all():
        raise ValueError("score overflow")
    s = s + bias[:, None]
    empty = ~live.any(axis=-1, keepdims=True)
    s = np.where(empty, 0.0, s)
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p = np.where(empty, 0.0, p / p.sum(axis=-1, keepdims=True))
    heads = np.einsum("bhij,bhjd->bihd", p, v).reshape(B, n, E)
    with np.errstate(all="ignore"):
        out = np.einsum("bne,fe->bnf", heads, w_out) + b_out
    if not np.isfinite(out).all():
        raise ValueError("out overflow")
    return out, p
