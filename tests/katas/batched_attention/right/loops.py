"""Loops over sequences, heads and queries, attending only to the allowed keys of each query."""
import math

import numpy as np


def batched_multihead_attention(x, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias,
                                num_heads, key_padding_mask=None, causal=False):
    if isinstance(num_heads, bool) or not isinstance(num_heads, (int, np.integer)) or num_heads < 1:
        raise ValueError("num_heads must be a positive int")
    x = np.asarray(x, dtype=np.float64)
    if x.ndim != 3 or min(x.shape) == 0:
        raise ValueError("x must be (B, n, E), non-empty")
    B, n, E = x.shape
    if E % num_heads:
        raise ValueError("num_heads must divide E")
    W = np.asarray(in_proj_weight, dtype=np.float64)
    b = np.asarray(in_proj_bias, dtype=np.float64)
    Wo = np.asarray(out_proj_weight, dtype=np.float64)
    bo = np.asarray(out_proj_bias, dtype=np.float64)
    if W.shape != (3 * E, E):
        raise ValueError("in_proj_weight must be (3E, E)")
    if b.shape != (3 * E,):
        raise ValueError("in_proj_bias must be (3E,)")
    if Wo.shape != (E, E):
        raise ValueError("out_proj_weight must be (E, E)")
    if bo.shape != (E,):
        raise ValueError("out_proj_bias must be (E,)")
    if not all(np.isfinite(a).all() for a in (x, W, b, Wo, bo)):
        raise ValueError("inputs must be finite")
    pad = np.zeros((B, n), dtype=bool)
    if key_padding_mask is not None:
        if not isinstance(key_padding_mask, np.ndarray) or key_padding_mask.dtype != np.bool_:
            raise ValueError("key_padding_mask must be a bool array")
        if key_padding_mask.shape != (B, n):
            raise ValueError("key_padding_mask must be (B, n)")
        pad = key_padding_mask
    d = E // num_heads
    out = np.zeros((B, n, E))
    weights = np.zeros((B, num_heads, n, n))
    for s in range(B):
        with np.errstate(over="ignore", invalid="ignore"):
            q = x[s] @ W[:E].T + b[:E]
            k = x[s] @ W[E:2 * E].T + b[E:2 * E]
            v = x[s] @ W[2 * E:].T + b[2 * E:]
        if not (np.isfinite(q).all() and np.isfinite(k).all() and np.isfinite(v).all()):
            raise ValueError("a projection overflowed")
        concat = np.zeros((n, E))
        for h in range(num_heads):
            cols = slice(h * d, (h + 1) * d)
            for i in range(n):
                keys = [j for j in range(n) if not pad[s, j] and (not causal or j <= i)]
                if not keys:
                    continue  # no allowed key: zero weights, zero head output
                with np.errstate(over="ignore", invalid="ignore"):
                    scores = k[keys, cols] @ q[i, cols] / math.sqrt(d)
                if not np.isfinite(scores).all():
                    raise ValueError("a score overflowed")
                e = np.exp(scores - scores.max())
                p = e / e.sum()
                weights[s, h, i, keys] = p
                concat[i, cols] = p @ v[keys, cols]
        with np.errstate(over="ignore", invalid="ignore"):
            out[s] = concat @ Wo.T + bo
    if not np.isfinite(out).all():
        raise ValueError("out overflowed")
    return out, weights
