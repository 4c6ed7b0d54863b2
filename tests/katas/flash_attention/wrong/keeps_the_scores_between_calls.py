"""Computes the whole n×m score matrix into a buffer it allocates on the first call of each size
and keeps in the module for later calls (no new memory after the first call), and takes the
softmax in place there: one n×m matrix held all the time."""
import numbers

import numpy as np

# Its outputs are the reference's: only the judge's memory property sees this bug, so the
# diagnosis (which compares outputs) never names it.
SHOWS_IN_VALUES = False
#: Their values are all right (only memory tells them apart), so no input tells them apart by value.
BEHAVES_LIKE = ('full_matrix', 'full_matrix_when_causal', 'full_matrix_then_remembers')

_BUFFERS = {}  # (n, m) -> an (n, m) float64 buffer, kept between calls


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
    s = _BUFFERS.get((n, m))
    if s is None:
        s = _BUFFERS[(n, m)] = np.empty((n, m))
    with np.errstate(over="ignore", invalid="ignore"):
        np.matmul(q, k.T, out=s)
        s /= np.sqrt(d_k)
    for i in range(n):  # the allowed scores of each row must be finite
        allowed = s[i, : m - n + i + 1] if causal else s[i]
        if not np.isfinite(allowed).all():
            raise ValueError("a score overflowed to inf")
        if causal:
            s[i, m - n + i + 1 :] = -np.inf
    row_max = s.max(axis=1, keepdims=True)
    s -= row_max
    np.exp(s, out=s)
    row_sum = s.sum(axis=1, keepdims=True)
    return (s @ v) / row_sum, (row_max + np.log(row_sum))[:, 0]
