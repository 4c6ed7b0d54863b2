import numpy as np


def batched_multihead_attention(x, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias,
                                num_heads, key_padding_mask=None, causal=False):
    """Batched multi-head self-attention with a padding mask, laid out like torch's nn.MultiheadAttention.

        Q, K, V  = x W_qᵀ + b_q,  x W_kᵀ + b_k,  x W_vᵀ + b_v     [W_q; W_k; W_v] = in_proj_weight
        head h   = softmax(Q_h K_hᵀ / sqrt(d_head)) V_h            blocked scores set to -inf first
        out      = concat(head 0, ..., head H-1) out_proj_weightᵀ + out_proj_bias

    Contract
    --------
    x                : (B, n, E), B sequences of n positions (batch first)
    in_proj_weight   : (3E, E), the rows of W_q, then W_k, then W_v (each (E, E))
    in_proj_bias     : (3E,), b_q, then b_k, then b_v
    out_proj_weight  : (E, E);  out_proj_bias: (E,)
    num_heads        : a positive int dividing E (a Python int, or a NumPy integer of 32 or 64
                       bits; bool and float are rejected); head h owns the contiguous columns [h*d_head, (h+1)*d_head)
                       of Q, K and V, d_head = E / num_heads
    key_padding_mask : None, or a bool array of shape exactly (B, n) where True means PADDING:
                       key j of sequence b is blocked for every query of b
                       (nn.MultiheadAttention's convention, the opposite of the masked kata's mask)
    causal           : if true, query i attends only to keys j <= i as well

    x and the four parameters may be any array-likes (lists, integer or float32 arrays); all the
    arithmetic is float64.

    Returns ``(out, weights)``: out (B, n, E) and weights (B, num_heads, n, n) (per head, not
    averaged), both float64. Blocked weights are exactly 0; every other row sums to 1. A query
    with no allowed key (a sequence that is all padding, or left padding with causal) gets
    all-zero weights, so its head outputs are 0 and its out row is out_proj_bias (torch SDPA's
    convention; nn.MultiheadAttention returns NaN there, and NaN is never a right answer here).
    No input is modified.

    Raises ValueError (a subclass is fine), with a message a person can act on, when:
    - x is not 3-D or has a zero dimension;
    - num_heads is not a positive int, or does not divide E;
    - a parameter's shape is not the one above;
    - key_padding_mask is not of dtype bool or its shape is not (B, n) (no broadcasting);
    - any input contains NaN or inf;
    - a projection, a score that takes part in a softmax, or out is not finite (overflow).
    (Left open: what happens when only a blocked score, of a padded or a future key, overflows.)

    Left open: a dot product of a query and a key that overflows although the score, divided
    by sqrt(d_head), is finite (where another order of the products gives a finite answer).
    Left open too: an allowed score whose exact value overflows to -inf (below -1.8e308).

    NumPy only: do not import torch, jax, tensorflow, scipy or sklearn.

    Speed: the judge makes a few hundred calls on small inputs. Together they may take 1 s of
    CPU per Hypothesis example (20 s in a practice run; the reference needs under 0.5 s), and
    one call at most 2 s of CPU; past that the answer is stopped as too slow. Loops over
    rows, heads or blocks are fine; a Python loop over single entries is not.
    """
    raise NotImplementedError("write your solution here")
