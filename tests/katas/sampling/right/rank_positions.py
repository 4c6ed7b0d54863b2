"""Works in token order: each token's position in the rank (the inverse permutation of a mergesort), top-p from the exclusive prefix mass, probs as exp(z - logsumexp), greedy as top-1."""
import operator

import numpy as np


def sample_token(logits, u, temperature=1.0, top_k=None, top_p=None):
    x = np.asarray(logits, dtype=np.float64)
    if x.ndim != 2 or min(x.shape) < 1:
        raise ValueError(f"logits must be 2-D with b, V >= 1, got {x.shape}")
    b, V = x.shape
    u = np.asarray(u, dtype=np.float64)
    if u.shape != (b,):
        raise ValueError(f"u must have shape ({b},)")
    if not np.isfinite(x).all() or not np.isfinite(u).all():
        raise ValueError("logits and u must be finite")
    if not ((u >= 0) & (u < 1)).all():
        raise ValueError("u must be in [0, 1)")
    if type(temperature) is bool or not np.isscalar(temperature) or not np.isreal(temperature) \
            or isinstance(temperature, (str, bytes, np.bool_)):
        raise ValueError("temperature must be a real number")
    if not np.isfinite(temperature) or temperature < 0:
        raise ValueError("temperature must be finite and >= 0")
    if top_k is not None:
        if isinstance(top_k, (bool, np.bool_)):
            raise ValueError("top_k must not be a bool")
        try:
            top_k = operator.index(top_k)                 # ints and NumPy integers only
        except TypeError:
            raise ValueError("top_k must be an int") from None
        if top_k < 1:
            raise ValueError("top_k must be >= 1 (use None to disable it)")
    if top_p is not None:
        if isinstance(top_p, (bool, np.bool_, str, bytes)) or not np.isscalar(top_p) or not np.isreal(top_p):
            raise ValueError("top_p must be a real number")
        if not 0 < top_p <= 1:
            raise ValueError("top_p must be in (0, 1]")

    if temperature == 0:
        z = x
        top_k, top_p = 1, None  # greedy is top-1 of the rank
    else:
        z = x / float(temperature)
        if not np.isfinite(z).all():
            raise ValueError("logits / temperature overflows")
    # position[r, t]: token t's place in row r's rank (the inverse of a stable sort of -z)
    order = np.argsort(-z, axis=1, kind="mergesort")
    position = np.empty((b, V), dtype=np.int64)
    np.put_along_axis(position, order, np.broadcast_to(np.arange(V), (b, V)), axis=1)
    keep = np.ones((b, V), dtype=bool) if top_k is None else position < top_k
    if top_p is not None and top_p < 1:
        zk = np.where(keep, z, -np.inf)
        w = np.exp(zk - zk.max(axis=1, keepdims=True))
        w = w / w.sum(axis=1, keepdims=True)
        ranked = np.take_along_axis(w, order, axis=1)
        exclusive = np.concatenate([np.zeros((b, 1)), np.cumsum(ranked, axis=1)[:, :-1]], axis=1)
        before = np.take_along_axis(exclusive, position, axis=1)   # mass ranked before each token
        keep &= before < top_p
    zk = np.where(keep, z, -np.inf)
    m = zk.max(axis=1, keepdims=True)
    lse = m + np.log(np.exp(zk - m).sum(axis=1, keepdims=True))
    probs = np.exp(zk - lse)
    cdf = np.cumsum(probs, axis=1) / probs.sum(axis=1, keepdims=True)
    tokens = np.argmax(u[:, None] < cdf, axis=1)
    return tokens, probs
