"""A right file of ours until stop 57 (finfo_min_then_zero; it normalises by the row sum now):
blocked scores filled with finfo.min, weights exp(s - logsumexp(s)) times the keep mask. Two
equal allowed scores of -1e20 get weight 1 each, not 1/2: out there float64's spacing is 16384,
so the log 2 that logsumexp adds to the max rounds away. An example has them now; this file
keeps it caught."""
KATA = "batched_attention"
ROUTE = "dojo test"
EXPECT = "is wrong"  # what the verdict must say

import numpy as np


def batched_multihead_attention(x, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias,
                                num_heads, key_padding_mask=None, causal=False):
    if isinstance(num_heads, (bool, np.bool_)) or not isinstance(num_heads, (int, np.integer)):
        raise ValueError("num_heads must be an int")
    if num_heads < 1:
        raise ValueError("num_heads must be positive")
    x = np.array(x, dtype=np.float64)
    if x.ndim != 3 or 0 in x.shape:
        raise ValueError("x must be 3-D and non-empty")
    B, n, E = x.shape
    if E % num_heads:
        raise ValueError("E % num_heads != 0")
    params = [np.array(a, dtype=np.float64) for a in (in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias)]
    for a, shape in zip(params, [(3 * E, E), (3 * E,), (E, E), (E,)]):
        if a.shape != shape:
            raise ValueError("bad parameter shape")
    if not np.isfinite(x).all() or not all(np.isfinite(a).all() for a in params):
        raise ValueError("non-finite input")
    w_in, b_in, w_out, b_out = params
    keep = np.ones((B, n, n), dtype=bool)
    if key_padding_mask is not None:
        m = np.asarray(key_padding_mask)
        if m.dtype != np.bool_ or m.shape != (B, n):
            raise ValueError("bad key_padding_mask")
        keep &= ~m[:, None, :]
    if causal:
        keep &= np.tril(np.ones((n, n), dtype=bool))
    keep = keep[:, None]  # (B, 1, n, n)
    H, D = num_heads, E // num_heads
    with np.errstate(all="ignore"):
        proj = np.matmul(x, w_in.T) + b_in
    if not np.isfinite(proj).all():
        raise ValueError("projection overflow")
    q, k, v = (proj[..., i * E:(i + 1) * E].reshape(B, n, H, D).swapaxes(1, 2) for i in range(3))
    with np.errstate(all="ignore"):
        s = np.matmul(q, k.swapaxes(-1, -2)) * (1.0 / np.sqrt(D))
    if not np.isfinite(s[np.broadcast_to(keep, s.shape)]).all():
        raise ValueError("score overflow")
    s = np.where(keep, s, np.finfo(np.float64).min)
    mx = s.max(axis=-1, keepdims=True)
    lse = mx + np.log(np.exp(s - mx).sum(axis=-1, keepdims=True))
    p = np.exp(s - lse) * keep  # blocked keys, and rows with no key, exactly 0
    heads = np.matmul(p, v).swapaxes(1, 2).reshape(B, n, E)
    with np.errstate(all="ignore"):
        out = np.matmul(heads, w_out.T) + b_out
    if not np.isfinite(out).all():
        raise ValueError("out overflow")
    return out, p
