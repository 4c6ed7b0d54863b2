"""A first draft without input checks that tiles the kv heads (np.tile; the bug of tiles_kv_heads.py)."""
import numpy as np

FIRST_DRAFT_OF = "tiles_kv_heads"
UNCHECKED = (
    "num_kv_heads = True (a bool; widths fit one kv head)",
    "num_heads = 4.0 (a float)",
    "NaN in x",
    "+inf in w_k",
    "NaN in w_o",
    "a score overflows to inf",
)


def grouped_query_attention(x, w_q, w_k, w_v, w_o, num_heads, num_kv_heads, causal=False):
    x = np.asarray(x, dtype=np.float64)
    n = x.shape[0]
    q = (x @ w_q).reshape(n, num_heads, -1).transpose(1, 0, 2)
    k = (x @ w_k).reshape(n, num_kv_heads, -1).transpose(1, 0, 2)
    v = (x @ w_v).reshape(n, num_kv_heads, -1).transpose(1, 0, 2)
    g = num_heads // num_kv_heads
    k, v = np.tile(k, (g, 1, 1)), np.tile(v, (g, 1, 1))
    scores = q @ k.transpose(0, 2, 1) / np.sqrt(q.shape[-1])
    if causal:
        scores = np.where(np.tril(np.ones((n, n), dtype=bool)), scores, -np.inf)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    out = (weights @ v).transpose(1, 0, 2).reshape(n, -1)
    return out @ w_o, weights
