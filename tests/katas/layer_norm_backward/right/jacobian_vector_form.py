"""d_x as the Jacobian-vector product written with sums: (1/d) r (d g - sum g - xhat sum(g xhat)), via einsum; the variance from np.var (two-pass)."""
import numpy as np


def layer_norm_backward(x, gamma, beta, d_out, eps=1e-5, rms=False):
    x, gamma, beta, d_out = (np.asarray(a, dtype=np.float64) for a in (x, gamma, beta, d_out))
    if x.ndim != 2 or min(x.shape) == 0:
        raise ValueError(f"x: expected (n, d) with n, d >= 1, got {x.shape}")
    n, d = x.shape
    for name, a, shape in (("gamma", gamma, (d,)), ("beta", beta, (d,)), ("d_out", d_out, (n, d))):
        if a.shape != shape:
            raise ValueError(f"{name}: expected shape {shape}, got {a.shape}")
        if not np.isfinite(a).all():
            raise ValueError(f"{name} is not finite")
    if not np.isfinite(x).all():
        raise ValueError("x is not finite")
    if isinstance(eps, (bool, np.bool_)) or not np.isscalar(eps) or not np.isreal(eps) or isinstance(eps, (str, bytes)):
        raise ValueError(f"eps must be a real number, got {eps!r}")
    if not (np.isfinite(eps) and eps > 0):
        raise ValueError(f"eps must be a finite number > 0, got {eps!r}")

    if rms:
        xc = x
        var = np.einsum("ij,ij->i", x, x) / d
    else:
        xc = x - x.mean(axis=1)[:, None]
        var = np.var(x, axis=1)
    r = 1.0 / np.sqrt(var + eps)
    xhat = xc * r[:, None]
    out = np.einsum("ij,j->ij", xhat, gamma) + beta[None, :]

    g = d_out * gamma[None, :]
    sum_g = np.zeros(n) if rms else g.sum(axis=1)
    sum_gx = np.einsum("ij,ij->i", g, xhat)
    d_x = (r / d)[:, None] * (d * g - sum_g[:, None] - xhat * sum_gx[:, None])
    d_gamma = np.einsum("ij,ij->j", d_out, xhat)
    d_beta = np.einsum("ij->j", d_out)
    return out, d_x, d_gamma, d_beta
