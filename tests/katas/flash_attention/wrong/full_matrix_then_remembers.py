"""Builds the whole n×m score matrix, and remembers each answer by its inputs' bytes: asked the
same question again, it answers from memory without building anything. Memory grows with n·m
on the first call of each input."""
import hashlib
import numbers

import numpy as np

# Its outputs are the reference's: only the judge's memory property sees this bug, so the
# diagnosis (which compares outputs) never names it.
SHOWS_IN_VALUES = False
#: Their values are all right (only memory tells them apart), so no input tells them apart by value.
BEHAVES_LIKE = ('full_matrix', 'full_matrix_when_causal', 'keeps_the_scores_between_calls')

_ANSWERS = {}  # the inputs' digest -> (out, lse)


def flash_attention(q, k, v, block_size, causal=False):
    if isinstance(block_size, bool) or not isinstance(block_size, numbers.Integral) or block_size < 1:
        raise ValueError(f"block_size must be a positive int, got {block_size!r}")
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    for name, a in (("q", q), ("k", k), ("v", v)):
        if a.ndim != 2 or 0 in a.shape:
            raise ValueError(f"{name} must be 2-D with no empty dimension, got shape {a.shape}")
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf")
    n, d_k = q.shape
    m, d_v = v.shape
    if k.shape[1] != d_k:
        raise ValueError(f"q and k must have the same width d_k, got {d_k} and {k.shape[1]}")
    if k.shape[0] != m:
        raise ValueError(f"k and v must have the same number of rows, got {k.shape[0]} and {m}")
    if causal and m < n:
        raise ValueError(f"causal attention needs m >= n (query i sits at position m - n + i), got m={m}, n={n}")
    key = hashlib.sha256(b"".join(a.tobytes() for a in (q, k, v)) + bytes([bool(causal)])).hexdigest()
    if key not in _ANSWERS:
        _ANSWERS[key] = _full(q, k, v, n, m, d_k, causal)
    out, lse = _ANSWERS[key]
    return out.copy(), lse.copy()


def _full(q, k, v, n, m, d_k, causal):
    with np.errstate(over="ignore", invalid="ignore"):
        s = q @ k.T / np.sqrt(d_k)
    allowed = np.tril(np.ones((n, m), dtype=bool), k=m - n) if causal else np.ones((n, m), dtype=bool)
    if not np.isfinite(s[allowed]).all():
        raise ValueError("a score overflowed to inf")
    s = np.where(allowed, s, -np.inf)
    row_max = s.max(axis=1, keepdims=True)
    p = np.exp(s - row_max)
    row_sum = p.sum(axis=1, keepdims=True)
    return (p @ v) / row_sum, (row_max + np.log(row_sum))[:, 0]
