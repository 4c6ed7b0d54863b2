"""Everything in einsum, with the scale folded into q once."""
import numpy as np


def attention_backward(q, k, v, d_out, mask=None):
    q, k, v, d_out = (np.asarray(a, dtype=np.float64) for a in (q, k, v, d_out))
    for a in (q, k, v):
        if a.ndim != 2 or 0 in a.shape:
            raise ValueError("q, k, v must be non-empty 2-D arrays")
        if not np.all(np.isfinite(a)):
            raise ValueError("non-finite input")
    n, m, d_k, d_v = q.shape[0], k.shape[0], q.shape[1], v.shape[1]
    if k.shape[1] != d_k or v.shape[0] != m:
        raise ValueError("shapes of q, k, v do not fit")
    if d_out.shape != (n, d_v) or not np.all(np.isfinite(d_out)):
        raise ValueError("d_out must be a finite (n, d_v) array")
    allowed = np.ones((n, m), bool) if mask is None else np.asarray(mask)
    if allowed.dtype != bool or allowed.shape != (n, m) or not allowed.any(axis=1).all():
        raise ValueError("bad mask")
    c = 1.0 / np.sqrt(d_k)
    with np.errstate(all="ignore"):
        s = np.einsum("id,jd->ij", q * c, k)
    if not np.all(np.isfinite(s[allowed])):
        raise ValueError("score overflow")
    s = np.where(allowed, s, -np.inf)
    p = np.exp(s - s.max(axis=1, keepdims=True))
    p = p / p.sum(axis=1, keepdims=True)
    with np.errstate(all="ignore"):
        dv = np.einsum("ij,ie->je", p, d_out)
        dp = np.einsum("ie,je->ij", d_out, v)
        ds = p * (dp - np.einsum("ij,ij->i", dp, p)[:, None])
        dq = np.einsum("ij,jd->id", ds, k) * c
        dk = np.einsum("ij,id->jd", ds, q) * c
    if not (np.isfinite(dq).all() and np.isfinite(dk).all() and np.isfinite(dv).all()):
        raise ValueError("a gradient overflowed")
    return dq, dk, dv
