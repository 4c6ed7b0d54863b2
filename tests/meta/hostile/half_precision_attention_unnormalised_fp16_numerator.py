"""A realistic bug that passed every property (stop 56's blind round): the softmax in
float64, but P @ V on the unnormalised weights in float16 (as a tensor core would), divided by
the row sums afterwards: with values of 30000 over three equal scores the numerator overflows
float16 before the division. The values drawn stayed below about 40.
Values of 1e4 to 65504 are drawn now, and are an example; this file keeps it caught."""
KATA = "half_precision_attention"
ROUTE = "dojo test"
EXPECT = 'is inf'  # what the verdict must say

import numpy as np


def half_precision_attention(q, k, v):
    for name, a in (("q", q), ("k", k), ("v", v)):
        if not isinstance(a, np.ndarray) or a.dtype != np.float16:
            got = a.dtype if isinstance(a, np.ndarray) else type(a).__name__
            raise ValueError(f"{name} must be a NumPy array of dtype float16, got {got}; "
                             f"convert it with np.asarray({name}, dtype=np.float16)")
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

    # float16 values are exact in float64, and |q·k| <= d_k · 65504² cannot overflow it.
    q64, k64, v64 = (a.astype(np.float64) for a in (q, k, v))
    scores = q64 @ k64.T / np.sqrt(d_k)  # (n, m)
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))  # (n, m), largest is 1
    # P @ V in float16 (as a tensor core would), normalised by the float64 row sums afterwards
    numerator = weights.astype(np.float16) @ v  # (n, d_v), float16
    return (numerator.astype(np.float64) / weights.sum(axis=1, keepdims=True)).astype(np.float16)
