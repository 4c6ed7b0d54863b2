"""Builds the half-split layout's cos/sin table with np.repeat ([θ0, θ0, θ1, θ1, …], the interleaved layout's table) instead of [θ0, θ1, …, θ0, θ1, …], so its pairs rotate at the wrong frequencies."""
import numbers
import numpy as np


def apply_rope(x, positions, base=10000.0, interleaved=False):
    x = np.asarray(x, dtype=np.float64)
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
    cos = np.repeat(np.cos(angle), 2, axis=1)  # (n, d): [c0, c0, c1, c1, ...]
    sin = np.repeat(np.sin(angle), 2, axis=1)  # (n, d)
    if interleaved:
        rotated = np.empty_like(x)  # (n, d): each pair (a, b) becomes (-b, a)
        rotated[:, 0::2], rotated[:, 1::2] = -x[:, 1::2], x[:, 0::2]
    else:
        rotated = np.concatenate([-x[:, half:], x[:, :half]], axis=1)  # (n, d), rotate_half
    return x * cos + rotated * sin
