"""A blind hostile round, stop 57: checks for NaN and inf with np.isfinite(a.sum()), which overflows for valid
entries near float64's largest (1e308 twice in a row of q or k, whose scores are 0). No valid
draw had such entries; an example has them now."""
KATA = "alibi_attention"
ROUTE = "dojo test"
EXPECT = "raised ValueError on a valid input"  # what the verdict must say

import math

import numpy as np


def _alibi_slopes(h: int) -> np.ndarray:
    if h & (h - 1) == 0:  # a power of 2: the geometric sequence 2^(-8/h), 2^(-16/h), ..., 2^-8
        return 2.0 ** (-8.0 * np.arange(1, h + 1) / h)
    c = 2 ** int(math.floor(math.log2(h)))  # the largest power of 2 below h
    return np.concatenate([_alibi_slopes(c), _alibi_slopes(2 * c)[0::2][: h - c]])


def alibi_attention(q, k, v):
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    for name, a in (("q", q), ("k", k), ("v", v)):
        if a.ndim != 3 or 0 in a.shape:
            raise ValueError(
                f"{name} must be 3-D (heads, tokens, width) with no empty dimension, got shape {a.shape}"
            )
        if not np.isfinite(a.sum()):  # fast NaN/inf check
            raise ValueError(f"{name} contains NaN or inf")
    h, n, d_k = q.shape
    _, m, d_v = v.shape
    if k.shape[0] != h or v.shape[0] != h:
        raise ValueError(f"q, k and v must have the same number of heads, got {h}, {k.shape[0]}, {v.shape[0]}")
    if k.shape[2] != d_k:
        raise ValueError(f"q and k must have the same width d_k, got {d_k} and {k.shape[2]}")
    if k.shape[1] != m:
        raise ValueError(f"k and v must have the same number of rows, got {k.shape[1]} and {m}")
    if m < n:
        raise ValueError(f"there are m = {m} keys, fewer than the n = {n} queries (they are the last n tokens)")

    positions = np.arange(m - n, m)  # p_i, bottom-right aligned
    distance = positions[:, None] - np.arange(m)[None, :]  # (n, m): p_i - j, >= 0 where allowed
    allowed = distance >= 0
    bias = -_alibi_slopes(h)[:, None, None] * distance  # (h, n, m)
    with np.errstate(over="ignore", invalid="ignore"):
        scores = q @ k.transpose(0, 2, 1) / np.sqrt(d_k) + bias  # (h, n, m)
    if not np.isfinite(scores[:, allowed]).all():
        raise ValueError("an allowed score q·k/sqrt(d_k) - slope (p_i - j) overflowed; rescale q or k")
    scores = np.where(allowed, scores, -np.inf)  # future keys are -inf
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    return weights @ v  # (h, n, d_v)
