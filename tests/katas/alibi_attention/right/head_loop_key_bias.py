"""A loop over heads, the bias written as +slope j (a key-only bias: -slope (p_i - j) minus a constant per row, which softmax ignores), the reference product form of the slopes."""
import math

import numpy as np


def get_slopes(n):
    def power_of_2(n):
        start = 2 ** (-(2 ** -(math.log2(n) - 3)))
        return [start * start**i for i in range(n)]

    if math.log2(n).is_integer():
        return power_of_2(n)
    c = 2 ** math.floor(math.log2(n))
    return power_of_2(c) + get_slopes(2 * c)[0::2][: n - c]


def alibi_attention(q, k, v):
    q = np.array(q, dtype=np.float64)
    k = np.array(k, dtype=np.float64)
    v = np.array(v, dtype=np.float64)
    if not (q.ndim == k.ndim == v.ndim == 3):
        raise ValueError("q, k and v must all be 3-D: (heads, tokens, width)")
    if 0 in q.shape + k.shape + v.shape:
        raise ValueError("empty dimension")
    if not (q.shape[0] == k.shape[0] == v.shape[0]):
        raise ValueError("different numbers of heads")
    if q.shape[2] != k.shape[2]:
        raise ValueError("q and k widths differ")
    if k.shape[1] != v.shape[1]:
        raise ValueError("k and v rows differ")
    if not (np.isfinite(q).all() and np.isfinite(k).all() and np.isfinite(v).all()):
        raise ValueError("NaN or inf in the input")
    h, n, d = q.shape
    m = k.shape[1]
    if n > m:
        raise ValueError("more queries than keys")
    mask = np.tril(np.ones((n, m), dtype=bool), k=m - n)
    out = np.empty((h, n, v.shape[2]))
    for head, slope in enumerate(get_slopes(h)):
        with np.errstate(over="ignore", invalid="ignore"):
            scores = q[head] @ k[head].T / math.sqrt(d) + slope * np.arange(m)
        if not np.isfinite(scores[mask]).all():
            raise ValueError(f"head {head}: an allowed score overflows")
        scores[~mask] = -np.inf
        w = np.exp(scores - scores.max(axis=1, keepdims=True))
        out[head] = (w / w.sum(axis=1, keepdims=True)) @ v[head]
    return out
