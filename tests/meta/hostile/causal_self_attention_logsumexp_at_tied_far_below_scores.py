"""A right file of ours until stop 56, moved here: weights = exp(s - logsumexp(s)). Equal allowed scores far
below zero (-1e20, or -1.2e24 from projections) get weight 1 each instead of 1/count: float64's spacing out there is far above the log of the count, so logsumexp comes out equal to
the max and each tied score gets weight 1. The far-below draws never made the top scores equal.
An example has them now; this file keeps it caught."""
KATA = "causal_self_attention"
ROUTE = "dojo test"
EXPECT = "is wrong"  # what the verdict must say

import numpy as np


def causal_self_attention(x, w_q, w_k, w_v):
    x, w_q, w_k, w_v = (np.asarray(a, float) for a in (x, w_q, w_k, w_v))
    if not all(np.isfinite(a).all() for a in (x, w_q, w_k, w_v)):
        raise ValueError("NaN/inf input")
    if not all(a.ndim == 2 for a in (x, w_q, w_k, w_v)):
        raise ValueError("x, w_q, w_k, w_v must be matrices")
    if x.size == 0:
        raise ValueError("x is empty")
    if len({x.shape[1], w_q.shape[0], w_k.shape[0], w_v.shape[0]}) != 1:
        raise ValueError(f"d_model mismatch: x {x.shape}, w_q {w_q.shape}, w_k {w_k.shape}, w_v {w_v.shape}")
    if w_q.shape[1] != w_k.shape[1] or not (w_q.shape[1] and w_v.shape[1]):
        raise ValueError("bad projection widths")
    n = x.shape[0]
    future = np.triu(np.ones((n, n), dtype=bool), 1)
    with np.errstate(over="ignore", invalid="ignore"):
        logits = (x @ w_q / np.sqrt(w_q.shape[1])) @ (x @ w_k).T
        logits[future] = -np.inf
        top = logits.max(axis=1, keepdims=True)
        lse = top + np.log(np.exp(logits - top).sum(axis=1, keepdims=True))  # NaN on overflow
        weights = np.exp(logits - lse)
    if not np.isfinite(logits[~future]).all():
        raise ValueError("a score overflowed (q·k is not finite)")
    return weights @ (x @ w_v), weights
