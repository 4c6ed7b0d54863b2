"""beam_search's own tolerance (dojo/catalogue/tolerances.py): its contract's default, scores at
rtol 1e-9 with atol 1e-12 of the largest, and sequences (compared padded with -1, any integer
dtype) exactly."""

from __future__ import annotations

import numpy as np

NAME = "beam_search"


def allowance(inputs: dict, want: np.ndarray) -> np.ndarray:
    """1e-9 |want| + 1e-12 max(1, max |want|): below 1 for token ids, so they must be equal."""
    want = np.asarray(want, dtype=np.float64)
    finite = np.abs(want[np.isfinite(want)])
    return 1e-9 * np.abs(want) + 1e-12 * max(1.0, float(np.max(finite, initial=0.0)))
