"""Writes each token's output into x's row in place (to save memory) and returns x: a float64 x passed in is overwritten."""
import numpy as np


def moe_layer(x, w_router, w1, w2, top_k):
    x = np.asarray(x, dtype=np.float64)  # no copy for a float64 array: the caller's own
    w_router = np.asarray(w_router, dtype=np.float64)
    w1 = np.asarray(w1, dtype=np.float64)
    w2 = np.asarray(w2, dtype=np.float64)
    for name, a, rank in (("x", x, 2), ("w_router", w_router, 2), ("w1", w1, 3), ("w2", w2, 3)):
        if a.ndim != rank or 0 in a.shape:
            raise ValueError(f"{name} must be {rank}-D with no zero dimension, got shape {a.shape}")
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf")
    n, d_model = x.shape
    E, d_ff = w_router.shape[1], w1.shape[2]
    if w_router.shape != (d_model, E) or w1.shape != (E, d_model, d_ff) or w2.shape != (E, d_ff, d_model):
        raise ValueError(f"shapes do not chain: x {x.shape}, w_router {w_router.shape}, w1 {w1.shape}, w2 {w2.shape}")
    if not isinstance(top_k, (int, np.integer)) or isinstance(top_k, bool) or not 1 <= top_k <= E:
        raise ValueError(f"top_k must be an int in [1, {E}], got {top_k!r}")
    with np.errstate(over="ignore", invalid="ignore"):
        logits = x @ w_router
    if not np.isfinite(logits).all():
        raise ValueError("a router logit overflows")
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    probs = p / p.sum(axis=1, keepdims=True)
    chosen = np.argsort(-logits, axis=1, kind="stable")[:, :top_k]
    counts = np.bincount(chosen.ravel(), minlength=E)
    aux_loss = E * float(np.sum(counts / n * probs.mean(axis=0)))
    with np.errstate(over="ignore", invalid="ignore"):
        for i in range(n):
            row = np.zeros(d_model)
            gates = probs[i, chosen[i]] / probs[i, chosen[i]].sum()
            for g, e in zip(gates, chosen[i]):
                row += g * (np.maximum(x[i] @ w1[e], 0.0) @ w2[e])
            x[i] = row  # token i is done: its row of x is reused for its output
    if not np.isfinite(x).all():
        raise ValueError("out is not finite")
    return x, aux_loss
