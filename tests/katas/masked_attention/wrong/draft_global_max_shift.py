"""A first draft without input checks that shifts by the max of the whole score matrix (the bug of global_max_shift.py)."""
import numpy as np

FIRST_DRAFT_OF = "global_max_shift"
UNCHECKED = (
    "q is 1-D (no mask)",
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
        scores = np.where(mask, scores, -np.inf)
    weights = np.exp(scores - scores.max())
    weights /= weights.sum(axis=1, keepdims=True)
    return weights @ v, weights
