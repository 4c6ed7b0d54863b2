"""Loops over rows and pairs, applying a 2×2 rotation matrix to each pair."""
import math

import numpy as np


def apply_rope(x, positions, base=10000.0, interleaved=False):
    x = np.asarray(x, dtype=np.float64)
    if x.ndim != 2 or min(x.shape) == 0:
        raise ValueError("x must be 2-D and non-empty")
    n, d = x.shape
    if d % 2 == 1:
        raise ValueError("d must be even")
    if not np.isfinite(x).all():
        raise ValueError("x must be finite")
    pos = np.asarray(positions)
    if pos.shape != (n,):
        raise ValueError("positions must have shape (n,)")
    if pos.dtype.kind not in ("i", "u"):
        raise ValueError("positions must have an integer dtype")
    if (pos < 0).any():
        raise ValueError("positions must be >= 0")
    if isinstance(base, (bool, np.bool_)) or not isinstance(base, (int, float, np.integer, np.floating)):
        raise ValueError("base must be a number")
    if not math.isfinite(base) or base <= 0:
        raise ValueError("base must be finite and > 0")
    out = np.zeros((n, d))
    for r in range(n):
        for i in range(d // 2):
            angle = int(pos[r]) * base ** (-2 * i / d)
            c, s = math.cos(angle), math.sin(angle)
            j, k = (2 * i, 2 * i + 1) if interleaved else (i, i + d // 2)
            rot = np.array([[c, -s], [s, c]])
            out[r, j], out[r, k] = rot @ np.array([x[r, j], x[r, k]])
    return out
