"""The residual normalised first (w / w.sum(), then cumsum); the accepted count from np.flatnonzero of the rejections; int32 tokens."""
import numpy as np


def _real(v):
    return isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))


def speculative_verify(draft_tokens, q, p, u_accept, u_sample):
    raw = np.asarray(draft_tokens)
    if raw.ndim != 1:
        raise ValueError("draft_tokens: expected shape (k,)")
    if raw.size > 0 and raw.dtype.kind not in ("i", "u"):
        raise ValueError("draft_tokens: expected integer token ids")
    x = raw.astype(np.int64)
    k = x.shape[0]
    P = np.asarray(p, dtype=np.float64)
    Q = np.asarray(q, dtype=np.float64)
    if P.ndim != 2 or P.shape[0] != k + 1 or P.shape[1] == 0:
        raise ValueError("p: expected shape (k + 1, V)")
    V = P.shape[1]
    if Q.shape != (k, V):
        raise ValueError("q: expected shape (k, V)")
    for A in (Q, P):
        if np.isnan(A).any() or np.isinf(A).any():
            raise ValueError("q and p must be finite")
        if (A < 0).any():
            raise ValueError("q and p must be >= 0")
        if A.shape[0] and not np.all(np.abs(A.sum(axis=1) - 1.0) <= 1e-6):
            raise ValueError("each row of q and p must sum to 1")
    if np.any(x < 0) or np.any(x >= V):
        raise ValueError("draft token out of range")
    qx = Q[np.arange(k), x]
    if np.any(qx == 0.0):
        raise ValueError("q[i, x_i] must be > 0")
    U = np.asarray(u_accept, dtype=np.float64)
    if U.shape != (k,) or np.isnan(U).any() or np.any((U < 0) | (U >= 1)):
        raise ValueError("u_accept: expected k numbers in [0, 1)")
    if not _real(u_sample) or not (0 <= u_sample < 1):
        raise ValueError("u_sample: expected a real in [0, 1)")
    rejected = np.flatnonzero(U >= P[np.arange(k), x] / qx)
    n = int(rejected[0]) if len(rejected) else k
    if n < k:
        w = np.where(P[n] > Q[n], P[n] - Q[n], 0.0)
    else:
        w = P[k]
    cdf = np.cumsum(w / w.sum())
    t = int(np.sum(cdf <= u_sample))
    return np.concatenate([x[:n], [min(t, V - 1)]]).astype(np.int32)
