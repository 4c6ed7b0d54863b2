"""``dojo compare``'s inputs for layer_norm_backward: edge cases, random cases, one per ValueError, the map and the speed run.

Values are compared at the contract's own accuracy (tolerance.py, "layer_norm_backward"): each
entry within 1e-9 |want| + 1e-12 C S. The map shows xhat, recovered from out = xhat gamma + beta
(gamma has no zero there), and d_x.
"""

from __future__ import annotations

import numpy as np

from dojo.catalogue.batteries import Battery, Case, Panel, Speed, fixed, normal, set_entry


def _ln(n, d, scale=1.0, rms=False, eps=None, beta=True, d_scale=1.0):
    """A builder: x (n, d) of ``scale``, gamma around 1, beta (or 0), d_out of ``d_scale``."""

    def build(rng):
        kw = {"x": normal(rng, (n, d), scale), "gamma": normal(rng, d) + 1.0,
              "beta": normal(rng, d) if beta else np.zeros(d), "d_out": normal(rng, (n, d), d_scale)}
        if eps is not None:
            kw["eps"] = eps
        kw["rms"] = rms
        return kw

    return build


def _standardised(rng, n, d):
    z = rng.standard_normal((n, d))
    return (z - z.mean(axis=1, keepdims=True)) / z.std(axis=1, keepdims=True)


def _offset(rng):
    """Rows 1e4 from 0 with a spread of 1.05e-2 (C about 9e5): E[x^2] - mu^2 cancels."""
    kw = _ln(3, 8)(rng)
    kw["x"] = 1e4 + 1.05e-2 * _standardised(rng, 3, 8)
    return kw


def _mixed(rng):
    """Rows of ordinary size next to rows 1e3 and 5e3 away: one mean for the whole batch shifts them."""
    kw = _ln(4, 5)(rng)
    kw["x"] = kw["x"] + np.array([[0.0], [1e3], [-5e3], [0.0]])
    return kw


def _constant_row(rng):
    kw = _ln(3, 6)(rng)
    kw["x"][1] = 0.75
    return kw


def _large(rng):
    kw = _ln(3, 5)(rng)
    kw["x"], kw["gamma"], kw["d_out"] = kw["x"] * 1e5, kw["gamma"] * 1e3, kw["d_out"] * 1e4
    kw["beta"] = kw["beta"] * 1e4
    return kw


def _random(i: int) -> Case:
    plan = np.random.default_rng(1800 + i)
    n, d = int(plan.integers(1, 7)), int(plan.integers(1, 9))
    rms = bool(plan.integers(0, 2))
    eps = float(plan.choice([1e-5, 1e-6, 1e-3]))
    scale = float(plan.choice([0.3, 1.0, 3.0]))
    return Case(f"random {i + 1}: n={n}, d={d}, rms={rms}, eps={eps:g}", _ln(n, d, scale, rms, eps), "random")


def _error(**changes):
    """A valid (n=3, d=4) call with ``changes`` applied; a change may be a function of the kwargs."""

    def build(rng):
        kw = _ln(3, 4, eps=1e-5)(rng)
        for key, value in changes.items():
            kw[key] = value(kw) if callable(value) else value
        return kw

    return build


def _map_inputs() -> dict:
    rng = np.random.default_rng(18)
    kw = _ln(8, 12, 2.0)(rng)
    kw["gamma"] = np.abs(kw["gamma"]) + 0.5
    kw["x"][3] = 1.5  # a constant row: xhat = 0
    kw["x"][5] = 1e4 + 1.05e-2 * _standardised(rng, 1, 12)[0]  # a row far from 0
    return kw


def _panels(kw) -> list[Panel]:
    gamma, beta = np.asarray(kw["gamma"]), np.asarray(kw["beta"])
    return [
        Panel("xhat, recovered from out = xhat * gamma + beta", derive=lambda outs: (outs[0] - beta) / gamma,
              distribution=False),
        Panel("d_x", (1,), distribution=False),
    ]


def _torch_backward(torch, kw):
    x, gamma, beta, d_out = (torch.from_numpy(np.asarray(kw[a], dtype=np.float64)) for a in ("x", "gamma", "beta", "d_out"))

    def call():
        xx, gg, bb = (a.detach().requires_grad_(True) for a in (x, gamma, beta))
        torch.nn.functional.layer_norm(xx, (x.shape[1],), gg, bb, 1e-5).backward(d_out)
        return xx.grad, gg.grad, bb.grad

    return call


def _speed_case(n: int) -> dict:
    rng = np.random.default_rng(n)
    return {"x": normal(rng, (n, 512), 2.0) + 0.5, "gamma": normal(rng, 512) + 1.0, "beta": normal(rng, 512),
            "d_out": normal(rng, (n, 512)), "eps": 1e-5, "rms": False}


BATTERY = Battery(
    kata="layer_norm_backward",
    outputs=("out", "d_x", "d_gamma", "d_beta"),
    cases=(
        Case("LayerNorm, n=3, d=5", _ln(3, 5)),
        Case("RMSNorm, n=3, d=5, beta = 0 (LLaMA)", _ln(3, 5, rms=True, beta=False)),
        Case("RMSNorm with a beta", _ln(4, 3, rms=True)),
        Case("n = d = 4", _ln(4, 4, 2.0)),
        Case("one row (n = 1)", _ln(1, 6)),
        Case("one feature (d = 1)", _ln(4, 1)),
        Case("one feature (d = 1), RMSNorm", _ln(3, 1, rms=True)),
        Case("a constant row (var = 0, xhat = 0)", _constant_row),
        Case("rows 1e4 from 0, spread 1e-2 (E[x^2] - mu^2 cancels)", _offset),
        Case("rows 1e3 and 5e3 from the others", _mixed),
        Case("small x (~1e-3): eps dominates the variance", _ln(3, 6, 1e-3)),
        Case("small x (~1e-3), RMSNorm", _ln(3, 6, 1e-3, rms=True)),
        Case("eps = 1", _ln(3, 5, eps=1)),
        Case("eps = 0.1 as a NumPy float", _ln(2, 6, 0.5, eps=np.float64(0.1))),
        Case("large entries (x ~1e5, gamma ~1e3, d_out ~1e4)", _large),
        Case("d_out = 0", lambda r: {**_ln(3, 4)(r), "d_out": np.zeros((3, 4))}),
        Case("eps and rms left at their defaults",
             lambda r: {k: v for k, v in _ln(3, 4)(r).items() if k not in ("eps", "rms")}),
        Case("float32 inputs (computed in float64)",
             lambda r: {k: (v.astype(np.float32) if isinstance(v, np.ndarray) else v) for k, v in _ln(3, 4)(r).items()}),
        Case("nested-list inputs", lambda r: {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in _ln(2, 3)(r).items()}),
        Case("integer x", lambda r: {**_ln(3, 5)(r), "x": np.array([[1, 2, 4, 0, -3], [2, 2, 5, 1, 0], [-1, 7, 3, 3, 2]])}),
        *(_random(i) for i in range(8)),
        Case("x 1-D", _error(x=lambda kw: kw["x"][0], d_out=lambda kw: kw["d_out"][0]), "error"),
        Case("x 3-D", _error(x=lambda kw: kw["x"][None], d_out=lambda kw: kw["d_out"][None]), "error"),
        Case("n = 0", _error(x=np.zeros((0, 4)), d_out=np.zeros((0, 4))), "error"),
        Case("d = 0", _error(x=np.zeros((3, 0)), d_out=np.zeros((3, 0)), gamma=np.zeros(0), beta=np.zeros(0)), "error"),
        Case("gamma of shape (d + 1,)", _error(gamma=lambda kw: np.append(kw["gamma"], 1.0)), "error"),
        Case("gamma of shape (1,) (would broadcast)", _error(gamma=np.array([1.5])), "error"),
        Case("beta of shape (1, d) (would broadcast)", _error(beta=lambda kw: kw["beta"][None]), "error"),
        Case("d_out of shape (1, d) (would broadcast)", _error(d_out=lambda kw: kw["d_out"][:1]), "error"),
        Case("d_out of shape (d,) (would broadcast)", _error(d_out=lambda kw: kw["d_out"][0]), "error"),
        Case("d_out of shape (n, 1) (would broadcast)", _error(d_out=lambda kw: kw["d_out"][:, :1]), "error"),
        Case("d_out transposed (d, n)", _error(d_out=lambda kw: kw["d_out"].T.copy()), "error"),
        Case("NaN in x", _error(x=lambda kw: set_entry(kw["x"], (1, 2), np.nan)), "error"),
        Case("inf in gamma", _error(gamma=lambda kw: set_entry(kw["gamma"], 0, np.inf)), "error"),
        Case("NaN in beta", _error(beta=lambda kw: set_entry(kw["beta"], 3, np.nan)), "error"),
        Case("-inf in d_out", _error(d_out=lambda kw: set_entry(kw["d_out"], (2, 1), -np.inf)), "error"),
        Case("eps = 0", _error(eps=0.0), "error"),
        Case("eps < 0", _error(eps=-1e-5), "error"),
        Case("eps NaN", _error(eps=np.nan), "error"),
        Case("eps True", _error(eps=True), "error"),
        Case("eps None", _error(eps=None), "error"),
    ),
    map_what="LayerNorm of an 8×12 x (row = row of x, column = feature; row 3 is constant, row 5 lies 1e4 from 0 with a spread of 1e-2)",
    map_inputs=_map_inputs,
    panels=_panels,
    blocked_words="",
    speed=Speed(
        what="LayerNorm of x, d_out (n, 512), gamma, beta (512,)",
        sizes=(128, 512),
        build=_speed_case,
        torch=_torch_backward,
    ),
    tolerance="layer_norm_backward",
)
