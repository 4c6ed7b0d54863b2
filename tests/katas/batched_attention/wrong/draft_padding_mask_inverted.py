"""A first draft without input checks that reads key_padding_mask as True = may attend (the bug of padding_mask_inverted.py)."""
import numpy as np

FIRST_DRAFT_OF = "padding_mask_inverted"
UNCHECKED = (
    "num_heads = 0",
    "num_heads = True (a bool)",
    "num_heads = 2.0 (a float)",
    "x has no sequences (B = 0)",
    "out_proj_bias of shape (1, E)",
    "padding mask of 0/1 integers",
    "padding mask of shape (n,), shared by the batch",
    "padding mask of shape (1, n)",
    "NaN in x",
    "inf in x at a padded position",
    "+inf in in_proj_bias",
    "a projection overflows",
    "an allowed score overflows",
    "out overflows",
)


def batched_multihead_attention(x, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias,
                                num_heads, key_padding_mask=None, causal=False):
    x = np.asarray(x, dtype=np.float64)
    B, n, E = x.shape
    h = num_heads
    d_head = E // h
    qkv = x @ np.asarray(in_proj_weight, dtype=np.float64).T + np.asarray(in_proj_bias, dtype=np.float64)
    q, k, v = (a.reshape(B, n, h, d_head).transpose(0, 2, 1, 3) for a in np.split(qkv, 3, axis=-1))
    scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(d_head)
    allowed = np.ones((B, h, n, n), dtype=bool)
    if key_padding_mask is not None:
        allowed = allowed & np.asarray(key_padding_mask)[:, None, None, :]  # True = may attend
    if causal:
        allowed = allowed & np.tril(np.ones((n, n), dtype=bool))
    scores = np.where(allowed, scores, -np.inf)
    has_key = allowed.any(axis=-1, keepdims=True)
    weights = np.exp(scores - np.where(has_key, scores.max(axis=-1, keepdims=True), 0.0))
    weights = np.divide(weights, weights.sum(axis=-1, keepdims=True), out=np.zeros_like(weights), where=has_key)
    concat = (weights @ v).transpose(0, 2, 1, 3).reshape(B, n, E)
    return concat @ np.asarray(out_proj_weight, dtype=np.float64).T + np.asarray(out_proj_bias, dtype=np.float64), weights
