"""A blind hostile round, stop 57: checks for NaN and inf with np.isfinite(a.sum()), which overflows for valid
entries near float64's largest (1e308 twice in a row of q or k, whose scores are 0). No valid
draw had such entries; an example has them now."""
KATA = "kv_cache_attention"
ROUTE = "dojo test"
EXPECT = "raised ValueError on a valid input"  # what the verdict must say

import numpy as np


def cached_causal_attention(q, k, v):
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    for name, a in (("q", q), ("k", k), ("v", v)):
        if a.ndim != 2 or 0 in a.shape:
            raise ValueError(f"{name} must be 2-D with no empty dimension, got shape {a.shape}")
        if not np.isfinite(a.sum()):  # fast NaN/inf check
            raise ValueError(f"{name} contains NaN or inf")
    n, d_k = q.shape
    m, d_v = v.shape
    if k.shape[1] != d_k:
        raise ValueError(f"q and k must have the same width d_k, got {d_k} and {k.shape[1]}")
    if k.shape[0] != m:
        raise ValueError(f"k and v must have the same number of rows, got {k.shape[0]} and {m}")
    if m < n:
        raise ValueError(f"the cache holds m = {m} tokens, fewer than the n = {n} new ones")

    allowed = np.tril(np.ones((n, m), dtype=bool), k=m - n)  # (n, m), bottom-right aligned
    with np.errstate(over="ignore", invalid="ignore"):
        scores = q @ k.T / np.sqrt(d_k)  # (n, m)
    if not np.isfinite(scores[allowed]).all():
        raise ValueError("a score q·k/sqrt(d_k) overflowed; rescale q or k")
    scores = np.where(allowed, scores, -np.inf)  # (n, m), future logits are -inf
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))  # (n, m)
    weights /= weights.sum(axis=1, keepdims=True)
    return weights @ v, weights  # (n, d_v), (n, m)
