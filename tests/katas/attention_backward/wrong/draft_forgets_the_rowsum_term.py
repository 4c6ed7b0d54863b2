"""A first draft without input checks that uses dS = P * dP (the bug of forgets_the_rowsum_term.py)."""
import numpy as np

FIRST_DRAFT_OF = "forgets_the_rowsum_term"
UNCHECKED = (
    "q is 1-D",
    "NaN in q",
    "+inf in v",
    "mask of 0/1 integers",
    "mask of shape (1, m) (no broadcasting)",
    "a query row with no allowed key",
    "scores overflow to inf",
    "NaN in d_out",
    "-inf in d_out",
    "gradients overflow (d_out, v ~1e200)",
)


def attention_backward(q, k, v, d_out, mask=None):
    q, k, v, d_out = (np.asarray(a, dtype=np.float64) for a in (q, k, v, d_out))
    scale = 1.0 / np.sqrt(q.shape[1])
    scores = q @ k.T * scale
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    p = np.exp(scores - scores.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    dv = p.T @ d_out
    ds = p * (d_out @ v.T)  # the softmax's backward, without the rowsum term
    return ds @ k * scale, ds.T @ q * scale, dv
