import numpy as np


def linear_attention(q, k, v, causal=False):
    """Linear attention (Katharopoulos et al., 2020): a positive feature map instead of softmax.

        phi(x) = elu(x) + 1, elementwise: x + 1 for x > 0, exp(x) for x <= 0
        out_i  = Σ_j (phi(q_i)·phi(k_j)) v_j / Σ_j (phi(q_i)·phi(k_j))

    The sums run over all keys j, or with causal over the keys j <= p_i, where query i sits at
    position p_i = m - n + i (aligned to the bottom-right corner, like a KV cache). There is no
    1/sqrt(d_k) and no softmax. Regrouped, out_i = phi(q_i) S / (phi(q_i)·z) with the
    (d_k, d_v) state S = Σ_j phi(k_j) v_jᵀ and the (d_k,) normaliser z = Σ_j phi(k_j), summed
    over the keys query i may see: time and memory linear in m.

    Compute exp(x) directly for x <= 0: ``elu(x) + 1`` written literally, (exp(x) - 1) + 1,
    loses relative accuracy below about x = -17 and is exactly 0 below about -37.4. The
    contract is the exact function.

    Contract
    --------
    q      : (n, d_k) queries      every dimension >= 1, array-like, computed in float64
    k      : (m, d_k) keys
    v      : (m, d_v) values
    causal : if true, query i attends the keys j <= m - n + i; needs m >= n

    Valid inputs: entries of q and k in [-300, 1e100], entries of v with |v| <= 1e100 (outside
    that, phi(q)·phi(k) may underflow to 0 or a product overflow: left open).

    Returns out (n, d_v), float64. No input is modified.

    Memory is part of the contract: never hold an array of n·m elements, of bools as much as of
    floats, nor one kept between calls. At n = 1000, m = 16500 and d_k = d_v = 4, a first call
    with causal=False and a second with causal=True need less than 12 MiB (resident memory, as
    the kernel counts it, in a process that has made no call yet: the rise during the first
    call, or what it left behind plus the rise during the second); an n×m array of bools would
    be 15.7 MiB, one full n×m matrix 126 MiB. The same bound holds at a smaller size, drawn
    each run, where one float64 n×m array alone breaks it: n from 150 to 419, n·m about 2.1
    million.

    Raises ValueError (a subclass is fine), with a message a person can act on, when:
    - q, k or v is not 2-D, or has a zero dimension;
    - q and k have different widths, or k and v different numbers of rows;
    - q, k or v contains NaN or inf;
    - causal is set and m < n.

    NumPy only: do not import torch, jax, tensorflow, scipy or sklearn.

    Speed: the judge makes a few hundred calls on small inputs. Together they may take 1 s of
    CPU per Hypothesis example (20 s in a practice run; the reference needs under 0.5 s), and
    one call at most 2 s of CPU (10 s for each call at the memory bound's size); past that the
    answer is stopped as too slow. Loops over rows, keys or chunks are fine; a Python loop over
    single entries is not.
    """
    raise NotImplementedError("write your solution here")
