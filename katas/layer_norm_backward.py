import numpy as np


def layer_norm_backward(x, gamma, beta, d_out, eps=1e-5, rms=False):
    """LayerNorm (or RMSNorm) forward and its backward pass by hand, row by row.

    Contract
    --------
    x      : array-like (n, d), n, d >= 1, finite; computed in float64. Rows are independent.
    gamma  : array-like of shape exactly (d,): the scale.
    beta   : array-like of shape exactly (d,): the shift (beta = 0 is LLaMA's RMSNorm).
    d_out  : array-like of shape exactly (n, d): dL/d(out), the gradient arriving from above
             (no broadcasting).
    eps    : a finite real > 0 (a Python or NumPy int or float, never bool), inside the sqrt.
    rms    : True for RMSNorm, False for LayerNorm: a Python or NumPy bool (any other type is
             left open).

    Per row i:
    - LayerNorm: mu = mean(x_i), var = mean((x_i - mu)^2) (biased: divide by d, not d - 1),
      r = 1 / sqrt(var + eps), xhat = (x_i - mu) r.
    - RMSNorm (rms true): no mean: r = 1 / sqrt(mean(x_i^2) + eps), xhat = x_i r.
    - Both: out = xhat * gamma + beta.

    Backward, for L = sum(out * d_out), with g = d_out * gamma:
    - d_beta = sum over rows of d_out; d_gamma = sum over rows of d_out * xhat;
    - LayerNorm: d_x = r (g - mean(g) - xhat mean(g xhat)) (means over the row);
    - RMSNorm:   d_x = r (g - xhat mean(g xhat)).
    (These are torch autograd's gradients of F.layer_norm and of the RMS formula.)

    Returns ``(out, d_x, d_gamma, d_beta)``: float64 arrays of shapes (n, d), (n, d), (d,), (d,).
    No input is modified.

    Accuracy is part of the contract: rows may carry a large common offset (x_i = 1e4 + small
    spread). With c_i = max_j |x_ij| / sqrt(var_i + eps) (RMSNorm: the mean square for var) and
    C = max(1, max_i c_i), each entry must lie within 1e-9 |want| + 1e-12 C S, S the size of its
    terms: out: sqrt(d) max|gamma| + max|beta|; d_x row i: r_i d max_j |g_ij|; d_gamma and
    d_beta: sqrt(d) sum_i max_j |d_out_ij|. A two-pass variance (mean first, then the mean of
    squared deviations) or Welford's stays far inside; the one-pass E[x^2] - mu^2 cancels
    catastrophically (it loses about C^2 times float64's precision) and is rejected.

    Raises ValueError (a subclass is fine), with a message a person can act on, when:
    - x is not 2-D or has a zero dimension;
    - gamma or beta is not of shape exactly (d,);
    - d_out is not of shape exactly (n, d) (even if it would broadcast);
    - any array contains NaN or inf;
    - eps is not a finite real > 0.

    Left open (never tested): C > 1e6 (a row nearly constant at the scale of its entries and
    eps); entries of x, gamma, beta or d_out beyond 1e6 in size; a non-bool rms.

    NumPy only: do not import torch, jax, tensorflow, scipy or sklearn.

    Speed: the judge makes a few hundred calls on small inputs. Together they may take 1 s of
    CPU per Hypothesis example (20 s in a practice run; the reference needs under 0.5 s), and
    one call at most 2 s of CPU; past that the answer is stopped as too slow. Loops over
    rows, heads or blocks are fine; a Python loop over single entries is not.
    """
    raise NotImplementedError("write your solution here")
