"""A realistic bug that passed every property (stop 53's blind hostile round): it treats any temperature under 0.01 as greedy: at 0.005, logits 0.01 apart are z = 2 apart, far from
a one-hot. The judge drew temperatures of 0 and 0.05 or more.
The draw is there now; this file keeps it caught."""
KATA = "sampling"
ROUTE = "dojo test"  # a wrong value: the same properties whichever route runs them
EXPECT = "is wrong"  # what the verdict must say

import numbers

import numpy as np

GREEDY_BELOW = 1e-2


def _is_real(x):
    return isinstance(x, (numbers.Real, np.floating, np.integer)) and not isinstance(x, (bool, np.bool_))


def sample_token(logits, u, temperature=1.0, top_k=None, top_p=None):
    x = np.array(logits, dtype=np.float64)
    if x.ndim != 2 or 0 in x.shape:
        raise ValueError(f"logits must be 2-D (b, V) with b, V >= 1, got shape {x.shape}")
    b, V = x.shape
    uu = np.array(u, dtype=np.float64)
    if uu.shape != (b,):
        raise ValueError(f"u must have shape ({b},), got {uu.shape}")
    if not np.isfinite(x).all():
        raise ValueError("logits contains NaN or inf")
    if not np.isfinite(uu).all():
        raise ValueError("u contains NaN or inf")
    if ((uu < 0) | (uu >= 1)).any():
        raise ValueError("every entry of u must lie in [0, 1)")
    if not _is_real(temperature) or not np.isfinite(float(temperature)) or float(temperature) < 0:
        raise ValueError(f"temperature must be a finite real >= 0, got {temperature!r}")
    if top_k is not None:
        if isinstance(top_k, (bool, np.bool_)) or not isinstance(top_k, (int, np.integer)) or top_k < 1:
            raise ValueError(f"top_k must be None or an int >= 1, got {top_k!r}")
    if top_p is not None:
        if not _is_real(top_p) or not (0 < float(top_p) <= 1):
            raise ValueError(f"top_p must be None or a real in (0, 1], got {top_p!r}")
    T = float(temperature)
    rows = np.arange(b)
    if T == 0:
        tok = np.argmax(x, axis=1)
        probs = np.zeros((b, V))
        probs[rows, tok] = 1.0
        return tok.astype(np.int64), probs
    with np.errstate(over="ignore"):
        z = x / T
    if not np.isfinite(z).all():
        raise ValueError("logits / temperature overflows: the temperature is too small")
    if T < GREEDY_BELOW:  # "close enough to 0": greedy
        tok = np.argmax(z, axis=1)
        probs = np.zeros((b, V))
        probs[rows, tok] = 1.0
        return tok.astype(np.int64), probs
    order = np.argsort(-z, axis=1, kind="stable")
    zs = np.take_along_axis(z, order, axis=1)
    keep = np.ones((b, V), dtype=bool)
    if top_k is not None and top_k < V:
        keep[:, int(top_k):] = False
    if top_p is not None and float(top_p) < 1:
        w = np.where(keep, np.exp(zs - zs[:, :1]), 0.0)
        w = w / w.sum(axis=1, keepdims=True)
        c = np.cumsum(w, axis=1)
        count = np.argmax(c >= float(top_p), axis=1) + 1
        count = np.where((c >= float(top_p)).any(axis=1), count, keep.sum(axis=1))
        keep &= np.arange(V)[None, :] < count[:, None]
    e = np.where(keep, np.exp(zs - zs[:, :1]), 0.0)
    ps = e / e.sum(axis=1, keepdims=True)
    probs = np.zeros((b, V))
    np.put_along_axis(probs, order, ps, axis=1)
    cdf = np.cumsum(probs, axis=1)
    cdf = cdf / cdf[:, -1:]
    tok = np.array([np.searchsorted(cdf[r], uu[r], side="right") for r in range(b)], dtype=np.int64)
    tok = np.minimum(tok, V - 1)
    return tok, probs
