import numbers

import numpy as np


def batched_multihead_attention(x, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias,
                                num_heads, key_padding_mask=None, causal=False):
    """Batched multi-head self-attention with a padding mask, laid out like torch's nn.MultiheadAttention.

        Q, K, V  = x W_qᵀ + b_q,  x W_kᵀ + b_k,  x W_vᵀ + b_v     [W_q; W_k; W_v] = in_proj_weight
        head h   = softmax(Q_h K_hᵀ / sqrt(d_head)) V_h            blocked scores set to -inf first
        out      = concat(head 0, ..., head H-1) out_proj_weightᵀ + out_proj_bias

    Contract
    --------
    x                : (B, n, E), B sequences of n positions (batch first)
    in_proj_weight   : (3E, E), the rows of W_q, then W_k, then W_v (each (E, E))
    in_proj_bias     : (3E,), b_q, then b_k, then b_v
    out_proj_weight  : (E, E);  out_proj_bias: (E,)
    num_heads        : a positive int dividing E (a Python int, or a NumPy integer of 32 or 64
                       bits; bool and float are rejected); head h owns the contiguous columns [h*d_head, (h+1)*d_head)
                       of Q, K and V, d_head = E / num_heads
    key_padding_mask : None, or a bool array of shape exactly (B, n) where True means PADDING:
                       key j of sequence b is blocked for every query of b
                       (nn.MultiheadAttention's convention, the opposite of the masked kata's mask)
    causal           : if true, query i attends only to keys j <= i as well

    x and the four parameters may be any array-likes (lists, integer or float32 arrays); all the
    arithmetic is float64.

    Returns ``(out, weights)``: out (B, n, E) and weights (B, num_heads, n, n) (per head, not
    averaged), both float64. Blocked weights are exactly 0; every other row sums to 1. A query
    with no allowed key (a sequence that is all padding, or left padding with causal) gets
    all-zero weights, so its head outputs are 0 and its out row is out_proj_bias (torch SDPA's
    convention; nn.MultiheadAttention returns NaN there, and NaN is never a right answer here).
    No input is modified.

    Raises ValueError (a subclass is fine), with a message a person can act on, when:
    - x is not 3-D or has a zero dimension;
    - num_heads is not a positive int, or does not divide E;
    - a parameter's shape is not the one above;
    - key_padding_mask is not of dtype bool or its shape is not (B, n) (no broadcasting);
    - any input contains NaN or inf;
    - a projection, a score that takes part in a softmax, or out is not finite (overflow).
    (Left open: what happens when only a blocked score, of a padded or a future key, overflows.)

    Left open: a dot product of a query and a key that overflows although the score, divided
    by sqrt(d_head), is finite (where another order of the products gives a finite answer).
    Left open too: an allowed score whose exact value overflows to -inf (below -1.8e308).

    NumPy only: do not import torch, jax, tensorflow, scipy or sklearn.

    Speed: the judge makes a few hundred calls on small inputs. Together they may take 1 s of
    CPU per Hypothesis example (20 s in a practice run; the reference needs under 0.5 s), and
    one call at most 2 s of CPU; past that the answer is stopped as too slow. Loops over
    rows, heads or blocks are fine; a Python loop over single entries is not.
    """
    if isinstance(num_heads, bool) or not isinstance(num_heads, numbers.Integral) or num_heads < 1:
        raise ValueError(f"num_heads must be a positive int, got {num_heads!r}")
    h = int(num_heads)
    x = np.asarray(x, dtype=np.float64)
    if x.ndim != 3 or 0 in x.shape:
        raise ValueError(f"x must be (B, n, E) with no empty dimension, got shape {x.shape}")
    B, n, E = x.shape
    if E % h:
        raise ValueError(f"num_heads = {h} does not divide the embedding size E = {E}")
    d_head = E // h
    params = {}
    for name, a, shape in (
        ("in_proj_weight", in_proj_weight, (3 * E, E)),
        ("in_proj_bias", in_proj_bias, (3 * E,)),
        ("out_proj_weight", out_proj_weight, (E, E)),
        ("out_proj_bias", out_proj_bias, (E,)),
    ):
        a = np.asarray(a, dtype=np.float64)
        if a.shape != shape:
            raise ValueError(f"{name} must have shape {shape} for E = {E}, got {a.shape}")
        params[name] = a
    for name, a in (("x", x), *params.items()):
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf")
    allowed = np.ones((B, 1, n, n), dtype=bool)  # (B, 1, n, n): [b, ., query, key]
    if key_padding_mask is not None:
        pad = np.asarray(key_padding_mask)
        if pad.dtype != np.bool_:
            raise ValueError(f"key_padding_mask must have dtype bool (True = padding), got {pad.dtype}")
        if pad.shape != (B, n):
            raise ValueError(f"key_padding_mask must have shape (B, n) = {(B, n)}, got {pad.shape}")
        allowed = allowed & ~pad[:, None, None, :]  # (B, 1, n, n), padded keys blocked
    if causal:
        allowed = allowed & np.tril(np.ones((n, n), dtype=bool))  # (B, 1, n, n)

    with np.errstate(over="ignore", invalid="ignore"):
        qkv = x @ params["in_proj_weight"].T + params["in_proj_bias"]  # (B, n, 3E)
        if not np.isfinite(qkv).all():
            raise ValueError("a projection of x overflowed; rescale x or in_proj_weight")
        q, k, v = (
            a.reshape(B, n, h, d_head).transpose(0, 2, 1, 3)  # (B, h, n, d_head)
            for a in np.split(qkv, 3, axis=-1)
        )
        scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(d_head)  # (B, h, n, n)
    allowed = np.broadcast_to(allowed, scores.shape)  # (B, h, n, n)
    if not np.isfinite(scores[allowed]).all():
        raise ValueError("a score overflowed to inf; rescale x or the projections")
    scores = np.where(allowed, scores, -np.inf)  # (B, h, n, n)
    has_key = allowed.any(axis=-1, keepdims=True)  # (B, h, n, 1)
    top = np.where(has_key, scores.max(axis=-1, keepdims=True), 0.0)  # (B, h, n, 1)
    weights = np.exp(scores - top)  # (B, h, n, n); a row with no key is all 0
    total = weights.sum(axis=-1, keepdims=True)  # (B, h, n, 1)
    weights = np.divide(weights, total, out=np.zeros_like(weights), where=has_key)
    heads = weights @ v  # (B, h, n, d_head)
    concat = heads.transpose(0, 2, 1, 3).reshape(B, n, E)  # (B, n, E), head 0's columns first
    with np.errstate(over="ignore", invalid="ignore"):
        out = concat @ params["out_proj_weight"].T + params["out_proj_bias"]  # (B, n, E)
    if not np.isfinite(out).all():
        raise ValueError("out overflowed; rescale the projections")
    return out, weights
