import numpy as np


def attention_backward(q, k, v, d_out, mask=None):
    """The gradients of masked scaled dot-product attention, by hand.

        S   = q kᵀ / sqrt(d_k)       blocked scores set to -inf        (n, m)
        P   = softmax(S)             over the keys                     (n, m)
        out = P v                                                      (n, d_v)

    For the loss L = sum(out * d_out), so that d_out = dL/d(out), return

        dv = Pᵀ d_out
        dP = d_out vᵀ
        dS = P * (dP - rowsum(dP * P))       (the softmax backward, row by row)
        dq = dS k / sqrt(d_k),   dk = dSᵀ q / sqrt(d_k)

    Contract
    --------
    q, k, v, mask : exactly as in the masked kata (scaled_dot_product_attention): q (n, d_k),
                    k (m, d_k), v (m, d_v), mask None or bool (n, m) with True = query i MAY
                    attend key j; array-likes, computed in float64
    d_out         : (n, d_v), the gradient of the loss with respect to out

    Returns ``(dq, dk, dv)`` of the shapes of q, k and v, float64. A key that every query
    blocks gets dk and dv exactly 0. No input is modified.

    Raises ValueError (a subclass is fine), with a message a person can act on, when:
    - anything the masked kata rejects: q, k or v not 2-D or with a zero dimension; q and k of
      different widths, or k and v with different numbers of rows; NaN or inf in q, k or v; a
      mask not of dtype bool or not of shape (n, m); a query row with no allowed key; a score
      that takes part in the softmax overflowing to inf;
    - d_out is not of shape exactly (n, d_v) (no broadcasting), or contains NaN or inf;
    - a gradient would not be finite (it overflows).

    Left open: a dot product of a query and a key that overflows although the score, divided
    by sqrt(d_k), is finite (where another order of the products gives a finite answer).
    Left open too: an allowed score whose exact value overflows to -inf (below -1.8e308).

    NumPy only: do not import torch, jax, tensorflow, scipy or sklearn.

    Speed: the judge makes a few hundred calls on small inputs. Together they may take 1 s of
    CPU per Hypothesis example (20 s in a practice run; the reference needs under 0.5 s), and
    one call at most 2 s of CPU; past that the answer is stopped as too slow. Loops over
    rows, heads or blocks are fine; a Python loop over single entries is not.
    """
    raise NotImplementedError("write your solution here")
