"""A realistic bug that passed every property (stop 54's blind hostile round):
it divides q by np.float16(sqrt(d_k)) in float16 before widening (as PyTorch's math SDPA
scales in the inputs' dtype): two scores 0.23 apart near 256 round to a tie. Random draws
missed it (3000 small cases in the round found none); a fixed example reaches it.
The draw is there now; this file keeps it caught."""
KATA = "half_precision_attention"
ROUTE = "dojo test"
EXPECT = "more than the contract's bound"  # what the verdict must say

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
    # scale q first, in its own dtype (as PyTorch's math SDPA does), then widen
    q_scaled = (q / np.float16(np.sqrt(d_k))).astype(np.float16)
    q64, k64, v64 = (a.astype(np.float64) for a in (q_scaled, k, v))
    scores = q64 @ k64.T  # (n, m)
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))  # (n, m), largest is 1
    weights /= weights.sum(axis=1, keepdims=True)
    return (weights @ v64).astype(np.float16)  # (n, d_v), rounded once at the end
