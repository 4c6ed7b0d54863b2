"""Fills blocked scores with finfo.min instead of -inf, after an explicit overflow check, and zeroes
their weights after exp() (an allowed score can be finfo.min too: a fill that ties with it would
take half its weight)."""
import operator

import numpy as np


def multihead_attention(x, w_q, w_k, w_v, w_o, num_heads, causal=False):
    if isinstance(num_heads, (bool, np.bool_)):
        raise ValueError("num_heads must not be a bool")
    try:
        h = operator.index(num_heads)  # rejects floats, accepts ints
    except TypeError:
        raise ValueError(f"num_heads must be an integer, got {num_heads!r}") from None
    if h <= 0:
        raise ValueError("num_heads must be positive")
    named = {}
    for name, a in zip(["x", "w_q", "w_k", "w_v", "w_o"], [x, w_q, w_k, w_v, w_o]):
        a = np.asarray(a, dtype=np.float64)
        if not np.isfinite(a).all():
            raise ValueError(f"{name} is not finite")
        if a.ndim != 2:
            raise ValueError(f"{name} must be 2-D")
        if a.shape[0] == 0 or a.shape[1] == 0:
            raise ValueError(f"{name} has an empty dimension")
        named[name] = a
    x = named["x"]
    n, d_model = x.shape
    if named["w_q"].shape[1] != named["w_k"].shape[1]:
        raise ValueError("w_q and w_k must have the same number of columns")
    for name in ("w_q", "w_k", "w_v"):
        rows, cols = named[name].shape
        if rows != d_model:
            raise ValueError(f"{name} must have {d_model} rows")
        if cols % h:
            raise ValueError(f"{name} has {cols} columns, not a multiple of num_heads={h}")
    d_k = named["w_q"].shape[1] // h
    d_v = named["w_v"].shape[1] // h
    w_o_rows = named["w_o"].shape[0]
    if w_o_rows != h * d_v:
        raise ValueError(f"w_o must have {h * d_v} rows, not {w_o_rows}")

    def split(a, d):  # (n, h*d) -> (h, n, d)
        return np.stack([a[:, i * d:(i + 1) * d] for i in range(h)])

    q = split(x @ named["w_q"], d_k) / np.sqrt(d_k)
    k = split(x @ named["w_k"], d_k)
    v = split(x @ named["w_v"], d_v)
    with np.errstate(over="ignore", invalid="ignore"):
        scores = q @ k.transpose(0, 2, 1)
    allowed = ~np.triu(np.ones((n, n), dtype=bool), 1) if causal else np.ones((n, n), dtype=bool)
    if not np.isfinite(scores[:, allowed]).all():
        raise ValueError("attention scores overflowed to inf")
    scores = np.where(allowed, scores, np.finfo(np.float64).min)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.where(allowed, np.exp(scores), 0.0)  # a filled key that ties an allowed score gets none
    weights = weights / weights.sum(axis=-1, keepdims=True)
    heads = weights @ v  # (h, n, d_v)
    return np.hstack(list(heads)) @ named["w_o"], weights
