"""A realistic bug that passed every property (stop 54's blind hostile round):
it divides q by np.float16(sqrt(d_k)) in float16 before widening (as PyTorch's math SDPA
scales in the inputs' dtype): two scores 0.23 apart near 256 round to a tie. Random draws
missed it (3000 small cases in the round found none); a fixed example reaches it.
The draw is there now; this file keeps it caught."""
KATA = "half_precision_attention"
ROUTE = "dojo test"
EXPECT = "more than the contract's bound"  # what the verdict must say

import numpy as np


def half_precision_attention(q, k, v):
    """Scaled dot-product attention on float16 inputs, returning float16 (no mask).

        out = fp16( softmax(q kᵀ / sqrt(d_k)) v )   softmax over the key axis

    Contract
    --------
    q : (n, d_k) queries      each a NumPy array of dtype float16, every dimension >= 1
    k : (m, d_k) keys         (a list, or an array of any other dtype, is a ValueError:
    v : (m, d_v) values       this kata is about what float16 inputs need)

    Returns out (n, d_v), a NumPy array of dtype float16. No input is modified.

    Any finite float16 values are valid. The unscaled q·k may exceed float16's largest value
    65504 (d_k = 1024 with entries near 8, or entries near 256), exp() of a score overflows
    float16 above 11.09, and a float16 running sum over thousands of keys drifts: compute the
    scores, the softmax and the weighted sum in a wider type, then round the result to float16.

    Accuracy: let o* be the exact attention of these float16 values (as if in float64) and
    S_i = max_j sum_t |q[i, t] k[j, t]| / sqrt(d_k) (how large row i's score terms are). Each
    entry o = out[i, c] must satisfy
        |o - fp16(o*)| <= ulp16(fp16(o*)) + 2^-12 · max_j |v[j, c]| · (1 + S_i),
    where ulp16(x) is the spacing of float16 numbers at x. Scores in float32 or float64 stay
    far inside this, and so does rounding the weights to float16 before the weighted sum.

    Raises ValueError (a subclass is fine), with a message a person can act on, when:
    - q, k or v is not a NumPy array of dtype float16 (lists and float32 arrays included);
    - q, k or v is not 2-D, or has a zero dimension;
    - q and k have different widths, or k and v different numbers of rows;
    - q, k or v contains NaN or inf.

    NumPy only: do not import torch, jax, tensorflow, scipy or sklearn.

    Speed: the judge makes a few hundred calls on small inputs. Together they may take 1 s of
    CPU per Hypothesis example (20 s in a practice run; the reference needs under 0.5 s), and
    one call at most 2 s of CPU; past that the answer is stopped as too slow. Loops over
    rows, heads or blocks are fine; a Python loop over single entries is not.
    """
    for name, a in (("q", q), ("k", k), ("v", v)):
        if not isinstance(a, np.ndarray) or a.dtype != np.float16:
            got = a.dtype if isinstance(a, np.ndarray) else type(a).__name__
            raise ValueError(f"{name} must be a NumPy array of dtype float16, got {got}; "
                             f"convert it with np.asarray({name}, dtype=np.float16)")
        if a.ndim != 2 or 0 in a.shape:
            raise ValueError(f"{name} must be 2-D with no empty dimension, got shape {a.shape}")
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf")
    n, d_k = q.shape
    m, d_v = v.shape
    if k.shape[1] != d_k:
        raise ValueError(f"q and k must have the same width d_k, got {d_k} and {k.shape[1]}")
    if k.shape[0] != m:
        raise ValueError(f"k and v must have the same number of rows, got {k.shape[0]} and {m}")

    # float16 values are exact in float64, and |q·k| <= d_k · 65504² cannot overflow it.
    # scale q first, in its own dtype (as PyTorch's math SDPA does), then widen
    q_scaled = (q / np.float16(np.sqrt(d_k))).astype(np.float16)
    q64, k64, v64 = (a.astype(np.float64) for a in (q_scaled, k, v))
    scores = q64 @ k64.T  # (n, m)
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))  # (n, m), largest is 1
    weights /= weights.sum(axis=1, keepdims=True)
    return (weights @ v64).astype(np.float16)  # (n, d_v), rounded once at the end
