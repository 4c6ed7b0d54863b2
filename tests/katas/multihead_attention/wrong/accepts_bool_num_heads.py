"""Checks num_heads with isinstance(num_heads, int) only, so num_heads=True is taken as 1."""
import numpy as np


def multihead_attention(x, w_q, w_k, w_v, w_o, num_heads, causal=False):
    if not isinstance(num_heads, int) or num_heads < 1:
        raise ValueError("num_heads must be a positive int")
    h = int(num_heads)
    x, w_q, w_k, w_v, w_o = (np.asarray(a, dtype=np.float64) for a in (x, w_q, w_k, w_v, w_o))
    for a in (x, w_q, w_k, w_v, w_o):
        if a.ndim != 2 or 0 in a.shape:
            raise ValueError("every input must be 2-D and non-empty")
        if not np.isfinite(a).all():
            raise ValueError("inputs must be finite")
    n, d_model = x.shape
    if w_q.shape[0] != d_model or w_k.shape[0] != d_model or w_v.shape[0] != d_model:
        raise ValueError("w_q, w_k and w_v must have d_model rows")
    if w_q.shape[1] != w_k.shape[1]:
        raise ValueError("w_q and w_k widths differ")
    if w_q.shape[1] % h or w_v.shape[1] % h:
        raise ValueError("widths must be divisible by num_heads")
    d_k, d_v = w_q.shape[1] // h, w_v.shape[1] // h
    if w_o.shape[0] != h * d_v:
        raise ValueError("w_o must have num_heads * d_v rows")

    q = (x @ w_q).reshape(n, h, d_k).transpose(1, 0, 2)  # (h, n, d_k)
    k = (x @ w_k).reshape(n, h, d_k).transpose(1, 0, 2)  # (h, n, d_k)
    v = (x @ w_v).reshape(n, h, d_v).transpose(1, 0, 2)  # (h, n, d_v)
    with np.errstate(over="ignore", invalid="ignore"):
        scores = q @ k.transpose(0, 2, 1) / np.sqrt(d_k)  # (h, n, n)
    allowed = np.tril(np.ones((n, n), dtype=bool)) if causal else np.ones((n, n), dtype=bool)
    if not np.isfinite(scores[:, allowed]).all():
        raise ValueError("a score overflowed to inf")
    scores = np.where(allowed, scores, -np.inf)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    heads = weights @ v  # (h, n, d_v)
    concat = heads.transpose(1, 0, 2).reshape(n, h * d_v)  # (n, h*d_v)
    return concat @ w_o, weights
