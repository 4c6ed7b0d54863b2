"""Tests `if rms is True:`, so rms=np.True_ silently gives LayerNorm. The contract said only "a
non-bool is left open" and the judge passed Python bools (a blind round, stop 58): the contract
names NumPy bools now, and the judge draws them."""
KATA = "layer_norm_backward"
ROUTE = "dojo test"
EXPECT = "is wrong"  # what the verdict must say

import numpy as np


def layer_norm_backward(x, gamma, beta, d_out, eps=1e-5, rms=False):
    x = np.asarray(x, dtype=np.float64)
    if x.ndim != 2 or 0 in x.shape:
        raise ValueError(f"x must be 2-D (n, d) with n, d >= 1, got shape {x.shape}")
    n, d = x.shape
    gamma = np.asarray(gamma, dtype=np.float64)
    beta = np.asarray(beta, dtype=np.float64)
    d_out = np.asarray(d_out, dtype=np.float64)
    for name, a in (("gamma", gamma), ("beta", beta)):
        if a.shape != (d,):
            raise ValueError(f"{name} must have shape ({d},), one value per feature of x, got shape {a.shape}")
    if d_out.shape != (n, d):
        raise ValueError(f"d_out must have exactly the shape of x, ({n}, {d}) (no broadcasting), "
                         f"got shape {d_out.shape}")
    for name, a in (("x", x), ("gamma", gamma), ("beta", beta), ("d_out", d_out)):
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf; every entry must be finite")
    if not _is_real(eps) or not np.isfinite(eps) or eps <= 0:
        raise ValueError(f"eps must be a finite real > 0 (it goes inside the sqrt), got {eps!r}")
    eps = float(eps)

    if rms is True:
        centred = x                                              # RMSNorm subtracts no mean
    else:
        centred = x - x.mean(axis=1, keepdims=True)              # two-pass: centre first
    r = 1.0 / np.sqrt(np.mean(centred * centred, axis=1, keepdims=True) + eps)  # (n, 1)
    xhat = centred * r                                           # (n, d)
    out = xhat * gamma + beta

    g = d_out * gamma                                            # dL/d(xhat)
    proj = np.mean(g * xhat, axis=1, keepdims=True)              # mean(g xhat), (n, 1)
    if rms is True:
        d_x = r * (g - xhat * proj)
    else:
        d_x = r * (g - g.mean(axis=1, keepdims=True) - xhat * proj)
    d_gamma = np.sum(d_out * xhat, axis=0)
    d_beta = np.sum(d_out, axis=0)
    return out, d_x, d_gamma, d_beta


def _is_real(v) -> bool:
    return isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))
