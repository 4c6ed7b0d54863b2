"""A causal mask precomputed once for 2048 positions and sliced: a cache of 2049 keys or more
raises IndexError. The longest cache the judge tried had 1100 keys (a blind round, stop 58);
an example has 2100 keys and 3 queries now."""
KATA = "kv_cache_attention"
ROUTE = "dojo test"
EXPECT = "your code raised"  # what the verdict must say

import numpy as np

MAX_SEQ_LEN = 2048  # the context window
_causal = np.tril(np.ones((MAX_SEQ_LEN, MAX_SEQ_LEN), dtype=bool))


def cached_causal_attention(q, k, v):
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    for name, a in (("q", q), ("k", k), ("v", v)):
        if a.ndim != 2 or 0 in a.shape:
            raise ValueError(f"{name} must be 2-D with no empty dimension, got shape {a.shape}")
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf")
    n, d_k = q.shape
    m, d_v = v.shape
    if k.shape[1] != d_k:
        raise ValueError(f"q and k must have the same width d_k, got {d_k} and {k.shape[1]}")
    if k.shape[0] != m:
        raise ValueError(f"k and v must have the same number of rows, got {k.shape[0]} and {m}")
    if m < n:
        raise ValueError(f"the cache holds m = {m} tokens, fewer than the n = {n} new ones")

    allowed = _causal[m - n : m, :m]  # (n, m), bottom-right aligned: rows of the newest positions
    with np.errstate(over="ignore", invalid="ignore"):
        scores = q @ k.T / np.sqrt(d_k)  # (n, m)
    if not np.isfinite(scores[allowed]).all():
        raise ValueError("a score q·k/sqrt(d_k) overflowed; rescale q or k")
    scores = np.where(allowed, scores, -np.inf)  # (n, m), future logits are -inf
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))  # (n, m)
    weights /= weights.sum(axis=1, keepdims=True)
    return weights @ v, weights  # (n, d_v), (n, m)
