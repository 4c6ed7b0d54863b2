"""A blind hostile round, stop 57: checks for NaN and inf with np.isfinite(a.sum()), which overflows for valid
entries near float64's largest (1e308 twice in a row of q or k, whose scores are 0). No valid
draw had such entries; an example has them now."""
KATA = "paged_attention"
ROUTE = "dojo test"
EXPECT = "raised ValueError on a valid input"  # what the verdict must say

import numpy as np


def paged_attention(q, k_pages, v_pages, block_table, context_len):
    q = np.asarray(q, dtype=np.float64)
    k_pages = np.asarray(k_pages, dtype=np.float64)
    v_pages = np.asarray(v_pages, dtype=np.float64)
    if q.ndim != 2 or 0 in q.shape:
        raise ValueError(f"q must be 2-D (n, d_k) with no empty dimension, got shape {q.shape}")
    for name, a in (("k_pages", k_pages), ("v_pages", v_pages)):
        if a.ndim != 3 or 0 in a.shape:
            raise ValueError(f"{name} must be 3-D (P, page_size, d) with no empty dimension, got shape {a.shape}")
    n, d_k = q.shape
    num_pages, page_size, _ = k_pages.shape
    if k_pages.shape[2] != d_k:
        raise ValueError(f"q and k_pages must have the same width d_k, got {d_k} and {k_pages.shape[2]}")
    if v_pages.shape[:2] != k_pages.shape[:2]:
        raise ValueError(
            f"k_pages and v_pages must have the same number of pages and page size, "
            f"got {k_pages.shape[:2]} and {v_pages.shape[:2]}"
        )

    table = np.asarray(block_table)
    if table.ndim != 1 or table.dtype.kind not in "iu":
        raise ValueError(
            f"block_table must be a 1-D array of integer page indices, got shape {table.shape}, dtype {table.dtype}"
        )
    if table.size and (table.min() < 0 or table.max() >= num_pages):
        raise ValueError(f"every entry of block_table must be a page index in [0, {num_pages}), got {table.tolist()}")
    if isinstance(context_len, (bool, np.bool_)) or not isinstance(context_len, (int, np.integer)):
        raise ValueError(f"context_len must be an int, got {context_len!r} ({type(context_len).__name__})")
    m = int(context_len)
    capacity = table.size * page_size
    if not max(n, 1) <= m <= capacity:
        raise ValueError(
            f"context_len = {m} must satisfy n = {n} <= context_len <= len(block_table) * page_size = {capacity}"
        )

    if not np.isfinite(q).all():
        raise ValueError("q contains NaN or inf")
    t = np.arange(m)  # the logical positions of the cache
    pages, slots = table[t // page_size], t % page_size  # where each of them is stored
    blocks = [slice(a, min(a + BLOCK, m)) for a in range(0, m, BLOCK)]  # the cache, BLOCK tokens at a time

    allowed = np.tril(np.ones((n, m), dtype=bool), k=m - n)  # (n, m), bottom-right aligned
    scores = np.empty((n, m))
    for b in blocks:
        with np.errstate(over="ignore", invalid="ignore"):
            scores[:, b] = q @ _used(k_pages, pages[b], slots[b], "k_pages").T / np.sqrt(d_k)
    if not np.isfinite(scores[allowed]).all():
        raise ValueError("a score q·k/sqrt(d_k) overflowed; rescale q or the cached keys")
    scores = np.where(allowed, scores, -np.inf)  # future keys are -inf
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))  # (n, m)
    weights /= weights.sum(axis=1, keepdims=True)
    out = np.zeros((n, v_pages.shape[2]))
    for b in blocks:
        out += weights[:, b] @ _used(v_pages, pages[b], slots[b], "v_pages")
    return out  # (n, d_v)


#: Tokens gathered at a time. Gathering all m keys (or values) at once copies the whole cache
#: per call, and a fresh multi-MiB copy costs more in page faults than the attention itself.
BLOCK = 512


def _used(pool, pages, slots, name):
    gathered = pool[pages, slots]
    if not np.isfinite(gathered.sum()):  # fast NaN/inf check
        raise ValueError(f"a slot of {name} that the context uses (t < context_len) contains NaN or inf")
    return gathered
