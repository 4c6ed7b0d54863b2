"""Tolerances of their own, for katas whose results float64's tolerance does not fit.

Most katas compute in float64 and are compared at rtol 1e-9, atol 1e-12 (tests/tolerance.py).
A kata whose contract states another accuracy defines it in its folder
(``dojo/catalogue/katas/<kata>/tolerance.py``: ``NAME`` and ``allowance``) and names it in its
battery (``Battery.tolerance = NAME``, its battery.py), and the judge
(tests/test_<kata>.py), the diagnosis (dojo/judge/diagnosis.py) and ``dojo compare``
(dojo/commands/compare/agreement.py) all compare through ``within`` with that name, so the three never
disagree about what "the same answer" means.

A tolerance is a function ``(inputs, want) -> allowance``: the largest |got - want| allowed per
entry of the output ``want`` (the reference's), given the call's keyword arguments. Its dtype
is part of it: ``got`` must have ``want``'s dtype.
"""

from __future__ import annotations

import importlib
from typing import Callable

import numpy as np


def _found_in_the_katas() -> dict[str, Callable[[dict, np.ndarray], np.ndarray]]:
    """Each kata's own tolerance, from its folder: ``dojo/catalogue/katas/<kata>/tolerance.py``
    names it (``NAME``) and computes it (``allowance(inputs, want)``)."""
    from dojo.catalogue import katas

    found = {}
    for module in katas.modules():
        if (katas.home(module) / "tolerance.py").is_file():
            own = importlib.import_module(f"dojo.catalogue.katas.{module}.tolerance")
            found[own.NAME] = own.allowance
    return found


#: Each tolerance by the name a battery gives it.
TOLERANCES: dict[str, Callable[[dict, np.ndarray], np.ndarray]] = _found_in_the_katas()


def same_dtype(got: np.dtype, want: np.dtype) -> bool:
    """Whether ``got``'s dtype is the one ``want``'s asks for: the same, or for an integer output
    (token ids) any integer dtype (a contract says "any integer dtype" and means it)."""
    return got == want or (np.dtype(got).kind in "iu" and np.dtype(want).kind in "iu")


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
    if got.shape != want.shape or not same_dtype(got.dtype, want.dtype):
        return False
    return bool(within(name, got, want, inputs).all())


def sequences_as_array(value):
    """A list of integer sequences of any lengths (beam_search's hypotheses: lists of ints or
    1-D integer arrays) as one int64 array padded with -1, so it is compared as an array is;
    None when ``value`` is not such a list."""
    if not isinstance(value, list):
        return None
    try:
        rows = [np.asarray(s) for s in value]
    except Exception:
        return None
    if not all(r.ndim == 1 and (r.dtype.kind in "iu" or r.size == 0) for r in rows):
        return None
    out = np.full((len(rows), max((r.size for r in rows), default=0)), -1, dtype=np.int64)
    for i, r in enumerate(rows):
        out[i, : r.size] = r
    return out
