"""Log-space softmax: weights = exp(s - logsumexp(s)), with -inf for blocked scores."""
import numpy as np


def scaled_dot_product_attention(q, k, v, mask=None):
    q = np.asarray(q, dtype=np.float64)
    k = np.asarray(k, dtype=np.float64)
    v = np.asarray(v, dtype=np.float64)
    for name, a in zip("qkv", (q, k, v)):
        if a.ndim != 2:
            raise ValueError(f"{name} should be 2-D")
        if 0 in a.shape:
            raise ValueError(f"{name} is empty")
        if not np.all(np.isfinite(a)):
            raise ValueError(f"{name} is not finite")
    if q.shape[1] != k.shape[1] or k.shape[0] != v.shape[0]:
        raise ValueError("incompatible shapes")
    n, m = q.shape[0], k.shape[0]
    if mask is not None:
        mask = np.asarray(mask)
        if mask.dtype != np.bool_:
            raise ValueError("mask dtype must be bool")
        if mask.shape != (n, m):
            raise ValueError("mask shape must be (n, m)")
    allowed = np.ones((n, m), bool) if mask is None else mask
    if (~allowed).all(axis=1).any():
        raise ValueError("fully masked query")
    with np.errstate(over="ignore", invalid="ignore"):
        logits = (q / np.sqrt(q.shape[1])) @ k.T
    if not np.isfinite(logits[allowed]).all():
        raise ValueError("overflow in the scores")
    logits = np.where(allowed, logits, -np.inf)
    top = logits.max(axis=1, keepdims=True)
    lse = top + np.log(np.exp(logits - top).sum(axis=1, keepdims=True))
    weights = np.exp(logits - lse)
    return weights @ v, weights
