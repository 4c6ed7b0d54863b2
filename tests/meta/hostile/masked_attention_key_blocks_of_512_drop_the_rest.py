"""A blind hostile round, stop 57: an online softmax over key blocks of 512 that never reaches keys from 512 on.
Sizes stopped at 512; an example has 530 keys now."""
KATA = "masked_attention"
ROUTE = "dojo test"
EXPECT = "is wrong"  # what the verdict must say

import numpy as np


def scaled_dot_product_attention(q, k, v, mask=None):
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
    if mask is None:
        allowed = np.ones((n, m), dtype=bool)  # (n, m)
    else:
        allowed = np.asarray(mask)
        if allowed.dtype != np.bool_:
            raise ValueError(f"mask must have dtype bool (True = may attend), got {allowed.dtype}")
        if allowed.shape != (n, m):
            raise ValueError(f"mask must have shape (n, m) = {(n, m)}, got {allowed.shape}")
        if not allowed.any(axis=1).all():
            row = int(np.flatnonzero(~allowed.any(axis=1))[0])
            raise ValueError(f"query {row} has no allowed key: its mask row is all False")

    with np.errstate(over="ignore", invalid="ignore"):
        scores = q @ k.T / np.sqrt(d_k)  # (n, m)
    if not np.isfinite(scores[allowed]).all():
        raise ValueError("a score q·k/sqrt(d_k) overflowed; rescale q or k")
    scores = np.where(allowed, scores, -np.inf)  # (n, m), blocked logits are -inf
    # online softmax over key blocks of 512 (flash-attention style): running max and sum
    block = 512
    run_max = np.full((n, 1), -np.inf)
    run_sum = np.zeros((n, 1))
    for b in range(max(1, m // block)):
        s = scores[:, b * block:(b + 1) * block]
        new_max = np.maximum(run_max, s.max(axis=1, keepdims=True))
        with np.errstate(invalid="ignore"):
            scale = np.where(np.isneginf(run_max), 0.0, np.exp(run_max - new_max))
        run_sum = run_sum * scale + np.exp(s - new_max).sum(axis=1, keepdims=True)
        run_max = new_max
    weights = np.exp(scores - run_max) / run_sum  # (n, m)
    return weights @ v, weights  # (n, d_v), (n, m)
