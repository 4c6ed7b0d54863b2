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
    base        : a finite number > 0: a Python int or float, or a NumPy integer or float64
                  (default 10000.0)
    interleaved : the pairing above, read as "if true" (a bool or a NumPy bool; default False)

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
    raise NotImplementedError("write your solution here")
