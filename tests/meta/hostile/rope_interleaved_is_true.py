"""A realistic bug that passed every property (stop 54's second blind round):
it tests `interleaved is True`, so np.True_ gets the half-split layout. The judge drew
interleaved from Python bools only.
The draw is there now; this file keeps it caught."""
KATA = "rope"
ROUTE = "dojo test"
EXPECT = "is wrong"  # what the verdict must say

import numbers

import numpy as np


def apply_rope(x, positions, base=10000.0, interleaved=False):
    """Rotary position embedding (RoPE) of the rows of x, each at its own position.

        theta_i = base^(-2i/d)                         for i = 0 .. d/2 - 1
        a pair (a, b) at position p becomes
            (a cos(p theta_i) - b sin(p theta_i),  a sin(p theta_i) + b cos(p theta_i))

    Pairing (``interleaved``):
    - False: pair i is (x[:, i], x[:, i + d/2]), the GPT-NeoX / Hugging Face ``rotate_half``
      layout;
    - True:  pair i is (x[:, 2i], x[:, 2i + 1]), the RoFormer / original LLaMA layout.

    Contract
    --------
    x           : (n, d) with d even; array-like, computed in float64
    positions   : (n,) non-negative integers, array-like (an integer dtype: bool and float are
                  rejected, even 2.0);
                  row r of x sits at position positions[r]. Positions above 10**6 are outside
                  the contract.
    base        : a finite number > 0 (default 10000.0)
    interleaved : the pairing above (default False)

    Returns the rotated rows, float64 of shape (n, d). No input is modified.

    Raises ValueError (a subclass is fine), with a message a person can act on, when:
    - x is not 2-D, or has a zero dimension, or d is odd;
    - x contains NaN or inf;
    - positions is not of shape (n,), not of an integer dtype, or has a negative entry;
    - base is not a finite number > 0.

    NumPy only: do not import torch, jax, tensorflow, scipy or sklearn.

    Speed: the judge makes a few hundred calls on small inputs. Together they may take 1 s of
    CPU per Hypothesis example (20 s in a practice run; the reference needs under 0.5 s), and
    one call at most 2 s of CPU; past that the answer is stopped as too slow. Loops over
    rows, heads or blocks are fine; a Python loop over single entries is not.
    """
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
    cos, sin = np.cos(angle), np.sin(angle)  # (n, d/2) each
    if interleaved is True:
        a, b = x[:, 0::2], x[:, 1::2]  # (n, d/2) each
    else:
        a, b = x[:, :half], x[:, half:]  # (n, d/2) each
    rot_a, rot_b = a * cos - b * sin, a * sin + b * cos  # (n, d/2) each
    out = np.empty_like(x)  # (n, d)
    if interleaved is True:
        out[:, 0::2], out[:, 1::2] = rot_a, rot_b
    else:
        out[:, :half], out[:, half:] = rot_a, rot_b
    return out
