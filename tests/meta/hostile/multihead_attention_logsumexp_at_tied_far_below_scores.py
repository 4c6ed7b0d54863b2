"""A right file of ours until stop 56, moved here: weights = exp(s - logsumexp(s)). Equal allowed scores far
below zero (-1e20, or -1.2e24 from projections) get weight 1 each instead of 1/count: float64's spacing out there is far above the log of the count, so logsumexp comes out equal to
the max and each tied score gets weight 1. The far-below draws never made the top scores equal.
An example has them now; this file keeps it caught."""
KATA = "multihead_attention"
ROUTE = "dojo test"
EXPECT = "is wrong"  # what the verdict must say

import numpy as np


def multihead_attention(x, w_q, w_k, w_v, w_o, num_heads, causal=False):
    if not isinstance(num_heads, (int, np.integer)) or isinstance(num_heads, bool) or num_heads <= 0:
        raise ValueError("num_heads must be a positive integer")
    x, w_q, w_k, w_v, w_o = (np.asarray(a, dtype=np.float64) for a in (x, w_q, w_k, w_v, w_o))
    if any(a.ndim != 2 for a in (x, w_q, w_k, w_v, w_o)):
        raise ValueError("all inputs must be matrices")
    if any(0 in a.shape for a in (x, w_q, w_k, w_v, w_o)):
        raise ValueError("inputs must not have a zero-length dimension")
    if not all(np.isfinite(a).all() for a in (x, w_q, w_k, w_v, w_o)):
        raise ValueError("inputs must be finite")
    n, d_model = x.shape
    if (w_q.shape[0], w_k.shape[0], w_v.shape[0]) != (d_model,) * 3:
        raise ValueError("projection rows must equal d_model")
    if w_q.shape[1] != w_k.shape[1]:
        raise ValueError("w_q and w_k widths differ")
    h = num_heads
    if w_q.shape[1] % h != 0 or w_v.shape[1] % h != 0:
        raise ValueError("widths must be multiples of num_heads")
    d_k, d_v = w_q.shape[1] // h, w_v.shape[1] // h
    if w_o.shape[0] != h * d_v:
        raise ValueError("w_o rows must be num_heads * d_v")

    q = np.swapaxes((x @ w_q).reshape(n, h, d_k), 0, 1)
    k = np.swapaxes((x @ w_k).reshape(n, h, d_k), 0, 1)
    v = np.swapaxes((x @ w_v).reshape(n, h, d_v), 0, 1)
    with np.errstate(all="ignore"):
        logits = np.matmul(q, np.swapaxes(k, 1, 2)) * (1.0 / np.sqrt(d_k))
    mask = np.tril(np.ones((n, n), dtype=bool)) if causal else np.ones((n, n), dtype=bool)
    if not np.all(np.isfinite(logits[:, mask])):
        raise ValueError("a score overflowed to inf")
    logits = np.where(mask, logits, -np.inf)
    m = logits.max(axis=-1, keepdims=True)
    lse = m + np.log(np.exp(logits - m).sum(axis=-1, keepdims=True))
    weights = np.exp(logits - lse)
    heads = weights @ v
    concat = np.concatenate([heads[i] for i in range(h)], axis=1)
    return concat @ w_o, weights
