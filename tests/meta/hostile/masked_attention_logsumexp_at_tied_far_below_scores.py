"""A right file of ours until stop 56, moved here: log-space softmax, weights =
exp(s - logsumexp(s)). Two equal allowed scores of -1e20 get weight 1 each, not 1/2: out there
float64's spacing is 16384, so the log 2 that logsumexp adds to the max rounds away. The far-below
draws never made two allowed scores equal. An example has them now; this file keeps it caught."""
KATA = "masked_attention"
ROUTE = "dojo test"
EXPECT = "is wrong"  # what the verdict must say

import numpy as np


def scaled_dot_product_attention(q, k, v, mask=None):
    q, k, v = np.asarray(q, float), np.asarray(k, float), np.asarray(v, float)
    if not (q.ndim == k.ndim == v.ndim == 2):
        raise ValueError("q, k, v must be matrices")
    if not (q.size and k.size and v.size):
        raise ValueError("empty input")
    n, d_k = q.shape
    m = k.shape[0]
    if k.shape[1] != d_k or v.shape[0] != m:
        raise ValueError(f"shapes do not line up: q {q.shape}, k {k.shape}, v {v.shape}")
    if mask is not None:
        if np.asarray(mask).dtype != bool:
            raise ValueError("mask must be bool")
        if np.shape(mask) != (n, m):
            raise ValueError("bad mask shape")
        if not np.asarray(mask).any(axis=1).all():
            raise ValueError("empty mask row")
    if not all(np.isfinite(a).all() for a in (q, k, v)):
        raise ValueError("NaN/inf input")
    with np.errstate(over="ignore", invalid="ignore"):
        logits = (q / np.sqrt(d_k)) @ k.T
        if mask is not None:
            logits = np.where(mask, logits, -np.inf)
        top = logits.max(axis=1, keepdims=True)
        lse = top + np.log(np.exp(logits - top).sum(axis=1, keepdims=True))
        weights = np.exp(logits - lse)
    allowed = np.ones(logits.shape, bool) if mask is None else np.asarray(mask)
    if not np.isfinite(logits[allowed]).all():
        raise ValueError("a score overflowed (q·k is not finite)")
    return weights @ v, weights
