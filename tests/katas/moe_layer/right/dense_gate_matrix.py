"""Dense: every expert on every token with einsum, combined by an (n, E) gate matrix; logsumexp gates."""
import numbers

import numpy as np


def moe_layer(x, w_router, w1, w2, top_k):
    x, w_router, w1, w2 = (np.asarray(a, dtype=np.float64) for a in (x, w_router, w1, w2))
    if x.ndim != 2 or w_router.ndim != 2 or w1.ndim != 3 or w2.ndim != 3:
        raise ValueError("x and w_router must be 2-D, w1 and w2 3-D")
    if min(x.shape + w_router.shape + w1.shape + w2.shape) == 0:
        raise ValueError("every dimension must be at least 1")
    n, d_model = x.shape
    E = w_router.shape[1]
    d_ff = w1.shape[2]
    if w_router.shape != (d_model, E) or w1.shape != (E, d_model, d_ff) or w2.shape != (E, d_ff, d_model):
        raise ValueError("w_router (d_model, E), w1 (E, d_model, d_ff) and w2 (E, d_ff, d_model) must chain")
    if isinstance(top_k, bool) or not isinstance(top_k, numbers.Integral) or not 0 < top_k <= E:
        raise ValueError(f"top_k must be an integer between 1 and E = {E}")
    if not all(np.isfinite(a).all() for a in (x, w_router, w1, w2)):
        raise ValueError("inputs must be finite")
    with np.errstate(all="ignore"):
        logits = np.einsum("nd,de->ne", x, w_router)
    if not np.isfinite(logits).all():
        raise ValueError("router logits overflow")
    m = logits.max(axis=1, keepdims=True)
    log_probs = logits - m - np.log(np.exp(logits - m).sum(axis=1, keepdims=True))
    # rank by (logit descending, index ascending) with lexsort: the last key is the primary one
    idx = np.arange(E)
    chosen = np.stack([np.lexsort((idx, -row))[:top_k] for row in logits])  # (n, top_k)
    mask = np.zeros((n, E), dtype=bool)
    np.put_along_axis(mask, chosen, True, axis=1)
    masked = np.where(mask, logits, -np.inf)
    mm = masked.max(axis=1, keepdims=True)
    gates = np.where(mask, np.exp(masked - mm), 0.0)
    gates /= gates.sum(axis=1, keepdims=True)  # (n, E), zero off the chosen experts
    with np.errstate(all="ignore"):
        hidden = np.maximum(np.einsum("nd,edf->enf", x, w1), 0)
        y = np.einsum("enf,efd->end", hidden, w2)
        out = np.einsum("ne,end->nd", gates, np.where(mask.T[:, :, None], y, 0.0))
    if not np.isfinite(out).all():
        raise ValueError("out overflows")
    f = mask.mean(axis=0)
    P = np.exp(log_probs).mean(axis=0)
    return out, E * float(f @ P)
