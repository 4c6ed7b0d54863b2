"""A realistic bug that passed every property (stop 55's blind round): it
builds nanoGPT's causal mask once, for block_size = 1024 positions, and slices it: right up to
1024 tokens, an IndexError past them. The judge's sizes stopped at its largest case, 512 tokens.
The example is there now; this file keeps it caught."""
KATA = "causal_self_attention"
ROUTE = "dojo test"
EXPECT = "raised IndexError"  # what the verdict must say

import numpy as np

#: As in nanoGPT's CausalSelfAttention: a lower-triangular buffer for block_size = 1024
#: positions, built once and sliced to the sequence length.
BLOCK_SIZE = 1024
_bias = np.tril(np.ones((BLOCK_SIZE, BLOCK_SIZE), dtype=bool))


def causal_self_attention(x, w_q, w_k, w_v):
    x, w_q, w_k, w_v = (np.asarray(a, dtype=np.float64) for a in (x, w_q, w_k, w_v))
    for name, a in (("x", x), ("w_q", w_q), ("w_k", w_k), ("w_v", w_v)):
        if a.ndim != 2 or 0 in a.shape:
            raise ValueError(f"{name} must be 2-D and non-empty, got {a.shape}")
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf")
    n, d_model = x.shape
    for name, w in (("w_q", w_q), ("w_k", w_k), ("w_v", w_v)):
        if w.shape[0] != d_model:
            raise ValueError(f"{name} must have {d_model} rows")
    if w_q.shape[1] != w_k.shape[1]:
        raise ValueError("w_q and w_k must have the same width")
    d_k = w_q.shape[1]
    with np.errstate(over="ignore", invalid="ignore"):
        q, k, v = x @ w_q, x @ w_k, x @ w_v
        att = q @ k.T / np.sqrt(d_k)
    mask = _bias[:n, :n]
    if not np.isfinite(att[mask]).all():
        raise ValueError("a score overflowed")
    att = np.where(mask, att, -np.inf)
    att = np.exp(att - att.max(axis=1, keepdims=True))
    att /= att.sum(axis=1, keepdims=True)
    return att @ v, att
