"""The demonstration behind relu's follow-up: the one-sided slopes at 0."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.demos import Shown, demo
from dojo.text.messages import t


@demo("relu_kink")
def relu_kink() -> Shown:
    h = 1e-6
    left = (np.maximum(0.0, 0.0) - np.maximum(-h, 0.0)) / h
    right = (np.maximum(h, 0.0) - np.maximum(0.0, 0.0)) / h
    return Shown([t("kata.relu.demo.slopes", left=f"{left:g}", right=f"{right:g}")],
                 {"left": float(left), "right": float(right)})
