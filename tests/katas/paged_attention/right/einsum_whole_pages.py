"""Gathers the table's whole pages (k_pages[table].reshape), cuts at context_len, then einsum and a stable softmax."""
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
    q, k_pages, v_pages, table, m, _ = _checked(q, k_pages, v_pages, block_table, context_len)
    k = k_pages[table].reshape(-1, k_pages.shape[2])[:m]  # the whole pages, then the context only
    v = v_pages[table].reshape(-1, v_pages.shape[2])[:m]
    if not (np.isfinite(q).all() and np.isfinite(k).all() and np.isfinite(v).all()):
        raise ValueError("NaN or inf in q or in the context's keys or values")
    n = q.shape[0]
    with np.errstate(over="ignore", invalid="ignore"):
        s = np.einsum("id,td->it", q, k) / np.sqrt(q.shape[1])
    future = np.arange(m)[None, :] > (m - n + np.arange(n))[:, None]
    if np.isinf(s[~future]).any() or np.isnan(s[~future]).any():
        raise ValueError("an allowed score overflows")
    s[future] = -np.inf
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return np.einsum("it,tv->iv", e / e.sum(axis=1, keepdims=True), v)
