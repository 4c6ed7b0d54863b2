import numpy as np


def causal_self_attention(x, w_q, w_k, w_v):
    """Single-head causal self-attention: project x, then let position i see positions j <= i.

        Q, K, V = x w_q, x w_k, x w_v
        weights = softmax(Q Kᵀ / sqrt(d_k))   entries above the diagonal set to -inf first
        out     = weights V

    Contract
    --------
    x     : (n, d_model)  the sequence, one row per position; array-like, computed in float64
    w_q   : (d_model, d_k)
    w_k   : (d_model, d_k)
    w_v   : (d_model, d_v)

    Returns ``(out, weights)``: out (n, d_v) and weights (n, n), both float64. Row i of
    weights sums to 1 and every entry above the diagonal is exactly 0. The scale is
    1/sqrt(d_k) (not d_model, not d_v). No input is modified.

    Raises ValueError (a subclass is fine), with a message a person can act on, when:
    - x or a weight matrix is not 2-D, or x is empty;
    - a projection's row count differs from d_model;
    - w_q and w_k have different widths, or a width is 0;
    - anything contains NaN or inf;
    - a score that takes part in the softmax overflows to inf.
    (Out of contract: values x w_v so large that a weighted sum overflows before it is divided
    by the row's sum. Left open: what happens when only a blocked, future score overflows.)

    Left open: a dot product of a query and a key that overflows although the score, divided
    by sqrt(d_k), is finite (where another order of the products gives a finite answer).
    Left open too: an allowed score whose exact value overflows to -inf (below -1.8e308).

    NumPy only: do not import torch, jax, tensorflow, scipy or sklearn.

    Speed: the judge makes a few hundred calls on small inputs. Together they may take 1 s of
    CPU per Hypothesis example (20 s in a practice run; the reference needs under 0.5 s), and
    one call at most 2 s of CPU; past that the answer is stopped as too slow. Loops over
    rows, heads or blocks are fine; a Python loop over single entries is not.
    """
    x, w_q, w_k, w_v = (np.asarray(a, dtype=np.float64) for a in (x, w_q, w_k, w_v))
    for name, a in (("x", x), ("w_q", w_q), ("w_k", w_k), ("w_v", w_v)):
        if a.ndim != 2 or 0 in a.shape:
            raise ValueError(f"{name} must be 2-D with no empty dimension, got shape {a.shape}")
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf")
    n, d_model = x.shape
    for name, w in (("w_q", w_q), ("w_k", w_k), ("w_v", w_v)):
        if w.shape[0] != d_model:
            raise ValueError(f"{name} must have d_model = {d_model} rows, got {w.shape[0]}")
    if w_q.shape[1] != w_k.shape[1]:
        raise ValueError(f"w_q and w_k must have the same width d_k, got {w_q.shape[1]} and {w_k.shape[1]}")
    d_k = w_q.shape[1]

    with np.errstate(over="ignore", invalid="ignore"):
        q, k, v = x @ w_q, x @ w_k, x @ w_v  # (n, d_k), (n, d_k), (n, d_v)
        scores = q @ k.T / np.sqrt(d_k)  # (n, n)
    allowed = np.tril(np.ones((n, n), dtype=bool))  # (n, n), True on and below the diagonal
    if not np.isfinite(scores[allowed]).all():
        raise ValueError("a score overflowed to inf; rescale x or the projections")
    scores = np.where(allowed, scores, -np.inf)  # (n, n)
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))  # (n, n)
    weights /= weights.sum(axis=1, keepdims=True)
    return weights @ v, weights  # (n, d_v), (n, n)
