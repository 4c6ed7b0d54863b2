"""Never checks that w_q and w_k have the same width; a per-head loop slices K by Q's head width and silently ignores extra w_k columns."""
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
    if w_q.shape[1] % num_heads or w_v.shape[1] % num_heads:
        raise ValueError("widths must be divisible by num_heads")
    d_k, d_v = w_q.shape[1] // num_heads, w_v.shape[1] // num_heads
    if w_o.shape[0] != num_heads * d_v:
        raise ValueError("w_o must have num_heads * d_v rows")

    q, k, v = x @ w_q, x @ w_k, x @ w_v
    allowed = np.tril(np.ones((n, n), dtype=bool)) if causal else np.ones((n, n), dtype=bool)
    heads, weights = [], []
    for h in range(num_heads):
        cols = slice(h * d_k, (h + 1) * d_k)
        with np.errstate(over="ignore", invalid="ignore"):
            s = q[:, cols] @ k[:, cols].T / np.sqrt(d_k)
        if not np.isfinite(s[allowed]).all():
            raise ValueError("a score overflowed to inf")
        s = np.where(allowed, s, -np.inf)
        p = np.exp(s - s.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        weights.append(p)
        heads.append(p @ v[:, h * d_v:(h + 1) * d_v])
    return np.concatenate(heads, axis=1) @ w_o, np.stack(weights)
