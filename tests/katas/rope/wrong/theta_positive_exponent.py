"""Uses theta_i = base^(+2i/d): the frequencies grow with i instead of shrinking."""
import numbers

import numpy as np


def apply_rope(x, positions, base=10000.0, interleaved=False):
    x = np.asarray(x, dtype=np.float64)
    if x.ndim != 2 or 0 in x.shape:
        raise ValueError(f"x must be 2-D with no empty dimension, got {x.shape}")
    n, d = x.shape
    if d % 2:
        raise ValueError("d must be even")
    if not np.isfinite(x).all():
        raise ValueError("x contains NaN or inf")
    positions = np.asarray(positions)
    if positions.shape != (n,):
        raise ValueError("positions must have shape (n,)")
    if positions.dtype == np.bool_ or not np.issubdtype(positions.dtype, np.integer):
        raise ValueError("positions must be integers")
    if (positions < 0).any():
        raise ValueError("positions must be non-negative")
    if isinstance(base, bool) or not isinstance(base, numbers.Real) or not np.isfinite(base) or base <= 0:
        raise ValueError("base must be a finite number > 0")
    half = d // 2
    theta = float(base) ** (2.0 * np.arange(half) / d)
    angle = positions.astype(np.float64)[:, None] * theta
    cos, sin = np.cos(angle), np.sin(angle)
    if interleaved:
        a, b = x[:, 0::2], x[:, 1::2]
    else:
        a, b = x[:, :half], x[:, half:]
    rot_a, rot_b = a * cos - b * sin, a * sin + b * cos
    out = np.empty_like(x)
    if interleaved:
        out[:, 0::2], out[:, 1::2] = rot_a, rot_b
    else:
        out[:, :half], out[:, half:] = rot_a, rot_b
    return out
