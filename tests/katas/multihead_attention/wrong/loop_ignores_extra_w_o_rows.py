"""Never checks w_o's row count; each head is multiplied by its block of w_o rows, so extra rows are silently ignored."""
import numpy as np


def multihead_attention(x, w_q, w_k, w_v, w_o, num_heads, causal=False):
    if isinstance(num_heads, bool) or not isinstance(num_heads, int) or num_heads < 1:
        raise ValueError("num_heads must be a positive int")
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
    if w_q.shape[1] % num_heads or w_v.shape[1] % num_heads:
        raise ValueError("widths must be divisible by num_heads")
    d_k, d_v = w_q.shape[1] // num_heads, w_v.shape[1] // num_heads

    q, k, v = x @ w_q, x @ w_k, x @ w_v
    allowed = np.tril(np.ones((n, n), dtype=bool)) if causal else np.ones((n, n), dtype=bool)
    out = np.zeros((n, w_o.shape[1]))
    weights = np.empty((num_heads, n, n))
    for h in range(num_heads):
        qk, vv = slice(h * d_k, (h + 1) * d_k), slice(h * d_v, (h + 1) * d_v)
        with np.errstate(over="ignore", invalid="ignore"):
            s = q[:, qk] @ k[:, qk].T / np.sqrt(d_k)
        if not np.isfinite(s[allowed]).all():
            raise ValueError("a score overflowed to inf")
        s = np.where(allowed, s, -np.inf)
        p = np.exp(s - s.max(axis=1, keepdims=True))
        weights[h] = p / p.sum(axis=1, keepdims=True)
        out += (weights[h] @ v[:, vv]) @ w_o[vv]
    return out, weights
