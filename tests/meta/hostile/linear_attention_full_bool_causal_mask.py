"""A causal linear attention, right in every value, that builds the whole (n, m) causal mask
as booleans before its chunked pass, against "never hold an array of n·m elements". At
n = m = 4096 it fitted under the old bound (40 MiB: 19.7 MiB measured); at the bound's size now
(n = 1000, m = 16500, 12 MiB) the mask alone is 15.7 MiB."""
KATA = "linear_attention"
ROUTE = "dojo test"  # the memory bound is measured by the same code in both routes
EXPECT = "the memory bound is broken"  # what the verdict should say

import numpy as np

#: Keys (and queries) per chunk of the causal pass: each chunk holds one (chunk, chunk) block.
CHUNK = 64


def _phi(x):
    """elu(x) + 1 elementwise, exactly: x + 1 for x > 0, exp(x) for x <= 0 (a new array)."""
    return np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0.0)))


def linear_attention(q, k, v, causal=False):
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
    if causal and m < n:
        raise ValueError(f"causal attention needs m >= n (query i sits at position m - n + i), got m={m}, n={n}")

    fq, fk = _phi(q), _phi(k)  # (n, d_k), (m, d_k): every entry > 0
    if not causal:
        state = fk.T @ v  # (d_k, d_v): Σ_j phi(k_j) v_jᵀ
        z = fk.sum(axis=0)  # (d_k,): Σ_j phi(k_j)
        return (fq @ state) / (fq @ z)[:, None]

    # The first m - n keys come before every query: they start the state. The remaining keys
    # line up with the queries (key m - n + i is query i's own position), chunk by chunk.
    offset = m - n
    full_mask = np.arange(m)[None, :] <= np.arange(m - n, m)[:, None]  # (n, m) bools, made once
    state = fk[:offset].T @ v[:offset]  # (d_k, d_v)
    z = fk[:offset].sum(axis=0)  # (d_k,)
    out = np.empty((n, d_v))
    for start in range(0, n, CHUNK):
        stop = min(start + CHUNK, n)
        fq_c = fq[start:stop]  # (c, d_k)
        fk_c, v_c = fk[offset + start : offset + stop], v[offset + start : offset + stop]  # (c, d_k), (c, d_v)
        within = (fq_c @ fk_c.T) * full_mask[start:stop, offset + start : offset + stop]  # (c, c)
        num = fq_c @ state + within @ v_c  # (c, d_v)
        den = fq_c @ z + within.sum(axis=1)  # (c,)
        out[start:stop] = num / den[:, None]
        state = state + fk_c.T @ v_c
        z = z + fk_c.sum(axis=0)
    return out
