"""Blocks future keys with np.where(allowed, scores, -1e10) instead of -inf, so they take the weight when the allowed scores lie far below -1e10. Any other large finite fill is the same bug, with its own threshold."""
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

    t = np.arange(m)  # the logical positions of the cache
    pages, slots = table[t // page_size], t % page_size
    k, v = k_pages[pages, slots], v_pages[pages, slots]  # (m, d_k), (m, d_v): the used slots only
    for name, a in (("q", q), ("a used slot of k_pages", k), ("a used slot of v_pages", v)):
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf")

    allowed = np.tril(np.ones((n, m), dtype=bool), k=m - n)  # (n, m), bottom-right aligned
    with np.errstate(over="ignore", invalid="ignore"):
        scores = q @ k.T / np.sqrt(d_k)  # (n, m)
    if not np.isfinite(scores[allowed]).all():
        raise ValueError("a score q·k/sqrt(d_k) overflowed; rescale q or the cached keys")
    scores = np.where(allowed, scores, -1e10)  # future keys are -inf
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))  # (n, m)
    weights /= weights.sum(axis=1, keepdims=True)
    return weights @ v  # (n, d_v)
