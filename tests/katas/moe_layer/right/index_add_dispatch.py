"""Dispatch by sorting the (token, expert) assignments by expert, run each expert once, combine with np.add.at."""
import operator

import numpy as np


def moe_layer(x, w_router, w1, w2, top_k):
    try:
        if isinstance(top_k, (bool, np.bool_)):
            raise TypeError
        k = operator.index(top_k)  # ints and NumPy integers only
    except TypeError:
        raise ValueError(f"top_k must be an integer, got {top_k!r}") from None
    x = np.array(x, dtype=np.float64, copy=True)
    w_router, w1, w2 = (np.asarray(a, dtype=np.float64) for a in (w_router, w1, w2))
    for name, a, nd in (("x", x, 2), ("w_router", w_router, 2), ("w1", w1, 3), ("w2", w2, 3)):
        if a.ndim != nd:
            raise ValueError(f"{name} should have {nd} axes, has {a.ndim}")
        if not all(a.shape):
            raise ValueError(f"{name} has an empty axis: {a.shape}")
        if not np.isfinite(a).all():
            raise ValueError(f"{name} is not finite")
    n, d_model = x.shape
    E = w_router.shape[1]
    if w_router.shape[0] != d_model or w1.shape[:2] != (E, d_model) or w2.shape != (E, w1.shape[2], d_model):
        raise ValueError("the weights' shapes do not match x and each other")
    if not 1 <= k <= E:
        raise ValueError(f"top_k must lie in [1, {E}]")
    with np.errstate(over="ignore", invalid="ignore"):
        logits = x @ w_router
    if not np.isfinite(logits).all():
        raise ValueError("router logits overflow")
    probs = np.exp(logits - logits.max(axis=1)[:, None])
    probs /= probs.sum(axis=1)[:, None]
    chosen = np.argsort(-logits, axis=1, kind="mergesort")[:, :k]  # mergesort is stable
    weights = np.take_along_axis(probs, chosen, axis=1)
    weights = weights / weights.sum(axis=1)[:, None]
    token_of = np.repeat(np.arange(n), k)
    expert_of = chosen.reshape(-1)
    weight_of = weights.reshape(-1)
    order = np.argsort(expert_of, kind="stable")
    token_of, expert_of, weight_of = token_of[order], expert_of[order], weight_of[order]
    bounds = np.searchsorted(expert_of, np.arange(E + 1))
    out = np.zeros_like(x)
    with np.errstate(over="ignore", invalid="ignore"):
        for e in range(E):
            lo, hi = bounds[e], bounds[e + 1]
            if lo == hi:
                continue
            toks = token_of[lo:hi]
            y = np.maximum(x[toks] @ w1[e], 0.0) @ w2[e]
            np.add.at(out, toks, weight_of[lo:hi, None] * y)
    if not np.isfinite(out).all():
        raise ValueError("out is not finite")
    load = np.bincount(expert_of, minlength=E) / n
    return out, float(E * np.sum(load * probs.mean(axis=0)))
