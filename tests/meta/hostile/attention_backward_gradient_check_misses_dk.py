"""The check that the gradients are finite looks at dq and dv but not dk: an input whose dk alone
overflows returns inf. No drawn input overflowed dk alone (a blind round, stop 58); an example
does now (q ~1e308 over two keys ~1e-308 with opposite values)."""
KATA = "attention_backward"
ROUTE = "dojo test"
EXPECT = "expected a ValueError"  # what the verdict must say

import numpy as np


def attention_backward(q, k, v, d_out, mask=None):
    q, k, v, d_out = (np.asarray(a, dtype=np.float64) for a in (q, k, v, d_out))
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
    if d_out.shape != (n, d_v):
        raise ValueError(f"d_out must have the shape of out, (n, d_v) = {(n, d_v)}, got {d_out.shape}")
    if not np.isfinite(d_out).all():
        raise ValueError("d_out contains NaN or inf")
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
    scores = np.where(allowed, scores, -np.inf)  # (n, m)
    p = np.exp(scores - scores.max(axis=1, keepdims=True))  # (n, m)
    p /= p.sum(axis=1, keepdims=True)

    with np.errstate(over="ignore", invalid="ignore"):
        dv = p.T @ d_out  # (m, d_v)
        dp = d_out @ v.T  # (n, m)
        ds = p * (dp - (dp * p).sum(axis=1, keepdims=True))  # (n, m)
        dq = ds @ k / np.sqrt(d_k)  # (n, d_k)
        dk = ds.T @ q / np.sqrt(d_k)  # (m, d_k)
    for name, g in (("dS", ds), ("dq", dq), ("dv", dv)):
        if not np.isfinite(g).all():
            raise ValueError(f"{name} overflowed: the gradient is not finite; rescale d_out or v")
    return dq, dk, dv
