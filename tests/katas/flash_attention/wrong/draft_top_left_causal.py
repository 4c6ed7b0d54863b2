"""A first draft without input checks whose causal mask is aligned top-left (the bug of top_left_causal.py)."""
import numpy as np

FIRST_DRAFT_OF = "top_left_causal"
UNCHECKED = (
    "block_size = -2",
    "block_size = True (a bool)",
    "block_size = 2.0 (a float)",
    "d_k = 0",
    "k has no rows (m = 0)",
    "NaN in q",
    "+inf in k",
    "-inf in v",
    "causal with fewer keys than queries (m=2 < n=3)",
    "an allowed score overflows to inf",
)


def flash_attention(q, k, v, block_size, causal=False):
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    n, d_k = q.shape
    m = k.shape[0]
    q = q / np.sqrt(d_k)
    row_max = np.full((n, 1), -np.inf)
    row_sum = np.zeros((n, 1))
    acc = np.zeros((n, v.shape[1]))
    for start in range(0, m, block_size):
        k_b, v_b = k[start:start + block_size], v[start:start + block_size]
        s = q @ k_b.T
        if causal:
            s[np.arange(start, start + len(k_b)) > np.arange(n)[:, None]] = -np.inf
        new_max = np.maximum(row_max, s.max(axis=1, keepdims=True))
        p = np.exp(s - new_max)
        rescale = np.exp(row_max - new_max)
        row_sum = row_sum * rescale + p.sum(axis=1, keepdims=True)
        acc = acc * rescale + p @ v_b
        row_max = new_max
    return acc / row_sum, (row_max + np.log(row_sum))[:, 0]
