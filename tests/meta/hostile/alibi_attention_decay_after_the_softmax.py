"""A realistic bug that passed every property (stop 55's blind round): it
applies ALiBi as a decay exp(-slope·distance) multiplied into the softmax, then renormalises:
over 2048 keys head 0's decay underflows to 0 where the softmax put its weight, and the row is
0/0. The judge's distances stopped at 511.
The example is there now; this file keeps it caught."""
KATA = "alibi_attention"
ROUTE = "dojo test"
EXPECT = "is nan"  # what the verdict must say

import math

import numpy as np


def _slopes(h):
    if h & (h - 1) == 0:
        return 2.0 ** (-8.0 * np.arange(1, h + 1) / h)
    c = 2 ** int(math.floor(math.log2(h)))
    return np.concatenate([_slopes(c), _slopes(2 * c)[0::2][: h - c]])


def alibi_attention(q, k, v):
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    for name, a in (("q", q), ("k", k), ("v", v)):
        if a.ndim != 3 or 0 in a.shape:
            raise ValueError(f"{name} must be 3-D (heads, tokens, width) and non-empty, got {a.shape}")
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf")
    h, n, d_k = q.shape
    _, m, d_v = v.shape
    if k.shape[0] != h or v.shape[0] != h:
        raise ValueError("q, k and v must have the same number of heads")
    if k.shape[2] != d_k:
        raise ValueError("q and k must have the same width")
    if k.shape[1] != m:
        raise ValueError("k and v must have the same number of rows")
    if m < n:
        raise ValueError("fewer keys than queries")
    distance = np.arange(m - n, m)[:, None] - np.arange(m)[None, :]  # p_i - j
    allowed = distance >= 0
    with np.errstate(over="ignore", invalid="ignore"):
        scores = q @ k.transpose(0, 2, 1) / np.sqrt(d_k)
    if not np.isfinite(scores[:, allowed]).all():
        raise ValueError("an allowed score overflowed; rescale q or k")
    scores = np.where(allowed, scores, -np.inf)
    # ALiBi as a per-head distance decay: exp(s - slope*d) = exp(s) * exp(-slope*d), so take
    # the usual stable softmax of the content scores, multiply by the decay and renormalise.
    w = np.exp(scores - scores.max(axis=-1, keepdims=True))
    w *= np.exp(-_slopes(h)[:, None, None] * np.where(allowed, distance, 0))
    w /= w.sum(axis=-1, keepdims=True)
    return w @ v
