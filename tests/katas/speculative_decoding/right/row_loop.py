"""A plain loop over the drafts with an early return; the inverse CDF by a running sum per row."""
import numbers

import numpy as np


def _draw(w, u):
    """The smallest t with u < C_t, C_t = (w_0 + ... + w_t) / sum(w)."""
    c = np.cumsum(w) / np.sum(w)
    above = np.flatnonzero(u < c)
    return int(above[0]) if above.size else len(w) - 1


def speculative_verify(draft_tokens, q, p, u_accept, u_sample):
    drafts = np.asarray(draft_tokens)
    if drafts.ndim != 1:
        raise ValueError("draft_tokens must be a 1-D array of token ids")
    if len(drafts) and not np.issubdtype(drafts.dtype, np.integer):
        raise ValueError(f"draft_tokens must be integers, not {drafts.dtype}")
    drafts = drafts.astype(np.int64)
    k = len(drafts)
    q = np.array(q, dtype=np.float64)
    p = np.array(p, dtype=np.float64)
    if p.ndim != 2 or p.shape[0] != k + 1 or p.shape[1] == 0:
        raise ValueError("p must be (k + 1, V) with V >= 1")
    V = p.shape[1]
    if q.ndim != 2 or q.shape != (k, V):
        raise ValueError("q must be (k, V)")
    for name, rows in (("q", q), ("p", p)):
        for r, row in enumerate(rows):
            if not np.all(np.isfinite(row)) or np.any(row < 0):
                raise ValueError(f"{name}[{r}] must be finite and >= 0")
            if abs(row.sum() - 1.0) > 1e-6:
                raise ValueError(f"{name}[{r}] must sum to 1")
    u_acc = np.array(u_accept, dtype=np.float64)
    if u_acc.shape != (k,):
        raise ValueError("u_accept must have shape (k,)")
    if np.isnan(u_acc).any() or (u_acc < 0).any() or (u_acc >= 1).any():
        raise ValueError("u_accept must lie in [0, 1)")
    if isinstance(u_sample, (bool, np.bool_)) or not isinstance(u_sample, numbers.Real):
        raise ValueError("u_sample must be a real number")
    if not (0.0 <= float(u_sample) < 1.0):
        raise ValueError("u_sample must lie in [0, 1)")
    out = []
    for i in range(k):
        t = int(drafts[i])
        if t < 0 or t >= V:
            raise ValueError(f"draft {i} = {t} is not a token id in [0, {V})")
        if q[i, t] == 0:
            raise ValueError(f"q[{i}, {t}] = 0: the draft cannot have been drawn")
    for i in range(k):
        t = int(drafts[i])
        if u_acc[i] < p[i, t] / q[i, t]:
            out.append(t)
            continue
        out.append(_draw(np.maximum(p[i] - q[i], 0.0), float(u_sample)))
        return np.array(out, dtype=np.int64)
    out.append(_draw(p[k], float(u_sample)))
    return np.array(out, dtype=np.int64)
