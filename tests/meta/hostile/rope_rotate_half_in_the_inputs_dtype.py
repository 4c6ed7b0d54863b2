"""A realistic bug that passed every property (stop 56's blind round): Hugging
Face's rotate_half on np.asarray(x) without float64, so half of a uint8 x is negated in uint8,
which wraps. The forms drawn for x were float32, int64 and a list.
Every form, int8 and uint8 included, is tried on every example now; this file keeps it caught."""
KATA = "rope"
ROUTE = "dojo test"
EXPECT = 'uint8'  # what the verdict must say

import numbers

import numpy as np


def apply_rope(x, positions, base=10000.0, interleaved=False):
    x = np.asarray(x)
    if x.ndim != 2 or 0 in x.shape:
        raise ValueError(f"x must be 2-D with no empty dimension, got shape {x.shape}")
    n, d = x.shape
    if d % 2:
        raise ValueError(f"the width d of x must be even (pairs of columns), got {d}")
    if not np.isfinite(x).all():
        raise ValueError("x contains NaN or inf")
    positions = np.asarray(positions)
    if positions.shape != (n,):
        raise ValueError(f"positions must have shape (n,) = ({n},), got {positions.shape}")
    if positions.dtype == np.bool_ or not np.issubdtype(positions.dtype, np.integer):
        raise ValueError(f"positions must be integers, got dtype {positions.dtype}")
    if (positions < 0).any():
        raise ValueError("positions must be non-negative")
    if isinstance(base, bool) or not isinstance(base, numbers.Real) or not np.isfinite(base) or base <= 0:
        raise ValueError(f"base must be a finite number > 0, got {base!r}")

    half = d // 2
    theta = float(base) ** (-2.0 * np.arange(half) / d)  # (d/2,)
    angle = positions.astype(np.float64)[:, None] * theta  # (n, d/2)
    cos, sin = np.cos(angle), np.sin(angle)  # (n, d/2) each
    cos, sin = np.concatenate([cos, cos], axis=1), np.concatenate([sin, sin], axis=1)  # (n, d)
    if interleaved:
        # the same trick on the interleaved layout: (a, b) -> (-b, a) pair by pair
        rotated = np.stack([-x[:, 1::2], x[:, 0::2]], axis=-1).reshape(n, d)
        cos_i, sin_i = (np.repeat(t[:, :half], 2, axis=1) for t in (cos, sin))
        return x * cos_i + rotated * sin_i
    # Hugging Face's rotate_half: (x1, x2) -> (-x2, x1)
    rotated = np.concatenate([-x[:, half:], x[:, :half]], axis=1)  # (n, d)
    return x * cos + rotated * sin
