"""``dojo compare``'s inputs for relu: edge cases, random cases, one per ValueError, the map and the speed run."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.batteries import Battery, Case, Panel, Speed, fixed, normal

BATTERY = Battery(
    kata="relu",
    outputs=("relu(x)",),
    cases=(
        Case("1-D", fixed(x=np.array([-2.0, -0.5, 0.0, 0.5, 2.0]))),
        Case("2-D", lambda r: {"x": normal(r, (4, 6), 2.0)}),
        Case("3-D", lambda r: {"x": normal(r, (2, 3, 4), 2.0)}),
        Case("integer input", fixed(x=np.array([[-3, 0, 4]]))),
        Case("nested-list input", fixed(x=[[1.5, -2.0], [0.0, 3.0]])),
        Case("random 1: (70,)", lambda r: {"x": normal(r, (70,), 5.0)}, "random"),
        Case("NaN in x", fixed(x=np.array([1.0, np.nan])), "error"),
        Case("inf in x", fixed(x=np.array([np.inf, 1.0])), "error"),
        Case("0-d input (a scalar)", fixed(x=np.array(2.0)), "error"),
    ),
    map_what="relu of a 6×6 x (row = row of x, column = entry)",
    map_inputs=lambda: {"x": normal(np.random.default_rng(7), (6, 6), 2.0)},
    panels=lambda kw: [Panel("relu(x)", (0,), None, distribution=False)],
    blocked_words="a negative entry kept",
    speed=Speed(
        what="x of shape (n, n)",
        sizes=(256, 512),
        build=lambda n: {"x": normal(np.random.default_rng(n), (n, n), 3.0)},
        torch=lambda torch, kw: (lambda t=torch.from_numpy(kw["x"]): torch.relu(t)),
    ),
)
