"""The contract of attention_backward, written out again apart from its solution's docstring
(solutions/attention_backward.py): ``check(call)`` raises ``Broken`` when one call drawn by its judge's
strategies breaks it (tests/meta/test_strategies.py draws them)."""

from __future__ import annotations

import numpy as np

from tests.meta.validity import finite_array, shaped
from tests.katas.masked_attention.valid import check as masked_attention_check


def check(call) -> None:
    masked_attention_check(call)
    d_out = finite_array(call, "d_out", 2)
    shaped(d_out, "d_out", (np.shape(call["q"])[0], np.shape(call["v"])[1]))
