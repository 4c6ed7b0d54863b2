import math

import numpy as np


def _alibi_slopes(h: int) -> np.ndarray:
    """The ALiBi slope of each of h heads (Press et al., the reference ``get_slopes``)."""
    if h & (h - 1) == 0:  # a power of 2: the geometric sequence 2^(-8/h), 2^(-16/h), ..., 2^-8
        return 2.0 ** (-8.0 * np.arange(1, h + 1) / h)
    c = 2 ** int(math.floor(math.log2(h)))  # the largest power of 2 below h
    return np.concatenate([_alibi_slopes(c), _alibi_slopes(2 * c)[0::2][: h - c]])


def alibi_attention(q, k, v):
    """Causal multi-head attention with ALiBi: a linear bias by distance, no position embeddings.

        query i sits at position p_i = m - n + i and may attend keys j <= p_i
        score_h(i, j) = q_h,i · k_h,j / sqrt(d_k) - slope_h (p_i - j)   (keys j > p_i: -inf)
        weights_h     = softmax(score_h)   over the key axis
        out_h         = weights_h v_h

    The slopes (the reference ``get_slopes``, h = q's first dimension, the number of heads):
    - h a power of 2: slope_i = 2^(-8 (i + 1) / h) for head i = 0 .. h-1
      (h = 8: 1/2, 1/4, ..., 1/256);
    - otherwise, with c the largest power of 2 below h: the c slopes for c heads, then the
      slopes for 2c heads at even indices (0, 2, 4, ...), the first h - c of them
      (h = 6: the 4 slopes of 4 heads, then slopes 0 and 2 of 8 heads).
    The causal mask is aligned to the bottom-right corner (``np.tril(np.ones((n, m)), m - n)``),
    as for a KV cache: with m == n it is ordinary causal attention, with n == 1 one decoding step.

    Contract
    --------
    q : (h, n, d_k) queries of the n newest tokens, head first    every dimension >= 1,
    k : (h, m, d_k) keys of all m tokens so far                   array-like, computed in
    v : (h, m, d_v) values of all m tokens so far                 float64; m >= n

    Returns out (h, n, d_v), float64. No input is modified.

    Raises ValueError (a subclass is fine), with a message a person can act on, when:
    - q, k or v is not 3-D, or has a zero dimension;
    - q, k and v have different numbers of heads;
    - q and k have different widths, or k and v different numbers of rows;
    - there are fewer keys than queries (m < n);
    - q, k or v contains NaN or inf;
    - a score that takes part in the softmax (bias included) overflows to inf.
    (What happens when only a blocked, future score overflows is left open. Out of contract: |v| so
    large that a weighted sum overflows before it is divided by the row's sum.)

    Left open: a dot product of a query and a key that overflows although the score, divided
    by sqrt(d_k), is finite (where another order of the products gives a finite answer).
    Left open too: an allowed score whose exact value overflows to -inf (below -1.8e308).

    NumPy only: do not import torch, jax, tensorflow, scipy or sklearn.

    Speed: the judge makes a few hundred calls on small inputs. Together they may take 1 s of
    CPU per Hypothesis example (20 s in a practice run; the reference needs under 0.5 s), and
    one call at most 2 s of CPU; past that the answer is stopped as too slow. Loops over
    rows, heads or blocks are fine; a Python loop over single entries is not.
    """
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    for name, a in (("q", q), ("k", k), ("v", v)):
        if a.ndim != 3 or 0 in a.shape:
            raise ValueError(
                f"{name} must be 3-D (heads, tokens, width) with no empty dimension, got shape {a.shape}"
            )
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf")
    h, n, d_k = q.shape
    _, m, d_v = v.shape
    if k.shape[0] != h or v.shape[0] != h:
        raise ValueError(f"q, k and v must have the same number of heads, got {h}, {k.shape[0]}, {v.shape[0]}")
    if k.shape[2] != d_k:
        raise ValueError(f"q and k must have the same width d_k, got {d_k} and {k.shape[2]}")
    if k.shape[1] != m:
        raise ValueError(f"k and v must have the same number of rows, got {k.shape[1]} and {m}")
    if m < n:
        raise ValueError(f"there are m = {m} keys, fewer than the n = {n} queries (they are the last n tokens)")

    positions = np.arange(m - n, m)  # p_i, bottom-right aligned
    distance = positions[:, None] - np.arange(m)[None, :]  # (n, m): p_i - j, >= 0 where allowed
    allowed = distance >= 0
    bias = -_alibi_slopes(h)[:, None, None] * distance  # (h, n, m)
    with np.errstate(over="ignore", invalid="ignore"):
        scores = q @ k.transpose(0, 2, 1) / np.sqrt(d_k) + bias  # (h, n, m)
    if not np.isfinite(scores[:, allowed]).all():
        raise ValueError("an allowed score q·k/sqrt(d_k) - slope (p_i - j) overflowed; rescale q or k")
    scores = np.where(allowed, scores, -np.inf)  # future keys are -inf
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    return weights @ v  # (h, n, d_v)
