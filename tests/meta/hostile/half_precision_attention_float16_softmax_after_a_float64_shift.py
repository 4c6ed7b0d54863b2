"""Scores in float64, shifted by the row max, then the exp, the sums, the normalisation and the
weighted sum in float16: it breaks the float16 bound only rarely, by 1.2-1.4 times. Plain
pytest's draws found it, three runs of `dojo test` did not (a blind round, stop 58); an example
has an input where it does."""
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
    q64, k64, v64 = (a.astype(np.float64) for a in (q, k, v))
    scores = q64 @ k64.T / np.sqrt(d_k)  # (n, m)
    shifted = (scores - scores.max(axis=1, keepdims=True)).astype(np.float16)  # <= 0: exp cannot overflow now
    weights = np.exp(shifted)  # (n, m) float16, largest is 1
    weights = weights / weights.sum(axis=1, keepdims=True)
    return (weights @ v).astype(np.float16)  # (n, d_v)
