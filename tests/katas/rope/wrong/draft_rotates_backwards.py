"""A first draft without input checks that rotates by minus the angle (the bug of rotates_backwards.py)."""
import numpy as np

FIRST_DRAFT_OF = "rotates_backwards"
UNCHECKED = (
    "x is 1-D",
    "x has no rows",
    "x has no columns",
    "NaN in x",
    "-inf in x",
    "float positions (2.5)",
    "float positions of whole numbers",
    "bool positions",
    "a negative position",
    "base = 0",
    "negative base",
    "base = inf",
    "base = NaN",
)


def apply_rope(x, positions, base=10000.0, interleaved=False):
    x = np.asarray(x, dtype=np.float64)
    d = x.shape[1]
    half = d // 2
    theta = base ** (-2.0 * np.arange(half) / d)
    angle = np.asarray(positions)[:, None] * theta
    cos, sin = np.cos(angle), np.sin(angle)
    a, b = (x[:, 0::2], x[:, 1::2]) if interleaved else (x[:, :half], x[:, half:])
    rot_a, rot_b = a * cos + b * sin, -a * sin + b * cos
    out = np.empty_like(x)
    if interleaved:
        out[:, 0::2], out[:, 1::2] = rot_a, rot_b
    else:
        out[:, :half], out[:, half:] = rot_a, rot_b
    return out
