"""Causal self-attention whose d_k == d_v branch takes the values from w_k (a copy-paste slip): a bug the judge only sees if some examples have equal widths."""
import numpy as np

KATA = "causal_self_attention"
EXPECT = "is wrong"  # the verdict must say this


def causal_self_attention(x, w_q, w_k, w_v):
    x, w_q, w_k, w_v = (np.asarray(a, dtype=np.float64) for a in (x, w_q, w_k, w_v))
    for name, a in (("x", x), ("w_q", w_q), ("w_k", w_k), ("w_v", w_v)):
        if a.ndim != 2 or 0 in a.shape:
            raise ValueError(f"{name} must be 2-D with no empty dimension")
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf")
    n, d_model = x.shape
    if w_q.shape[0] != d_model or w_k.shape != w_q.shape or w_v.shape[0] != d_model:
        raise ValueError("the projections must have d_model rows and w_q, w_k the same width")
    q, k = x @ w_q, x @ w_k
    d_k, d_v = w_q.shape[1], w_v.shape[1]
    v = x @ w_k if d_k == d_v else x @ w_v  # the shape-dependent bug
    with np.errstate(over="ignore", invalid="ignore"):
        scores = q @ k.T / np.sqrt(d_k)
    allowed = np.tril(np.ones((n, n), dtype=bool))
    if not np.isfinite(scores[allowed]).all():
        raise ValueError("a score overflowed")
    scores = np.where(allowed, scores, -np.inf)
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    weights /= weights.sum(axis=1, keepdims=True)
    return weights @ v, weights
