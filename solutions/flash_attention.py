import numbers

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
    if isinstance(block_size, bool) or not isinstance(block_size, numbers.Integral) or block_size < 1:
        raise ValueError(f"block_size must be a positive int, got {block_size!r}")
    block_size = int(block_size)  # np.uint8(200): start + block_size would wrap around past 255
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    for name, a in (("q", q), ("k", k), ("v", v)):
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
    if causal and m < n:
        raise ValueError(f"causal attention needs m >= n (query i sits at position m - n + i), got m={m}, n={n}")

    q = q / np.sqrt(d_k)  # (n, d_k), pre-scaled: a copy, the caller's q is untouched
    position = np.arange(m - n, m)[:, None]  # (n, 1), query i's position in the sequence
    row_max = np.full((n, 1), -np.inf)  # (n, 1) running max of the scores seen so far
    row_sum = np.zeros((n, 1))  # (n, 1) running Σ exp(s - row_max)
    acc = np.zeros((n, d_v))  # (n, d_v) running Σ exp(s - row_max) v
    for start in range(0, m, block_size):
        k_b, v_b = k[start : start + block_size], v[start : start + block_size]  # (b, d_k), (b, d_v)
        with np.errstate(over="ignore", invalid="ignore"):
            s = q @ k_b.T  # (n, b)
        allowed = np.arange(start, start + len(k_b)) <= position if causal else None  # (n, b)
        if not np.isfinite(s if allowed is None else s[allowed]).all():
            raise ValueError("a score q·k/sqrt(d_k) overflowed; rescale q or k")
        if allowed is not None:
            s[~allowed] = -np.inf
        new_max = np.maximum(row_max, s.max(axis=1, keepdims=True))  # (n, 1), finite: key 0 is always allowed
        p = np.exp(s - new_max)  # (n, b)
        rescale = np.exp(row_max - new_max)  # (n, 1), exp(-inf) = 0 on the first block
        row_sum = row_sum * rescale + p.sum(axis=1, keepdims=True)
        acc = acc * rescale + p @ v_b  # (n, d_v)
        row_max = new_max
    return acc / row_sum, (row_max + np.log(row_sum))[:, 0]  # (n, d_v), (n,)
