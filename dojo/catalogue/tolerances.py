"""Tolerances of their own, for katas whose results float64's tolerance does not fit.

Most katas compute in float64 and are compared at rtol 1e-9, atol 1e-12 (tests/tolerance.py).
A kata whose contract states another accuracy names it once, in its battery
(``Battery.tolerance = "<name>"``, dojo/catalogue/katas/<kata>/battery.py), and the judge
(tests/test_<kata>.py), the diagnosis (dojo/judge/diagnosis.py) and ``dojo compare``
(dojo/commands/compare/agreement.py) all compare through ``within`` with that name, so the three never
disagree about what "the same answer" means.

A tolerance is a function ``(inputs, want) -> allowance``: the largest |got - want| allowed per
entry of the output ``want`` (the reference's), given the call's keyword arguments. Its dtype
is part of it: ``got`` must have ``want``'s dtype.
"""

from __future__ import annotations

from typing import Callable

import numpy as np


def half_attention(inputs: dict, want: np.ndarray) -> np.ndarray:
    """half_precision_attention's contract: per entry (i, c) of out,
    ulp16(fp16(o*)) + 2^-12 · max_j |v[j, c]| · (1 + S_i), S_i = max_j sum_t |q[i, t] k[j, t]| / sqrt(d_k)."""
    q, k, v = (np.asarray(inputs[name], dtype=np.float64) for name in ("q", "k", "v"))
    size = (np.abs(q) @ np.abs(k).T).max(axis=1) / np.sqrt(q.shape[1])  # S_i, (n,)
    with np.errstate(all="ignore"):
        ulp = np.spacing(np.abs(np.asarray(want).astype(np.float16))).astype(np.float64)  # (n, d_v)
    return ulp + 2.0**-12 * np.abs(v).max(axis=0)[None, :] * (1.0 + size[:, None])


#: Each tolerance by the name a battery gives it.
TOLERANCES: dict[str, Callable[[dict, np.ndarray], np.ndarray]] = {
    "float16_attention": half_attention,
}


def within(name: str, got, want, inputs: dict) -> np.ndarray:
    """Per entry: ``got`` within the allowance of tolerance ``name`` around ``want`` (NaN where
    ``want`` has NaN counts as within; NaN or inf anywhere else does not)."""
    got = np.asarray(got).astype(np.float64)
    want = np.asarray(want).astype(np.float64)
    with np.errstate(all="ignore"):
        ok = np.abs(got - want) <= TOLERANCES[name](inputs, want)
    return ok | (np.isnan(got) & np.isnan(want)) | (got == want)


def agree(name: str, got, want, inputs: dict) -> bool:
    """``got`` has ``want``'s shape and dtype, and every entry is within the allowance."""
    if not (isinstance(got, np.ndarray) and isinstance(want, np.ndarray)):
        return False
    if got.shape != want.shape or got.dtype != want.dtype:
        return False
    return bool(within(name, got, want, inputs).all())
