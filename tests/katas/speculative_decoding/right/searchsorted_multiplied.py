"""Vectorised: accept where u * q < p (multiplied, not divided), the first rejection by argmin, the token by np.searchsorted(side="right")."""
import numpy as np


def speculative_verify(draft_tokens, q, p, u_accept, u_sample):
    x = np.asarray(draft_tokens)
    if x.ndim != 1 or (x.size and (x.dtype == np.bool_ or x.dtype.kind not in "iu")):
        raise ValueError("draft_tokens must be a 1-D integer array (k,)")
    x = x.astype(np.int64)
    k = x.size
    p = np.asarray(p, dtype=np.float64)
    q = np.asarray(q, dtype=np.float64)
    if p.ndim != 2 or p.shape[0] != k + 1 or p.shape[1] < 1 or q.shape != (k, p.shape[1]):
        raise ValueError(f"want q (k, V) and p (k + 1, V) for k = {k}, got {q.shape} and {p.shape}")
    V = p.shape[1]
    both = np.concatenate([q, p], axis=0)
    if not np.isfinite(both).all() or both.min() < 0 or np.abs(both.sum(axis=1) - 1).max() > 1e-6:
        raise ValueError("every row of q and p must be a probability distribution (finite, >= 0, sum 1)")
    if x.size and (x.min() < 0 or x.max() >= V):
        raise ValueError("draft tokens must lie in [0, V)")
    qx = np.take_along_axis(q, x[:, None], axis=1)[:, 0]
    px = np.take_along_axis(p[:k], x[:, None], axis=1)[:, 0]
    if (qx <= 0).any():
        raise ValueError("a draft has q[i, x_i] = 0")
    u = np.asarray(u_accept, dtype=np.float64)
    if u.shape != (k,) or not ((u >= 0) & (u < 1)).all():
        raise ValueError("u_accept must be (k,) numbers in [0, 1)")
    if type(u_sample) is bool or isinstance(u_sample, np.bool_) or not isinstance(u_sample, (int, float, np.integer, np.floating)):
        raise ValueError("u_sample must be a real")
    if not 0 <= u_sample < 1:
        raise ValueError("u_sample must be in [0, 1)")
    reject = ~(u * qx < px)
    n = int(np.argmax(reject)) if reject.any() else k
    w = p[k] if n == k else np.clip(p[n] - q[n], 0.0, None)
    cdf = np.cumsum(w)
    t = int(np.searchsorted(cdf / cdf[-1], u_sample, side="right"))
    return np.concatenate([x[:n], [min(t, V - 1)]]).astype(np.int64)
