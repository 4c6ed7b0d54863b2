import numpy as np


def flash_attention(q, k, v, block_size, causal=False):
    """Scaled dot-product attention computed the FlashAttention way: keys in blocks, online softmax.

        s      = q kᵀ / sqrt(d_k)        never formed whole: one (n, block_size) block at a time
        out    = softmax(s) v             over the key axis (causal: keys j > m - n + i blocked)
        lse[i] = log Σ_j exp(s[i, j])     over the allowed keys j

    Keys and values are visited in consecutive blocks of ``block_size`` rows (the last block may
    be shorter). For each block: scores, the new running max per query, rescale the running sum
    and the output accumulator by exp(old max - new max), add the block's share. At the end,
    out = accumulator / sum and lse = max + log(sum).

    Contract
    --------
    q          : (n, d_k) queries      every dimension >= 1, array-like, computed in float64
    k          : (m, d_k) keys
    v          : (m, d_v) values
    block_size : a positive int (a Python int, or a NumPy integer of 32 or 64 bits; bool and
                 float are rejected): keys per block
    causal     : if true, query i sits at position m - n + i and attends keys j <= m - n + i
                 (aligned to the bottom-right corner, like a KV cache); needs m >= n

    Returns ``(out, lse)``: out (n, d_v) and lse (n,), both float64. No input is modified.

    Memory is part of the contract: never hold an array of n·m elements, of bools as much as of
    floats, nor one kept between calls. At n = 1000, m = 16500, d_k = d_v = 4 and
    block_size = 64, a first call with causal=False and a second with causal=True need less
    than 12 MiB (resident memory, as the kernel counts it, in a process that has made no call
    yet: the rise during the first call, or what it left behind plus the rise during the
    second); an n×m array of bools would be 15.7 MiB, one full score matrix 126 MiB. The same
    bound holds at a smaller size, drawn each run, where one float64 n×m array alone breaks it:
    n from 150 to 419, n·m about 2.1 million (m not a multiple of 64).

    Raises ValueError (a subclass is fine), with a message a person can act on, when:
    - block_size is not a positive int;
    - q, k or v is not 2-D, or has a zero dimension;
    - q and k have different widths, or k and v different numbers of rows;
    - q, k or v contains NaN or inf;
    - causal is set and m < n;
    - a score that takes part in the softmax overflows to inf.
    (Out of contract: |v| so large that a block's weighted sum overflows. Left open: what happens
    when only a blocked, future score overflows, or when q kᵀ overflows although the score, divided
    by sqrt(d_k), is finite.)

    NumPy only: do not import torch, jax, tensorflow, scipy or sklearn.

    Speed: the judge makes a few hundred calls on small inputs. Together they may take 1 s of
    CPU per Hypothesis example (20 s in a practice run; the reference needs under 0.5 s), and
    one call at most 2 s of CPU (10 s for each call at the memory bound's size); past that the
    answer is stopped as too slow. Loops over rows, heads or blocks are fine; a Python loop over
    single entries is not.
    """
    raise NotImplementedError("write your solution here")
