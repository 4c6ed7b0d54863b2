"""Frequencies computed as exp(-2i/d * np.log(base)): np.log of an np.int16 base is a float32, so
the angles are off by 1e-3 radians at a position of 10**6. The judge drew no NumPy integer
base narrower than 32 bits (a blind round, stop 58); it draws every width now, and an example
has np.int16(10000) at position 10**6."""
KATA = "rope"
ROUTE = "dojo test"
EXPECT = "is wrong"  # what the verdict must say

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
    theta = np.exp(-np.arange(0, d, 2) * np.log(base) / d)  # (d/2,) inverse frequencies
    angle = positions.astype(np.float64)[:, None] * theta  # (n, d/2)
    cos, sin = np.cos(angle), np.sin(angle)  # (n, d/2) each
    if interleaved:
        a, b = x[:, 0::2], x[:, 1::2]  # (n, d/2) each
    else:
        a, b = x[:, :half], x[:, half:]  # (n, d/2) each
    rot_a, rot_b = a * cos - b * sin, a * sin + b * cos  # (n, d/2) each
    out = np.empty_like(x)  # (n, d)
    if interleaved:
        out[:, 0::2], out[:, 1::2] = rot_a, rot_b
    else:
        out[:, :half], out[:, half:] = rot_a, rot_b
    return out
