"""layer_norm_backward's own tolerance (dojo/catalogue/tolerances.py): its contract's accuracy rule.

With c_i = max_j |x_ij| / sqrt(var_i + eps) (RMSNorm: the mean square for var) and C = max(1,
max_i c_i), each entry must lie within 1e-9 |want| + 1e-12 C S, S the size of its terms:
out: sqrt(d) max|gamma| + max|beta|; d_x row i: r_i d max_j |g_ij| (g = d_out * gamma);
d_gamma and d_beta: sqrt(d) sum_i max_j |d_out_ij|. A row with a large common offset (C up to
1e6) lets a correct two-pass answer lose about C times float64's precision, and no more.

``allowances(inputs)`` gives each output's absolute part (the judge compares each output with
its own). ``allowance(inputs, want)`` is what ``dojo compare`` and the diagnosis use, which see
one output at a time and not its name: for an (n, d) output (out or d_x) it allows the larger
of the two, for a (d,) output the d_gamma / d_beta one.
"""

from __future__ import annotations

import numpy as np

NAME = "layer_norm_backward"
RTOL = 1e-9
ATOL = 1e-12


def _arrays(inputs: dict):
    x = np.asarray(inputs["x"], dtype=np.float64)
    gamma = np.asarray(inputs["gamma"], dtype=np.float64)
    beta = np.asarray(inputs["beta"], dtype=np.float64)
    d_out = np.asarray(inputs["d_out"], dtype=np.float64)
    return x, gamma, beta, d_out, float(inputs.get("eps", 1e-5)), bool(inputs.get("rms", False))


def condition(inputs: dict) -> float:
    """C = max(1, max_i c_i), c_i = max_j |x_ij| / sqrt(var_i + eps) (RMSNorm: mean square)."""
    x, _, _, _, eps, rms = _arrays(inputs)
    centred = x if rms else x - x.mean(axis=1, keepdims=True)
    var = np.mean(centred * centred, axis=1)
    return float(max(1.0, np.max(np.abs(x).max(axis=1) / np.sqrt(var + eps))))


def allowances(inputs: dict) -> dict[str, np.ndarray]:
    """The absolute part 1e-12 C S of each output, by name, broadcastable to its shape."""
    x, gamma, beta, d_out, eps, rms = _arrays(inputs)
    n, d = x.shape
    centred = x if rms else x - x.mean(axis=1, keepdims=True)
    r = 1.0 / np.sqrt(np.mean(centred * centred, axis=1) + eps)          # (n,)
    C = condition(inputs)
    g = np.abs(d_out * gamma)
    sums = np.sqrt(d) * float(np.abs(d_out).max(axis=1).sum())
    return {
        "out": np.full((n, d), ATOL * C * (np.sqrt(d) * np.abs(gamma).max() + np.abs(beta).max())),
        "d_x": np.broadcast_to((ATOL * C * r * d * g.max(axis=1))[:, None], (n, d)).copy(),
        "d_gamma": np.full(d, ATOL * C * sums),
        "d_beta": np.full(d, ATOL * C * sums),
    }


def allowance_of(name: str, inputs: dict, want) -> np.ndarray:
    """The largest |got - want| the contract allows for output ``name``, per entry."""
    return RTOL * np.abs(np.asarray(want, dtype=np.float64)) + allowances(inputs)[name]


def allowance(inputs: dict, want: np.ndarray) -> np.ndarray:
    """For one output whose name is not known: (n, d) is out or d_x (the larger of the two
    allowances), (d,) is d_gamma or d_beta (the same allowance)."""
    want = np.asarray(want, dtype=np.float64)
    try:
        each = allowances(inputs)
    except Exception:  # inputs the contract rules out: compare only needs exactness there
        return RTOL * np.abs(want) + ATOL * max(1.0, float(np.max(np.abs(want), initial=0.0)))
    if want.shape == each["out"].shape:
        return RTOL * np.abs(want) + np.maximum(each["out"], each["d_x"])
    if want.shape == each["d_gamma"].shape:
        return RTOL * np.abs(want) + each["d_gamma"]
    return RTOL * np.abs(want) + ATOL * max(1.0, float(np.max(np.abs(want), initial=0.0)))
