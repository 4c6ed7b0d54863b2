"""A realistic bug that passed every property (stop 53's blind hostile round): it writes SiLU as z·exp(z)/(1+exp(z)): a gate above 709 gives inf/inf = NaN, and the answer raises on a
valid input. The judge's gates stayed near 1.
The draw is there now; this file keeps it caught."""
KATA = "decoder_block"
ROUTE = "dojo test"  # a wrong value: the same properties whichever route runs them
EXPECT = "raised ValueError on a valid input"  # what the verdict must say

import numpy as np

EPS = 1e-6


def _rms(a, w):
    return a / np.sqrt(np.mean(a * a, axis=-1, keepdims=True) + EPS) * w


def _silu(z):
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(z)
        return z * e / (1.0 + e)


def _arr(name, a, ndim):
    a = np.asarray(a, dtype=np.float64)
    if a.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-D, got shape {a.shape}")
    if not np.isfinite(a).all():
        raise ValueError(f"{name} contains NaN or inf")
    return a


def decoder_block(x, norm1, w_q, w_k, w_v, w_o, norm2, w_gate, w_up, w_down, num_heads,
                  past_k=None, past_v=None):
    x = _arr("x", x, 2)
    if 0 in x.shape:
        raise ValueError(f"x has a zero dimension: {x.shape}")
    n, d = x.shape
    norm1, norm2 = _arr("norm1", norm1, 1), _arr("norm2", norm2, 1)
    w_q, w_k, w_v, w_o = (_arr(nm, a, 2) for nm, a in (("w_q", w_q), ("w_k", w_k), ("w_v", w_v), ("w_o", w_o)))
    w_gate, w_up, w_down = (_arr(nm, a, 2) for nm, a in (("w_gate", w_gate), ("w_up", w_up), ("w_down", w_down)))
    if isinstance(num_heads, (bool, np.bool_)) or not isinstance(num_heads, (int, np.integer)) or num_heads < 1:
        raise ValueError(f"num_heads must be an int >= 1, got {num_heads!r}")
    hd = w_q.shape[1]
    f = w_gate.shape[1]
    if hd == 0 or f == 0:
        raise ValueError("h * d_head and d_ff must be >= 1")
    if hd % num_heads:
        raise ValueError(f"num_heads = {num_heads} does not divide w_q's width {hd}")
    h = int(num_heads)
    dh = hd // h
    want = {"norm1": ((d,), norm1), "norm2": ((d,), norm2), "w_q": ((d, hd), w_q), "w_k": ((d, hd), w_k),
            "w_v": ((d, hd), w_v), "w_o": ((hd, d), w_o), "w_gate": ((d, f), w_gate), "w_up": ((d, f), w_up),
            "w_down": ((f, d), w_down)}
    for nm, (shape, a) in want.items():
        if a.shape != shape:
            raise ValueError(f"{nm} must have shape {shape}, got {a.shape}")
    if (past_k is None) != (past_v is None):
        raise ValueError("give both past_k and past_v, or neither")
    if past_k is None:
        pk, pv = np.zeros((h, 0, dh)), np.zeros((h, 0, dh))
    else:
        pk, pv = _arr("past_k", past_k, 3), _arr("past_v", past_v, 3)
        for nm, a in (("past_k", pk), ("past_v", pv)):
            if a.shape[0] != h or a.shape[2] != dh:
                raise ValueError(f"{nm} must have shape ({h}, p, {dh}), got {a.shape}")
        if pk.shape[1] != pv.shape[1]:
            raise ValueError("past_k and past_v have different lengths")
    p = pk.shape[1]
    xn = _rms(x, norm1)
    q = (xn @ w_q).reshape(n, h, dh).transpose(1, 0, 2)
    k = (xn @ w_k).reshape(n, h, dh).transpose(1, 0, 2)
    v = (xn @ w_v).reshape(n, h, dh).transpose(1, 0, 2)
    new_k = np.concatenate([pk, k], axis=1)
    new_v = np.concatenate([pv, v], axis=1)
    m = p + n
    allowed = np.arange(m)[None, :] <= (p + np.arange(n))[:, None]
    with np.errstate(over="ignore", invalid="ignore"):
        s = np.einsum("hid,hjd->hij", q, new_k) / np.sqrt(dh)
    if not np.isfinite(s[:, allowed]).all():
        raise ValueError("an allowed score overflows")
    s = np.where(allowed[None], s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    heads = np.einsum("hij,hjd->hid", w, new_v)
    attn = heads.transpose(1, 0, 2).reshape(n, hd) @ w_o
    h1 = x + attn
    hn = _rms(h1, norm2)
    with np.errstate(over="ignore", invalid="ignore"):
        out = h1 + (_silu(hn @ w_gate) * (hn @ w_up)) @ w_down
    if not np.isfinite(out).all():
        raise ValueError("out is not finite")
    return out, new_k, new_v
