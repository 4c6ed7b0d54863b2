"""Welford's one-pass mean and variance, streaming over the features one column at a time for all rows; gradients with explicit loops over the rows."""
import numbers

import numpy as np


class NormError(ValueError):
    """A subclass of ValueError is allowed by the contract."""


def layer_norm_backward(x, gamma, beta, d_out, eps=1e-5, rms=False):
    x = np.array(x, dtype=np.float64)  # copies: the caller's arrays are never touched
    if x.ndim != 2 or x.shape[0] == 0 or x.shape[1] == 0:
        raise NormError(f"x must be (n, d) with n, d >= 1, got {x.shape}")
    n, d = x.shape
    gamma, beta, d_out = (np.array(a, dtype=np.float64) for a in (gamma, beta, d_out))
    if gamma.shape != (d,) or beta.shape != (d,):
        raise NormError(f"gamma and beta must be ({d},), got {gamma.shape} and {beta.shape}")
    if d_out.shape != (n, d):
        raise NormError(f"d_out must be ({n}, {d}), got {d_out.shape}")
    for a in (x, gamma, beta, d_out):
        if np.isnan(a).any() or np.isinf(a).any():
            raise NormError("inputs must be finite")
    if isinstance(eps, (bool, np.bool_)) or not isinstance(eps, numbers.Real) or not (0 < eps < float("inf")):
        raise NormError(f"bad eps {eps!r}")

    # Welford, all rows at once, one feature at a time
    mean = np.zeros(n)
    m2 = np.zeros(n)
    for j in range(d):
        v = x[:, j] if not rms else x[:, j]
        delta = v - mean
        mean = mean + delta / (j + 1)
        m2 = m2 + delta * (v - mean)
    if rms:
        mean = np.zeros(n)
        ms = np.array([np.dot(x[i], x[i]) / d for i in range(n)])
    else:
        ms = m2 / d
    r = 1.0 / np.sqrt(ms + float(eps))
    xhat = (x - mean[:, None]) * r[:, None]
    out = xhat * gamma + beta

    d_x = np.empty_like(x)
    d_gamma = np.zeros(d)
    d_beta = np.zeros(d)
    for i in range(n):
        g = d_out[i] * gamma
        a = np.dot(g, xhat[i]) / d
        if rms:
            d_x[i] = r[i] * (g - xhat[i] * a)
        else:
            d_x[i] = r[i] * (g - g.sum() / d - xhat[i] * a)
        d_gamma += d_out[i] * xhat[i]
        d_beta += d_out[i]
    return out, d_x, d_gamma, d_beta
