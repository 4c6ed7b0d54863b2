"""One row at a time: the rank from Python's sorted with key (-z, index), top-p by walking the rank, log-sum-exp probabilities."""
import math
import numbers

import numpy as np


class SamplingError(ValueError):
    """A subclass of ValueError is allowed by the contract."""


def _real(v):
    return isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_))


def sample_token(logits, u, temperature=1.0, top_k=None, top_p=None):
    logits = np.array(logits, dtype=np.float64)  # a copy: the caller's array is never touched
    if logits.ndim != 2 or logits.shape[0] == 0 or logits.shape[1] == 0:
        raise SamplingError(f"logits must be (b, V) with b, V >= 1, got {logits.shape}")
    b, V = logits.shape
    u = np.array(u, dtype=np.float64)
    if u.shape != (b,):
        raise SamplingError(f"u must have shape ({b},), got {u.shape}")
    if np.isnan(logits).any() or np.isinf(logits).any() or np.isnan(u).any() or np.isinf(u).any():
        raise SamplingError("logits and u must be finite")
    if u.min() < 0 or u.max() >= 1:
        raise SamplingError("u must lie in [0, 1)")
    if not _real(temperature) or math.isnan(temperature) or math.isinf(temperature) or temperature < 0:
        raise SamplingError(f"bad temperature {temperature!r}")
    if top_k is not None:
        if isinstance(top_k, (bool, np.bool_)) or not isinstance(top_k, numbers.Integral) or top_k < 1:
            raise SamplingError(f"bad top_k {top_k!r}")
    if top_p is not None:
        if not _real(top_p) or not (0 < top_p <= 1):
            raise SamplingError(f"bad top_p {top_p!r}")
    if temperature > 0:
        z = logits / temperature
        if not np.isfinite(z).all():
            raise SamplingError("logits / temperature overflows")

    probs = np.zeros((b, V))
    tokens = np.zeros(b, dtype=np.int64)
    for r in range(b):
        if temperature == 0:
            best = max(range(V), key=lambda t: (logits[r, t], -t))
            probs[r, best] = 1.0
        else:
            rank = sorted(range(V), key=lambda t: (-z[r, t], t))
            kept = rank if top_k is None else rank[:top_k]
            if top_p is not None and top_p < 1:
                zk = z[r, kept]
                lse = zk.max() + math.log(np.exp(zk - zk.max()).sum())
                mass, count = 0.0, 0
                for value in zk:
                    if mass >= top_p:
                        break
                    mass += math.exp(value - lse)
                    count += 1
                kept = kept[:count]
            zk = z[r, kept]
            lse = zk.max() + math.log(np.exp(zk - zk.max()).sum())
            probs[r, kept] = np.exp(zk - lse)
        c = np.cumsum(probs[r])
        c = c / c[-1]
        t = 0
        while t < V - 1 and not u[r] < c[t]:
            t += 1
        tokens[r] = t
    return tokens, probs
