"""Vectorised with np.lexsort for the rank, np.searchsorted for both the top-p cut and the token; int32 tokens."""
import numpy as np


def _is_bool(v):
    return isinstance(v, (bool, np.bool_))


def sample_token(logits, u, temperature=1.0, top_k=None, top_p=None):
    x = np.asarray(logits, dtype=np.float64)
    if x.ndim != 2 or x.size == 0:
        raise ValueError("logits must be a non-empty 2-D array")
    b, V = x.shape
    u = np.asarray(u, dtype=np.float64)
    if u.ndim != 1 or len(u) != b:
        raise ValueError("u must be 1-D with one entry per row")
    if not (np.all(np.isfinite(x)) and np.all(np.isfinite(u))):
        raise ValueError("non-finite logits or u")
    if np.any(u < 0) or np.any(u >= 1):
        raise ValueError("u outside [0, 1)")
    if _is_bool(temperature) or not isinstance(temperature, (int, float, np.integer, np.floating)):
        raise ValueError("temperature must be a real number")
    if not np.isfinite(temperature) or temperature < 0:
        raise ValueError("temperature must be finite and >= 0")
    if top_k is not None and (_is_bool(top_k) or not isinstance(top_k, (int, np.integer)) or top_k < 1):
        raise ValueError("top_k must be None or an int >= 1")
    if top_p is not None and (_is_bool(top_p) or not isinstance(top_p, (int, float, np.integer, np.floating))
                              or not 0 < top_p <= 1):
        raise ValueError("top_p must be None or in (0, 1]")

    if temperature == 0:
        probs = (np.arange(V)[None, :] == x.argmax(axis=1)[:, None]).astype(np.float64)
    else:
        z = x / temperature
        if not np.all(np.isfinite(z)):
            raise ValueError("logits / temperature is not finite")
        idx = np.broadcast_to(np.arange(V), (b, V))
        order = np.lexsort((idx, -z), axis=1)           # by -z, then by index
        zs = np.take_along_axis(z, order, axis=1)
        k = V if top_k is None else min(int(top_k), V)   # tokens kept per row, rank positions 0..k-1
        count = np.full(b, k)
        if top_p is not None and top_p < 1:
            e = np.exp(zs[:, :k] - zs[:, :1])
            cum = np.cumsum(e / e.sum(axis=1, keepdims=True), axis=1)
            # the shortest prefix reaching top_p: the first position j with cum[j] >= top_p
            count = np.array([min(int(np.searchsorted(c, top_p, side="left")) + 1, k) for c in cum])
        kept = np.arange(V)[None, :] < count[:, None]
        e = np.where(kept, np.exp(zs - zs[:, :1]), 0.0)
        sorted_probs = e / e.sum(axis=1, keepdims=True)
        probs = np.empty_like(sorted_probs)
        np.put_along_axis(probs, order, sorted_probs, axis=1)
    cdf = np.cumsum(probs, axis=1)
    tokens = np.array([np.searchsorted(c / c[-1], ur, side="right") for c, ur in zip(cdf, u)], dtype=np.int32)
    return np.minimum(tokens, V - 1).astype(np.int32), probs
