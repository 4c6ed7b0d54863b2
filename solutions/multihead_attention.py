import numbers

import numpy as np


def multihead_attention(x, w_q, w_k, w_v, w_o, num_heads, causal=False):
    """Multi-head self-attention (torch's head layout), optionally causal.

        Q, K, V  = x w_q, x w_k, x w_v
        head h   = attention(Q[:, h*d_k:(h+1)*d_k], K[:, h*d_k:(h+1)*d_k], V[:, h*d_v:(h+1)*d_v])
                   with scale 1/sqrt(d_k), d_k the head width, and the causal mask if ``causal``
        out      = concat(head 0, ..., head H-1) w_o

    Contract
    --------
    x          : (n, d_model); array-like, computed in float64
    w_q, w_k   : (d_model, num_heads * d_k)
    w_v        : (d_model, num_heads * d_v)
    w_o        : (num_heads * d_v, d_out)
    num_heads  : a positive int (a Python int, or a NumPy integer of 32 or 64 bits; bool and
                 float are rejected)
    causal     : if true, query i attends only to keys j <= i

    Head h uses the contiguous column block [h*d_k, (h+1)*d_k) of x w_q and x w_k, and
    [h*d_v, (h+1)*d_v) of x w_v. Heads are concatenated in order, then projected by w_o.

    Returns ``(out, weights)``: out (n, d_out) and weights (num_heads, n, n), both float64;
    weights[h] is head h's attention (rows sum to 1; above the diagonal exactly 0 when
    causal). No input is modified.

    Raises ValueError (a subclass is fine), with a message a person can act on, when:
    - num_heads is not a positive int;
    - an input is not 2-D, or has a zero dimension;
    - a projection's row count differs from d_model;
    - w_q and w_k have different widths, or a width is not divisible by num_heads;
    - w_o's row count is not num_heads * d_v;
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
    if isinstance(num_heads, bool) or not isinstance(num_heads, numbers.Integral) or num_heads < 1:
        raise ValueError(f"num_heads must be a positive int, got {num_heads!r}")
    h = int(num_heads)
    x, w_q, w_k, w_v, w_o = (np.asarray(a, dtype=np.float64) for a in (x, w_q, w_k, w_v, w_o))
    for name, a in (("x", x), ("w_q", w_q), ("w_k", w_k), ("w_v", w_v), ("w_o", w_o)):
        if a.ndim != 2 or 0 in a.shape:
            raise ValueError(f"{name} must be 2-D with no empty dimension, got shape {a.shape}")
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf")
    n, d_model = x.shape
    for name, w in (("w_q", w_q), ("w_k", w_k), ("w_v", w_v)):
        if w.shape[0] != d_model:
            raise ValueError(f"{name} must have d_model = {d_model} rows, got {w.shape[0]}")
    if w_q.shape[1] != w_k.shape[1]:
        raise ValueError(f"w_q and w_k must have the same width, got {w_q.shape[1]} and {w_k.shape[1]}")
    for name, w in (("w_q and w_k", w_q), ("w_v", w_v)):
        if w.shape[1] % h:
            raise ValueError(f"the width of {name} ({w.shape[1]}) is not divisible by num_heads = {h}")
    d_k, d_v = w_q.shape[1] // h, w_v.shape[1] // h
    if w_o.shape[0] != h * d_v:
        raise ValueError(f"w_o must have num_heads * d_v = {h * d_v} rows, got {w_o.shape[0]}")

    with np.errstate(over="ignore", invalid="ignore"):
        q = (x @ w_q / np.sqrt(d_k)).reshape(n, h, d_k).transpose(1, 0, 2)  # (h, n, d_k), pre-scaled
        k = (x @ w_k).reshape(n, h, d_k).transpose(1, 0, 2)  # (h, n, d_k)
        v = (x @ w_v).reshape(n, h, d_v).transpose(1, 0, 2)  # (h, n, d_v)
        scores = q @ k.transpose(0, 2, 1)  # (h, n, n) = Q_h K_hᵀ / sqrt(d_k) for every head
    blocked = np.triu(np.ones((n, n), dtype=bool), k=1) if causal else np.zeros((n, n), dtype=bool)
    if not (np.isfinite(scores) | blocked).all():  # only scores that take part in the softmax
        raise ValueError("a score overflowed to inf; rescale x or the projections")
    np.copyto(scores, -np.inf, where=blocked)  # (h, n, n), future logits are -inf
    scores -= scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores, out=scores)  # (h, n, n)
    weights /= weights.sum(axis=-1, keepdims=True)
    heads = weights @ v  # (h, n, d_v)
    concat = heads.transpose(1, 0, 2).reshape(n, h * d_v)  # (n, h*d_v), head 0's columns first
    return concat @ w_o, weights  # (n, d_out), (h, n, n)
