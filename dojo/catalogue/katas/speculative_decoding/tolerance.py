"""speculative_decoding's own tolerance (dojo/catalogue/tolerances.py): the tokens exactly, in any
integer dtype, as its contract states it."""

from __future__ import annotations

import numpy as np

NAME = "speculative_decoding"


def allowance(inputs: dict, want: np.ndarray) -> np.ndarray:
    """Token ids are compared exactly (an allowance of 0); ``tolerances.same_dtype`` lets any
    integer dtype stand for the reference's int64 ("any integer dtype" in the contract)."""
    return np.zeros(np.shape(want))
