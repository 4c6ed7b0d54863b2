"""The demonstrations behind the follow-ups of layer_norm_backward: the one-pass variance's
cancellation, and the identities d_x satisfies."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.demos import Shown, demo
from dojo.text.messages import t


def _say(slug: str, **params) -> str:
    """One line of a demonstration, in the tool's language (``kata.layer_norm_backward.demo.<slug>``)."""
    return t(f"kata.layer_norm_backward.demo.{slug}", **params)


@demo("layer_norm_one_pass")
def layer_norm_one_pass() -> Shown:
    rng = np.random.default_rng(3)
    z = rng.standard_normal(64)
    z = (z - z.mean()) / z.std()
    x = 1e4 + 1e-2 * z  # a row 1e4 from 0 with a spread of 1e-2: variance 1e-4
    exact = float(np.var(np.asarray(x, dtype=np.longdouble) - np.longdouble(1e4)))  # shift first, in long double
    mu = x.mean()
    two_pass = float(np.mean((x - mu) ** 2))
    one_pass = float(np.mean(x * x) - mu * mu)
    err_two, err_one = abs(two_pass - exact) / exact, abs(one_pass - exact) / exact
    lines = [
        _say("one-pass-row", d=x.size, exact=f"{exact:.10e}"),
        _say("one-pass-two", var=f"{two_pass:.10e}", error=f"{err_two:.1e}"),
        _say("one-pass-one", var=f"{one_pass:.10e}", error=f"{err_one:.1e}"),
    ]
    return Shown(lines, {"exact": exact, "two_pass_error": err_two, "one_pass_error": err_one})


def _layer_norm_d_x(x, gamma, d_out, eps, rms):
    centred = x if rms else x - x.mean(axis=1, keepdims=True)
    r = 1.0 / np.sqrt(np.mean(centred * centred, axis=1, keepdims=True) + eps)
    xhat = centred * r
    g = d_out * gamma
    proj = np.mean(g * xhat, axis=1, keepdims=True)
    d_x = r * (g - xhat * proj) if rms else r * (g - g.mean(axis=1, keepdims=True) - xhat * proj)
    return d_x, xhat, r, g


@demo("layer_norm_gradient_identities")
def layer_norm_gradient_identities() -> Shown:
    rng = np.random.default_rng(4)
    x, d_out = rng.standard_normal((4, 8)) * 2.0, rng.standard_normal((4, 8))
    gamma, eps = rng.standard_normal(8) + 1.0, 1e-5
    d_x, xhat, r, g = _layer_norm_d_x(x, gamma, d_out, eps, False)
    row_sums = float(np.abs(d_x.sum(axis=1)).max())
    along_xhat = float(np.abs((d_x * xhat).sum(axis=1)).max())
    var = np.mean((x - x.mean(axis=1, keepdims=True)) ** 2, axis=1)
    predicted = float(np.abs(r[:, 0] * (g * xhat).sum(axis=1) * eps / (var + eps)).max())
    without = float(np.abs((r * (g - xhat * np.mean(g * xhat, axis=1, keepdims=True))).sum(axis=1)).max())
    lines = [
        _say("identities-sums", largest=f"{row_sums:.1e}", size=f"{np.abs(d_x).max():.2f}"),
        _say("identities-without-mean", largest=f"{without:.2f}"),
        _say("identities-xhat", largest=f"{along_xhat:.1e}", predicted=f"{predicted:.1e}"),
    ]
    return Shown(lines, {"row_sums": row_sums, "without_mean": without, "along_xhat": along_xhat,
                         "predicted": predicted, "d_x_max": float(np.abs(d_x).max())})
