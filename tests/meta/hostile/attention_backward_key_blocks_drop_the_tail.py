"""A realistic bug that passed every property (stop 55's blind round): it
loops over key blocks of 64 (FlashAttention-2's backward) counted with m // 64, dropping the
last keys. The judge's sizes here stopped at 7, or its largest case's 512, a multiple of 64.
The example is there now; this file keeps it caught."""
KATA = "attention_backward"
ROUTE = "dojo test"
EXPECT = "is wrong"  # what the verdict must say

import numpy as np

#: Keys per block, as in FlashAttention-2's backward: never form more than (n, BLOCK) at once.
BLOCK = 64


def attention_backward(q, k, v, d_out, mask=None):
    q, k, v, d_out = (np.asarray(a, dtype=np.float64) for a in (q, k, v, d_out))
    for name, a in (("q", q), ("k", k), ("v", v)):
        if a.ndim != 2 or 0 in a.shape:
            raise ValueError(f"{name} must be 2-D and non-empty, got {a.shape}")
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf")
    n, d_k = q.shape
    m, d_v = v.shape
    if k.shape[1] != d_k:
        raise ValueError("q and k must have the same width")
    if k.shape[0] != m:
        raise ValueError("k and v must have the same number of rows")
    if d_out.shape != (n, d_v):
        raise ValueError(f"d_out must have shape {(n, d_v)}, got {d_out.shape}")
    if not np.isfinite(d_out).all():
        raise ValueError("d_out contains NaN or inf")
    if mask is None:
        allowed = None
    else:
        allowed = np.asarray(mask)
        if allowed.dtype != np.bool_ or allowed.shape != (n, m):
            raise ValueError("mask must be a bool array of shape (n, m)")
        if not allowed.any(axis=1).all():
            raise ValueError("a query has no allowed key")

    scale = 1.0 / np.sqrt(d_k)
    blocks = [slice(j * BLOCK, (j + 1) * BLOCK) for j in range(max(1, m // BLOCK))]

    def block_scores(b):
        with np.errstate(over="ignore", invalid="ignore"):
            s = q @ k[b].T * scale
        ok = np.ones(s.shape, dtype=bool) if allowed is None else allowed[:, b]
        if not np.isfinite(s[ok]).all():
            raise ValueError("a score overflowed")
        return np.where(ok, s, -np.inf)

    # forward: the row max and the row sum, block by block
    row_max = np.full((n, 1), -np.inf)
    row_sum = np.zeros((n, 1))
    for b in blocks:
        s = block_scores(b)
        new = np.maximum(row_max, s.max(axis=1, keepdims=True))
        row_sum = row_sum * np.exp(row_max - new) + np.exp(s - new).sum(axis=1, keepdims=True)
        row_max = new
    lse = row_max + np.log(row_sum)
    out = np.zeros((n, d_v))
    for b in blocks:
        out += np.exp(block_scores(b) - lse) @ v[b]
    delta = np.sum(d_out * out, axis=1, keepdims=True)  # rowsum(dP * P) = rowsum(d_out * out)

    dq, dk, dv = np.zeros_like(q), np.zeros_like(k), np.zeros_like(v)
    with np.errstate(over="ignore", invalid="ignore"):
        for b in blocks:
            p = np.exp(block_scores(b) - lse)           # (n, B)
            dv[b] = p.T @ d_out
            dp = d_out @ v[b].T
            ds = p * (dp - delta)
            dq += ds @ k[b] * scale
            dk[b] = ds.T @ q * scale
    for name, g in (("dq", dq), ("dk", dk), ("dv", dv)):
        if not np.isfinite(g).all():
            raise ValueError(f"{name} overflowed")
    return dq, dk, dv
