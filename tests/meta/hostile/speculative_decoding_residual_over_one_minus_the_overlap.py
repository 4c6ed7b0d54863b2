"""The residual divided by 1 - sum(min(p, q)), the paper's normaliser, not by its own sum: for rows
summing to 1 - 9e-7 its CDF ends below 1, and u_sample = 0.9999999 falls on the last token, of
weight 0 (a blind round, stop 58); an example has it now."""
KATA = "speculative_decoding"
ROUTE = "dojo test"
EXPECT = "the reference"  # what the verdict must say

import numpy as np


def speculative_verify(draft_tokens, q, p, u_accept, u_sample):
    x = np.asarray(draft_tokens)
    if x.ndim != 1:
        raise ValueError(f"draft_tokens must be 1-D (k,), got shape {x.shape}")
    if x.size == 0:
        x = x.astype(np.int64)  # [] arrives as float64: k = 0 is allowed
    elif x.dtype.kind not in "iu":
        raise ValueError(f"draft_tokens must hold integers (token ids), got dtype {x.dtype}")
    k = x.shape[0]
    p = np.asarray(p, dtype=np.float64)
    if p.ndim != 2 or p.shape[0] != k + 1 or p.shape[1] < 1:
        raise ValueError(f"p must have shape (k + 1, V) = ({k + 1}, V) with V >= 1 for k = {k} drafts, "
                         f"got shape {p.shape}")
    V = p.shape[1]
    q = np.asarray(q, dtype=np.float64)
    if q.shape != (k, V):
        raise ValueError(f"q must have shape (k, V) = ({k}, {V}) (k drafts, p's V), got shape {q.shape}")
    for name, a in (("q", q), ("p", p)):
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf; each row must be a probability distribution")
        if (a < 0).any():
            raise ValueError(f"{name} has a negative entry ({a.min()}); probabilities are >= 0")
        off = np.abs(a.sum(axis=1) - 1.0)
        if (off > 1e-6).any():
            i = int(np.argmax(off))
            raise ValueError(f"row {i} of {name} sums to {a[i].sum()!r}, not 1 (within 1e-6)")
    if ((x < 0) | (x >= V)).any():
        raise ValueError(f"draft_tokens must lie in [0, V) = [0, {V}), got {x[(x < 0) | (x >= V)][0]}")
    rows = np.arange(k)
    drafted = q[rows, x]  # (k,) q[i, x_i]
    if (drafted == 0).any():
        i = int(np.flatnonzero(drafted == 0)[0])
        raise ValueError(f"q[{i}, {x[i]}] is 0: the draft model cannot have drawn token {x[i]} at draft {i}")
    u_accept = np.asarray(u_accept, dtype=np.float64)
    if u_accept.shape != (k,):
        raise ValueError(f"u_accept must have shape ({k},): one uniform per draft, got shape {u_accept.shape}")
    if not np.isfinite(u_accept).all() or ((u_accept < 0) | (u_accept >= 1)).any():
        raise ValueError("every u_accept must be a number in [0, 1)")
    if not _is_real(u_sample) or not 0 <= u_sample < 1:
        raise ValueError(f"u_sample must be a real in [0, 1) (never a bool), got {u_sample!r}")

    ratio = p[rows, x] / drafted                 # (k,) p[i, x_i] / q[i, x_i]
    accepted = np.cumprod(u_accept < ratio)      # 1 up to the first rejection, 0 from it on
    n = int(accepted.sum())                      # drafts accepted
    if n == k:
        w = p[k]                                 # all accepted: the bonus token from p[k]
    else:
        w = np.maximum(p[n] - q[n], 0.0) / (1.0 - np.minimum(p[n], q[n]).sum())  # the paper's normalised residual
    cdf = np.cumsum(w)
    if n == k:
        cdf /= cdf[-1]
    token = min(int((cdf <= u_sample).sum()), V - 1)  # the smallest t with u_sample < C_t
    return np.append(x[:n], token).astype(np.int64)


def _is_real(v) -> bool:
    return isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))
