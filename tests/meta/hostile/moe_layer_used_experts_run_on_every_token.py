"""Skips the experts no token chose, but runs each used expert on every token and multiplies by
a gate matrix that is 0 where a token did not choose it: an expert that overflows on a token that
did not choose it gives 0 * inf = NaN there, and the answer refuses its own out. The judge's
property had an expert no token chose (a blind round, stop 58); an example has one that another
token chose."""
KATA = "moe_layer"
ROUTE = "dojo test"
EXPECT = "raised ValueError on a valid input"  # what the verdict must say

import numpy as np


def moe_layer(x, w_router, w1, w2, top_k):
    x = np.asarray(x, dtype=np.float64)
    w_router = np.asarray(w_router, dtype=np.float64)
    w1 = np.asarray(w1, dtype=np.float64)
    w2 = np.asarray(w2, dtype=np.float64)
    for name, a, rank in (("x", x, 2), ("w_router", w_router, 2), ("w1", w1, 3), ("w2", w2, 3)):
        if a.ndim != rank:
            raise ValueError(f"{name} must be {rank}-D, got shape {a.shape}")
        if 0 in a.shape:
            raise ValueError(f"{name} has a zero dimension: shape {a.shape}; every dimension must be >= 1")
    n, d_model = x.shape
    E = w_router.shape[1]
    d_ff = w1.shape[2]
    if w_router.shape[0] != d_model:
        raise ValueError(f"w_router must be (d_model, E) = ({d_model}, E), got shape {w_router.shape}")
    if w1.shape != (E, d_model, d_ff):
        raise ValueError(f"w1 must be (E, d_model, d_ff) = ({E}, {d_model}, d_ff) for x {x.shape} and "
                         f"w_router {w_router.shape}, got shape {w1.shape}")
    if w2.shape != (E, d_ff, d_model):
        raise ValueError(f"w2 must be (E, d_ff, d_model) = ({E}, {d_ff}, {d_model}), got shape {w2.shape}")
    if not _is_int(top_k) or not 1 <= top_k <= E:
        raise ValueError(f"top_k must be an int in [1, E] = [1, {E}], got {top_k!r}")
    for name, a in (("x", x), ("w_router", w_router), ("w1", w1), ("w2", w2)):
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf; every entry must be finite")

    with np.errstate(over="ignore", invalid="ignore"):
        logits = x @ w_router  # (n, E)
    if not np.isfinite(logits).all():
        raise ValueError("a router logit x @ w_router overflows; scale x or w_router down")
    shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
    probs = shifted / shifted.sum(axis=1, keepdims=True)  # (n, E), the full softmax
    # The choice: a stable sort of -logits keeps tied experts in index order (lower index first).
    chosen = np.argsort(-logits, axis=1, kind="stable")[:, :top_k]  # (n, top_k)
    picked = np.take_along_axis(probs, chosen, axis=1)               # (n, top_k)
    gates = picked / picked.sum(axis=1, keepdims=True)               # Mixtral's renormalisation

    out = np.zeros((n, d_model))
    with np.errstate(over="ignore", invalid="ignore"):
        gate = np.zeros((n, E))
        np.put_along_axis(gate, chosen, gates, axis=1)  # (n, E), 0 where unchosen
        for e in range(E):
            if not gate[:, e].any():
                continue  # no token chose expert e: skip it
            hidden = np.maximum(x @ w1[e], 0.0)  # relu, (n, d_ff)
            out += gate[:, e:e + 1] * (hidden @ w2[e])
    if not np.isfinite(out).all():
        raise ValueError("out is not finite: the experts' products overflow float64")

    counts = np.bincount(chosen.ravel(), minlength=E)  # how many tokens chose each expert
    aux_loss = E * float(np.sum(counts / n * probs.mean(axis=0)))
    return out, aux_loss


def _is_int(v) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))
