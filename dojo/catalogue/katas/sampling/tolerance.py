"""sampling's own tolerance (dojo/catalogue/tolerances.py): probabilities at rtol 1e-9 with an
absolute floor of 1e-300, as its contract states it."""

from __future__ import annotations

import numpy as np

NAME = "sampling"


def allowance(inputs: dict, want: np.ndarray) -> np.ndarray:
    """sampling's contract: probs at rtol 1e-9 with atol 1e-300 (a kept probability of 1e-20
    flushed to 0 is a bug), tokens exactly (1e-9 of a token id is below 1)."""
    return 1e-9 * np.abs(np.asarray(want, dtype=np.float64)) + 1e-300
