import numpy as np


def softmax(x, axis=-1):
    """Numerically stable softmax of ``x`` along ``axis``.

    Contract
    --------
    x     : array-like of any shape with at least one dimension; computed in float64.
    axis  : int (a Python or NumPy integer), the axis to normalise over (negative counts from
            the end, like NumPy).

    Returns a new float64 array with x's shape. Every slice along ``axis`` has entries in
    [0, 1] that sum to 1. ``x`` itself is never modified.

    - Stable for every finite input: logits of size 1e4, or slices whose scales differ by
      1e4 from each other, must not overflow, underflow to 0/0, or lose a slice.
    - ``-inf`` entries are allowed (masked logits) and get exactly 0.

    Raises ValueError (a subclass is fine), with a message a person can act on, when:
    - x contains NaN or +inf anywhere;
    - a slice along ``axis`` is entirely -inf (nothing to normalise);
    - x is 0-d (a scalar);
    - ``axis`` is out of range for x;
    - x has length 0 along ``axis``.

    NumPy only: do not import torch, jax, tensorflow, scipy or sklearn.

    Speed: the judge makes a few hundred calls on small inputs. Together they may take 1 s of
    CPU per Hypothesis example (20 s in a practice run; the reference needs under 0.5 s), and
    one call at most 2 s of CPU; past that the answer is stopped as too slow. Loops over
    rows, heads or blocks are fine; a Python loop over single entries is not.
    """
    raise NotImplementedError("write your solution here")
