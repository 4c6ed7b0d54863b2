"""The contract of layer_norm_backward, written out again apart from its solution's docstring
(solutions/layer_norm_backward.py): ``check(call)`` raises ``Broken`` when one call drawn by its
judge's strategies breaks it, the cases it leaves open included (tests/meta/test_strategies.py
draws them)."""

from __future__ import annotations

import numbers

import numpy as np

from tests.meta.validity import a_bool, finite_array, need, shaped


def check(call) -> None:
    x = finite_array(call, "x", 2)
    n, d = x.shape
    gamma = finite_array(call, "gamma", 1)
    beta = finite_array(call, "beta", 1)
    d_out = finite_array(call, "d_out", 2)
    shaped(gamma, "gamma", (d,))
    shaped(beta, "beta", (d,))
    shaped(d_out, "d_out", (n, d))
    eps = call.get("eps", 1e-5)
    need(isinstance(eps, numbers.Real) and not isinstance(eps, (bool, np.bool_)) and np.isfinite(eps) and eps > 0,
         f"eps = {eps!r} is not a finite real > 0")
    rms = a_bool(call.get("rms", False), "rms")  # a non-bool rms is left open
    for name, a in (("x", x), ("gamma", gamma), ("beta", beta), ("d_out", d_out)):
        need(np.abs(a).max() <= 1e6, f"{name} has an entry beyond 1e6 in size (left open)")
    centred = x if rms else x - x.mean(axis=1, keepdims=True)
    var = np.mean(centred * centred, axis=1)
    c = np.abs(x).max(axis=1) / np.sqrt(var + float(eps))
    need(c.max() <= 1e6, f"C = {c.max():.3g} > 1e6: a row nearly constant at the scale of its entries and eps (left open)")
