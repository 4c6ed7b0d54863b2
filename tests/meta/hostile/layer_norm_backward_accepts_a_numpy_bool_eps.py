"""A realistic bug that passed every property (stop 55's blind round): it
rejects eps=True but not eps=np.True_, which it takes as 1.0: the contract says never a bool,
and the judge's bad eps values held Python bools only.
The example is there now; this file keeps it caught."""
KATA = "layer_norm_backward"
ROUTE = "dojo test"
EXPECT = "expected a ValueError"  # what the verdict must say

import numpy as np


def layer_norm_backward(x, gamma, beta, d_out, eps=1e-5, rms=False):
    x = np.asarray(x, dtype=np.float64)
    if x.ndim != 2 or 0 in x.shape:
        raise ValueError(f"x must be 2-D (n, d) and non-empty, got {x.shape}")
    n, d = x.shape
    gamma, beta, d_out = (np.asarray(a, dtype=np.float64) for a in (gamma, beta, d_out))
    if gamma.shape != (d,) or beta.shape != (d,):
        raise ValueError(f"gamma and beta must have shape ({d},)")
    if d_out.shape != (n, d):
        raise ValueError(f"d_out must have shape {(n, d)}")
    for name, a in (("x", x), ("gamma", gamma), ("beta", beta), ("d_out", d_out)):
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf")
    # eps: a finite real > 0, never a bool (and never a string, None or a list)
    if isinstance(eps, (bool, str)) or eps is None:
        raise ValueError(f"eps must be a finite real > 0, got {eps!r}")
    try:
        eps = float(eps)
    except (TypeError, ValueError):
        raise ValueError(f"eps must be a finite real > 0, got {eps!r}") from None
    if not np.isfinite(eps) or eps <= 0:
        raise ValueError(f"eps must be a finite real > 0, got {eps!r}")

    c = x if rms else x - x.mean(axis=1, keepdims=True)
    r = 1.0 / np.sqrt(np.mean(c * c, axis=1, keepdims=True) + eps)
    xhat = c * r
    out = xhat * gamma + beta
    g = d_out * gamma
    proj = np.mean(g * xhat, axis=1, keepdims=True)
    d_x = r * (g - xhat * proj) if rms else r * (g - g.mean(axis=1, keepdims=True) - xhat * proj)
    return out, d_x, np.sum(d_out * xhat, axis=0), np.sum(d_out, axis=0)
