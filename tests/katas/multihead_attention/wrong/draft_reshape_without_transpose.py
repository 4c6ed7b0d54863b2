"""A first draft without input checks that splits heads with reshape(num_heads, n, d) (the bug of reshape_without_transpose.py)."""
import numpy as np

FIRST_DRAFT_OF = "reshape_without_transpose"
UNCHECKED = (
    "num_heads = True (a bool)",
    "num_heads = 2.0 (a float)",
    "w_o has no columns (d_out = 0)",
    "NaN in x",
    "+inf in w_o",
    "a score overflows to inf",
)


def multihead_attention(x, w_q, w_k, w_v, w_o, num_heads, causal=False):
    x = np.asarray(x, dtype=np.float64)
    n, h = x.shape[0], num_heads
    q = (x @ w_q).reshape(h, n, -1)
    k = (x @ w_k).reshape(h, n, -1)
    v = (x @ w_v).reshape(h, n, -1)
    scores = q @ k.transpose(0, 2, 1) / np.sqrt(q.shape[-1])
    if causal:
        scores = np.where(np.tril(np.ones((n, n), dtype=bool)), scores, -np.inf)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    concat = (weights @ v).reshape(n, -1)
    return concat @ w_o, weights
