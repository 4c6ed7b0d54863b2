"""Decodes position by position in a Python loop, each query over its prefix only (like a KV
cache); raises a ValueError subclass."""
import math

import numpy as np


class CausalInputError(ValueError):
    """A subclass of ValueError is allowed by the contract."""


def causal_self_attention(x, w_q, w_k, w_v):
    arrays = {}
    for name, a in (("x", x), ("w_q", w_q), ("w_k", w_k), ("w_v", w_v)):
        a = np.array(a, dtype=np.float64)  # a private copy
        if a.ndim != 2:
            raise CausalInputError(f"{name} must be 2-D, got shape {a.shape}")
        if not np.isfinite(a).all():
            raise CausalInputError(f"{name} has NaN or inf")
        arrays[name] = a
    x = arrays["x"]
    n, d_model = x.shape
    if n == 0 or d_model == 0:
        raise CausalInputError("empty x")
    for name in ("w_q", "w_k", "w_v"):
        rows, width = arrays[name].shape
        if rows != d_model:
            raise CausalInputError(f"{name} has {rows} rows, x has d_model = {d_model}")
        if width == 0:
            raise CausalInputError(f"{name} has width 0")
    if arrays["w_q"].shape[1] != arrays["w_k"].shape[1]:
        raise CausalInputError("w_q and w_k must have the same width")
    with np.errstate(over="ignore", invalid="ignore"):
        q, k, v = (x @ arrays[name] for name in ("w_q", "w_k", "w_v"))
    scale = 1.0 / math.sqrt(q.shape[1])
    weights = np.zeros((n, n))
    out = np.zeros((n, v.shape[1]))
    for i in range(n):
        with np.errstate(over="ignore", invalid="ignore"):
            s = (k[: i + 1] @ q[i]) * scale  # scores of position i against 0..i
        if not np.isfinite(s).all():
            raise CausalInputError(f"a score of position {i} overflowed")
        e = np.exp(s - s.max())
        weights[i, : i + 1] = e / e.sum()
        out[i] = weights[i, : i + 1] @ v[: i + 1]
    return out, weights
