"""The staged backward pass of a computational graph (cs231n style): d_xhat, then d_var through (var + eps)^-1.5, then d_mu, then d_x from the three paths."""
import numpy as np


def layer_norm_backward(x, gamma, beta, d_out, eps=1e-5, rms=False):
    x = np.asarray(x, dtype=np.float64)
    if x.ndim != 2 or x.size == 0:
        raise ValueError(f"x must be a non-empty 2-D array, got shape {x.shape}")
    n, d = x.shape
    gamma = np.asarray(gamma, dtype=np.float64)
    beta = np.asarray(beta, dtype=np.float64)
    d_out = np.asarray(d_out, dtype=np.float64)
    if gamma.shape != (d,):
        raise ValueError(f"gamma must be ({d},), got {gamma.shape}")
    if beta.shape != (d,):
        raise ValueError(f"beta must be ({d},), got {beta.shape}")
    if d_out.shape != x.shape:
        raise ValueError(f"d_out must be {x.shape}, got {d_out.shape}")
    if not all(np.all(np.isfinite(a)) for a in (x, gamma, beta, d_out)):
        raise ValueError("NaN or inf in the inputs")
    if type(eps) is bool or not isinstance(eps, (int, float, np.integer, np.floating)):
        raise ValueError(f"eps must be a real number, got {eps!r}")
    if not np.isfinite(eps) or eps <= 0:
        raise ValueError(f"eps must be finite and > 0, got {eps!r}")

    mu = np.zeros((n, 1)) if rms else np.sum(x, axis=1, keepdims=True) / d
    xmu = x - mu
    var = np.sum(xmu ** 2, axis=1, keepdims=True) / d
    std_inv = (var + eps) ** -0.5
    xhat = xmu * std_inv
    out = gamma * xhat + beta

    d_beta = d_out.sum(axis=0)
    d_gamma = (d_out * xhat).sum(axis=0)
    d_xhat = d_out * gamma
    d_var = np.sum(d_xhat * xmu, axis=1, keepdims=True) * -0.5 * std_inv ** 3
    d_x = d_xhat * std_inv + d_var * 2.0 * xmu / d
    if not rms:
        d_mu = np.sum(-d_xhat * std_inv, axis=1, keepdims=True) + d_var * np.mean(-2.0 * xmu, axis=1, keepdims=True)
        d_x = d_x + d_mu / d
    return out, d_x, d_gamma, d_beta
