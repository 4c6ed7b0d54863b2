"""A paged kernel's loop: page by page through the table, reading only the context's slots, with an online softmax (running max, sum and output)."""
import numpy as np


def _checked(q, k_pages, v_pages, block_table, context_len):
    """The inputs as float64 arrays, the table, m and page_size, after every check of the contract."""
    q = np.array(q, dtype=np.float64)
    k_pages = np.array(k_pages, dtype=np.float64)
    v_pages = np.array(v_pages, dtype=np.float64)
    if q.ndim != 2 or min(q.shape) == 0:
        raise ValueError(f"q: expected a non-empty (n, d_k) array, got {q.shape}")
    if k_pages.ndim != 3 or v_pages.ndim != 3 or min(k_pages.shape) == 0 or min(v_pages.shape) == 0:
        raise ValueError(f"pages: expected non-empty 3-D pools, got {k_pages.shape} and {v_pages.shape}")
    if k_pages.shape[2] != q.shape[1] or k_pages.shape[:2] != v_pages.shape[:2]:
        raise ValueError(f"shapes do not fit: q {q.shape}, k_pages {k_pages.shape}, v_pages {v_pages.shape}")
    table = np.asarray(block_table)
    if table.ndim != 1 or not np.issubdtype(table.dtype, np.integer):
        raise ValueError("block_table: expected a 1-D array of ints")
    if ((table < 0) | (table >= k_pages.shape[0])).any():
        raise ValueError("block_table: a page index is out of range")
    if type(context_len) is bool or not isinstance(context_len, (int, np.integer)):
        raise ValueError("context_len must be an integer")
    m, page_size = int(context_len), k_pages.shape[1]
    if m < q.shape[0] or m < 1 or m > len(table) * page_size:
        raise ValueError(f"context_len {m} out of range")
    return q, k_pages, v_pages, table, m, page_size


def paged_attention(q, k_pages, v_pages, block_table, context_len):
    q, k_pages, v_pages, table, m, page_size = _checked(q, k_pages, v_pages, block_table, context_len)
    if not np.isfinite(q).all():
        raise ValueError("q contains NaN or inf")
    n, d_k = q.shape
    position = m - n + np.arange(n)  # (n,)
    run_max = np.full(n, -np.inf)
    run_sum = np.zeros(n)
    acc = np.zeros((n, v_pages.shape[2]))
    for b in range(-(-m // page_size)):
        start = b * page_size
        count = min(page_size, m - start)
        k = k_pages[table[b], :count]
        v = v_pages[table[b], :count]
        if not (np.isfinite(k).all() and np.isfinite(v).all()):
            raise ValueError(f"page {table[b]} holds NaN or inf in a slot the context uses")
        with np.errstate(over="ignore", invalid="ignore"):
            s = (q / np.sqrt(d_k)) @ k.T  # (n, count)
        allowed = start + np.arange(count)[None, :] <= position[:, None]
        if not np.isfinite(s[allowed]).all():
            raise ValueError("an allowed score overflows")
        s = np.where(allowed, s, -np.inf)
        new_max = np.maximum(run_max, s.max(axis=1))
        seen = np.isfinite(new_max)  # rows with an allowed key so far
        shift = np.where(seen, new_max, 0.0)
        old = np.where(np.isfinite(run_max), np.exp(run_max - shift), 0.0)
        p = np.exp(s - shift[:, None])
        run_sum = run_sum * old + p.sum(axis=1)
        acc = acc * old[:, None] + p @ v
        run_max = new_max
    return acc / run_sum[:, None]
