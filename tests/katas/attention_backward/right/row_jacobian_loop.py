"""One query at a time, with the softmax Jacobian diag(p) - p pᵀ written out."""
import numpy as np


def attention_backward(q, k, v, d_out, mask=None):
    q, k, v, d_out = (np.asarray(a, dtype=np.float64) for a in (q, k, v, d_out))
    if any(a.ndim != 2 or a.size == 0 for a in (q, k, v)):
        raise ValueError("q, k and v must be 2-D and non-empty")
    n, d_k = q.shape
    m, d_v = v.shape
    if k.shape != (m, d_k):
        raise ValueError("k must be (m, d_k)")
    if not all(np.isfinite(a).all() for a in (q, k, v)):
        raise ValueError("inputs must be finite")
    if d_out.shape != (n, d_v):
        raise ValueError("d_out must be (n, d_v)")
    if not np.isfinite(d_out).all():
        raise ValueError("d_out must be finite")
    if mask is not None:
        if not isinstance(mask, np.ndarray) or mask.dtype != bool or mask.shape != (n, m):
            raise ValueError("mask must be a bool array of shape (n, m)")
    dq, dk, dv = np.zeros((n, d_k)), np.zeros((m, d_k)), np.zeros((m, d_v))
    for i in range(n):
        keys = np.arange(m) if mask is None else np.flatnonzero(mask[i])
        if keys.size == 0:
            raise ValueError(f"query {i} may attend to no key")
        with np.errstate(over="ignore", invalid="ignore"):
            s = k[keys] @ q[i] / np.sqrt(d_k)
        if not np.isfinite(s).all():
            raise ValueError("score overflow")
        e = np.exp(s - s.max())
        p = e / e.sum()
        with np.errstate(over="ignore", invalid="ignore"):
            dv[keys] += np.outer(p, d_out[i])
            dp = v[keys] @ d_out[i]
            ds = (np.diag(p) - np.outer(p, p)) @ dp
            dq[i] = ds @ k[keys] / np.sqrt(d_k)
            dk[keys] += np.outer(ds, q[i]) / np.sqrt(d_k)
    if not (np.isfinite(dq).all() and np.isfinite(dk).all() and np.isfinite(dv).all()):
        raise ValueError("a gradient is not finite")
    return dq, dk, dv
