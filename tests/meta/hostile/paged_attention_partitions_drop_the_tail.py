"""A realistic bug that passed every property (stop 55's blind round): it
splits the context into partitions of 512 tokens (as vLLM's paged attention v2 does) and
counts them with m // 512, dropping the last partial one. The judge's contexts were at most
128 tokens, or its largest case's 8192, a multiple of 512.
The example is there now; this file keeps it caught."""
KATA = "paged_attention"
ROUTE = "dojo test"
EXPECT = "out is wrong"  # what the verdict must say

import numpy as np

#: vLLM's paged_attention_v2 splits a long context into partitions of this many tokens, computes
#: each partition's max, sum and weighted values, then reduces them.
PARTITION = 512


def paged_attention(q, k_pages, v_pages, block_table, context_len):
    q = np.asarray(q, dtype=np.float64)
    k_pages = np.asarray(k_pages, dtype=np.float64)
    v_pages = np.asarray(v_pages, dtype=np.float64)
    if q.ndim != 2 or 0 in q.shape:
        raise ValueError(f"q must be 2-D and non-empty, got {q.shape}")
    for name, a in (("k_pages", k_pages), ("v_pages", v_pages)):
        if a.ndim != 3 or 0 in a.shape:
            raise ValueError(f"{name} must be 3-D and non-empty, got {a.shape}")
    n, d_k = q.shape
    P, ps, _ = k_pages.shape
    if k_pages.shape[2] != d_k:
        raise ValueError("q and k_pages widths differ")
    if v_pages.shape[:2] != k_pages.shape[:2]:
        raise ValueError("k_pages and v_pages must have the same number of pages and page size")
    table = np.asarray(block_table)
    if table.ndim != 1 or table.dtype.kind not in "iu":
        raise ValueError("block_table must be a 1-D integer array")
    if table.size and (table.min() < 0 or table.max() >= P):
        raise ValueError("block_table entry out of range")
    if isinstance(context_len, (bool, np.bool_)) or not isinstance(context_len, (int, np.integer)):
        raise ValueError("context_len must be an int")
    m = int(context_len)
    if m < 1 or m < n or m > table.size * ps:
        raise ValueError("context_len out of range")
    if not np.isfinite(q).all():
        raise ValueError("q contains NaN or inf")

    t = np.arange(m)
    pages, slots = table[t // ps], t % ps
    pos = (m - n) + np.arange(n)[:, None]
    qs = q / np.sqrt(d_k)

    # per-partition partial results (max, sum, unnormalised out), reduced at the end
    maxes, sums, outs = [], [], []
    num_partitions = max(1, m // PARTITION)
    for p in range(num_partitions):
        lo, hi = p * PARTITION, min((p + 1) * PARTITION, m)
        kb = k_pages[pages[lo:hi], slots[lo:hi]]
        vb = v_pages[pages[lo:hi], slots[lo:hi]]
        if not (np.isfinite(kb).all() and np.isfinite(vb).all()):
            raise ValueError("a used cache slot contains NaN or inf")
        with np.errstate(over="ignore", invalid="ignore"):
            s = qs @ kb.T
        ok = np.arange(lo, hi)[None, :] <= pos
        if not np.isfinite(s[ok]).all():
            raise ValueError("a score overflowed")
        s = np.where(ok, s, -np.inf)
        mx = s.max(axis=1, keepdims=True)
        safe = np.where(np.isfinite(mx), mx, 0.0)
        e = np.exp(s - safe)
        maxes.append(mx)
        sums.append(e.sum(axis=1, keepdims=True))
        outs.append(e @ vb / np.maximum(sums[-1], np.finfo(float).tiny))
    g = np.max(np.hstack(maxes), axis=1, keepdims=True)
    w = [np.where(np.isfinite(mx), np.exp(mx - g), 0.0) * s_ for mx, s_ in zip(maxes, sums)]
    total = sum(w)
    return sum(wi * oi for wi, oi in zip(w, outs)) / total
