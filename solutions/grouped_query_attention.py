import numbers

import numpy as np


def grouped_query_attention(x, w_q, w_k, w_v, w_o, num_heads, num_kv_heads, causal=False):
    """Grouped-query self-attention: num_heads query heads share num_kv_heads key/value heads.

        Q, K, V  = x w_q, x w_k, x w_v         heads are contiguous column blocks
        g        = num_heads / num_kv_heads    query heads per kv head
        head h   = attention(Q_h, K_{h // g}, V_{h // g})   scale 1/sqrt(d_k), causal mask if set
        out      = concat(head 0, ..., head num_heads-1) w_o

    Consecutive query heads share a kv head: heads 0..g-1 use kv head 0, heads g..2g-1 kv head
    1, and so on (torch's ``enable_gqa=True``: K and V ``repeat_interleave``d g times). With
    num_kv_heads == num_heads it is multi-head attention; with num_kv_heads == 1, multi-query.

    Contract
    --------
    x             : (n, d_model); array-like, computed in float64
    w_q           : (d_model, num_heads * d_k)
    w_k           : (d_model, num_kv_heads * d_k)
    w_v           : (d_model, num_kv_heads * d_v)
    w_o           : (num_heads * d_v, d_out)
    num_heads     : a positive int (a Python int, or a NumPy integer of 32 or 64 bits; bool
                    and float are rejected)
    num_kv_heads  : a positive int that divides num_heads (of num_heads's type)
    causal        : if true, position i attends only to positions j <= i

    Query head h uses columns [h*d_k, (h+1)*d_k) of x w_q; kv head c uses columns
    [c*d_k, (c+1)*d_k) of x w_k and [c*d_v, (c+1)*d_v) of x w_v.

    Returns ``(out, weights)``: out (n, d_out) and weights (num_heads, n, n), both float64;
    weights[h] is query head h's attention (rows sum to 1; above the diagonal exactly 0 when
    causal). No input is modified.

    Raises ValueError (a subclass is fine), with a message a person can act on, when:
    - num_heads or num_kv_heads is not a positive int, or num_kv_heads does not divide num_heads;
    - an input is not 2-D, or has a zero dimension;
    - a projection's row count differs from d_model;
    - w_q's width is not divisible by num_heads, or w_k's or w_v's by num_kv_heads;
    - w_k's width is not num_kv_heads * d_k (q and k heads of different widths);
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
    for name, value in (("num_heads", num_heads), ("num_kv_heads", num_kv_heads)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
            raise ValueError(f"{name} must be a positive int, got {value!r}")
    h, h_kv = int(num_heads), int(num_kv_heads)
    if h % h_kv:
        raise ValueError(f"num_kv_heads = {h_kv} must divide num_heads = {h}")
    g = h // h_kv
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
    for name, w, heads in (("w_q", w_q, h), ("w_k", w_k, h_kv), ("w_v", w_v, h_kv)):
        if w.shape[1] % heads:
            raise ValueError(f"the width of {name} ({w.shape[1]}) is not divisible by its {heads} heads")
    d_k, d_v = w_q.shape[1] // h, w_v.shape[1] // h_kv
    if w_k.shape[1] != h_kv * d_k:
        raise ValueError(f"w_k must have num_kv_heads * d_k = {h_kv * d_k} columns, got {w_k.shape[1]}")
    if w_o.shape[0] != h * d_v:
        raise ValueError(f"w_o must have num_heads * d_v = {h * d_v} rows, got {w_o.shape[0]}")

    with np.errstate(over="ignore", invalid="ignore"):
        q = (x @ w_q / np.sqrt(d_k)).reshape(n, h_kv, g, d_k).transpose(1, 2, 0, 3)  # (h_kv, g, n, d_k)
        k = (x @ w_k).reshape(n, h_kv, d_k).transpose(1, 0, 2)[:, None]  # (h_kv, 1, n, d_k)
        v = (x @ w_v).reshape(n, h_kv, d_v).transpose(1, 0, 2)[:, None]  # (h_kv, 1, n, d_v)
        scores = q @ k.transpose(0, 1, 3, 2)  # (h_kv, g, n, n): query head c*g + j against kv head c
    blocked = np.triu(np.ones((n, n), dtype=bool), k=1) if causal else np.zeros((n, n), dtype=bool)
    if not (np.isfinite(scores) | blocked).all():  # only scores that take part in the softmax
        raise ValueError("a score overflowed to inf; rescale x or the projections")
    np.copyto(scores, -np.inf, where=blocked)
    scores -= scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores, out=scores)  # (h_kv, g, n, n)
    weights /= weights.sum(axis=-1, keepdims=True)
    heads = (weights @ v).reshape(h, n, d_v)  # (h, n, d_v), query heads in order
    concat = heads.transpose(1, 0, 2).reshape(n, h * d_v)  # (n, h*d_v)
    return concat @ w_o, weights.reshape(h, n, n)  # (n, d_out), (h, n, n)
