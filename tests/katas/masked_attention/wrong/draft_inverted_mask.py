"""A first draft without input checks that reads the mask as True = blocked (the bug of inverted_mask.py)."""
import numpy as np

FIRST_DRAFT_OF = "inverted_mask"
UNCHECKED = (
    "q is 1-D (no mask)",
    "q has no rows",
    "d_k = 0",
    "NaN in q",
    "+inf in k",
    "-inf in v",
    "mask of 0/1 integers",
    "mask of shape (1, m) (no broadcasting)",
    "a query row with no allowed key",
    "scores overflow to inf",
    "a score whose products overflow to +inf and -inf",
)


def scaled_dot_product_attention(q, k, v, mask=None):
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    scores = q @ k.T / np.sqrt(q.shape[1])  # (n, m)
    if mask is not None:
        scores = np.where(mask, -np.inf, scores)  # True = blocked
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    weights /= weights.sum(axis=1, keepdims=True)
    return weights @ v, weights
