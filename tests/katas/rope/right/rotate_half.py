"""The Hugging Face way: full-width cos/sin tables and x * cos + rotate_half(x) * sin, with a permutation for interleaved."""
import numpy as np


def _rotate_half(x):
    h = x.shape[-1] // 2
    return np.concatenate([-x[:, h:], x[:, :h]], axis=-1)


def apply_rope(x, positions, base=10000.0, interleaved=False):
    x = np.array(x, dtype=np.float64)  # a copy
    if x.ndim != 2 or x.shape[0] == 0 or x.shape[1] == 0:
        raise ValueError("x must be a non-empty 2-D array")
    n, d = x.shape
    if d % 2 != 0:
        raise ValueError("odd d")
    if np.isnan(x).any() or np.isinf(x).any():
        raise ValueError("x has NaN/inf")
    positions = np.asarray(positions)
    if positions.ndim != 1 or len(positions) != n:
        raise ValueError("positions must be (n,)")
    if not np.issubdtype(positions.dtype, np.integer) or positions.dtype == bool:
        raise ValueError("positions must be integers")
    if positions.min() < 0:
        raise ValueError("negative position")
    if not isinstance(base, (int, float, np.integer, np.floating)):
        raise ValueError("base must be a number")
    if not np.isfinite(base) or not base > 0:
        raise ValueError("bad base")
    inv_freq = 1.0 / (base ** (np.arange(0, d, 2, dtype=np.float64) / d))
    freqs = np.outer(positions, inv_freq)
    emb = np.concatenate([freqs, freqs], axis=-1)
    perm = np.concatenate([np.arange(0, d, 2), np.arange(1, d, 2)]) if interleaved else np.arange(d)
    xh = x[:, perm]
    rotated = xh * np.cos(emb) + _rotate_half(xh) * np.sin(emb)
    out = np.empty_like(rotated)
    out[:, perm] = rotated
    return out
