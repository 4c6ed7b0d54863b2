"""weights = exp(s - logsumexp(s)): two equal scores of 1e10 get 1/2 - 7e-7 each, since
logsumexp loses its log 2 to rounding out there (a blind round, stop 58); an example has the
tie now."""
KATA = "sliding_window_attention"
ROUTE = "dojo test"
EXPECT = "is wrong"  # what the verdict must say

import numpy as np


def sliding_window_attention(q, k, v, window, num_sinks=0):
    for name, value, least in (("window", window, 1), ("num_sinks", num_sinks, 0)):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            raise ValueError(f"{name} must be an int (not a bool or a float), got {value!r}")
        if value < least:
            raise ValueError(f"{name} must be at least {least}, got {value}")
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

    # Only the sinks and the keys inside some query's window can be seen: gather just those,
    # so a decoding step costs O(window + num_sinks), not O(m).
    window, num_sinks = int(window), int(num_sinks)
    first = max(0, m - n - window + 1)  # the oldest key in query 0's window
    cols = np.concatenate([np.arange(min(num_sinks, first)), np.arange(first, m)])  # (c,)
    p = (m - n + np.arange(n))[:, None]  # (n, 1) positions of the queries
    allowed = (cols <= p) & ((p - cols < window) | (cols < num_sinks))  # (n, c)
    with np.errstate(over="ignore", invalid="ignore"):
        scores = q @ k[cols].T / np.sqrt(d_k)  # (n, c)
    if not np.isfinite(scores[allowed]).all():
        raise ValueError("an allowed score q·k/sqrt(d_k) overflowed; rescale q or k")
    scores = np.where(allowed, scores, -np.inf)  # blocked logits are -inf, not a finite fill
    top = scores.max(axis=1, keepdims=True)
    lse = top + np.log(np.exp(scores - top).sum(axis=1, keepdims=True))  # log-sum-exp, stable
    weights = np.exp(scores - lse)  # log-softmax, then exp
    return weights @ v[cols]  # (n, d_v)
