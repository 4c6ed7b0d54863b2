"""A first draft without input checks that builds the mask with np.triu (the bug of triu_mask.py)."""
import numpy as np

FIRST_DRAFT_OF = "triu_mask"
UNCHECKED = (
    "x is 1-D",
    "a projection of width 0",
    "NaN in x",
    "+inf in w_v",
    "-inf in w_q",
    "a score overflows to inf",
)


def causal_self_attention(x, w_q, w_k, w_v):
    x = np.asarray(x, dtype=np.float64)
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    n = x.shape[0]
    scores = q @ k.T / np.sqrt(k.shape[1])
    scores = np.where(np.triu(np.ones((n, n), dtype=bool)), scores, -np.inf)
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    weights /= weights.sum(axis=1, keepdims=True)
    return weights @ v, weights
