"""``dojo compare``'s inputs for causal_self_attention: edge cases, random cases, one per ValueError, the map and the speed run."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.batteries import Battery, Case, Panel, Speed, fixed, normal, projected_scores_far_below, set_entry, torch_weights


def _causal(n, d_model, d_k, d_v, scale=1.0):
    def build(rng):
        return {
            "x": normal(rng, (n, d_model), scale),
            "w_q": normal(rng, (d_model, d_k)),
            "w_k": normal(rng, (d_model, d_k)),
            "w_v": normal(rng, (d_model, d_v)),
        }

    return build


def _causal_random(i: int) -> Case:
    plan = np.random.default_rng(3000 + i)
    n, d_model, d_k, d_v = (int(s) for s in plan.integers(1, 8, size=4))
    scale = float(plan.choice([0.3, 1.0, 2.0]))
    return Case(f"random {i + 1}: n={n}, d_model={d_model}, d_k={d_k}, d_v={d_v}",
                _causal(n, d_model, d_k, d_v, scale), "random")


def _causal_error(**changes):
    def build(rng):
        kw = _causal(4, 3, 2, 5)(rng)
        for key, value in changes.items():
            kw[key] = value(kw) if callable(value) else value
        return kw

    return build


def _repeated_positions(rng):
    kw = _causal(5, 3, 2, 2)(rng)
    kw["x"] = np.tile(kw["x"][:1], (5, 1))
    return kw


def _torch_causal(torch, kw):
    x, w_q, w_k, w_v = (torch.from_numpy(kw[a]) for a in ("x", "w_q", "w_k", "w_v"))
    n = x.shape[0]
    allowed = torch.ones(n, n, dtype=torch.bool).tril()

    def call():
        q, k, v = x @ w_q, x @ w_k, x @ w_v
        w = torch_weights(torch, q, k, allowed)
        return w @ v, w

    return call


BATTERY = Battery(
    kata="causal_self_attention",
    outputs=("out", "weights"),
    cases=(
        Case("d_k != d_v != d_model (5, 3, 2)", _causal(6, 5, 3, 2)),
        Case("d_v > d_model", _causal(4, 2, 3, 6)),
        Case("a single position (n=1)", _causal(1, 3, 2, 2)),
        Case("d_k = 1", _causal(5, 4, 1, 3)),
        Case("a long sequence (n=16)", _causal(16, 4, 3, 2)),
        Case("large scores (~1e4)", _causal(4, 3, 3, 2, scale=60.0)),
        Case("scores above 1e9 (the future must stay exactly 0)", _causal(4, 3, 2, 2, scale=1e5)),
        Case("every allowed score far below -1e9 (about -1e12)", projected_scores_far_below(_causal(4, 3, 2, 2))),
        Case("float32 inputs (computed in float64)",
             lambda r: {a: x.astype(np.float32) for a, x in _causal(4, 3, 2, 3)(r).items()}),
        Case("identical positions", _repeated_positions),
        Case("positions 0.06 apart near 2**20 (lost in float32)",
             fixed(x=np.array([[2.0**20], [2.0**20 + 0.06]]), w_q=np.array([[2.0**-20]]), w_k=np.array([[1.0]]),
                   w_v=np.array([[2.0**-20, 1.0]]))),
        Case("nested-list inputs", lambda r: {k: v.tolist() for k, v in _causal(3, 2, 2, 2)(r).items()}),
        *(_causal_random(i) for i in range(8)),
        Case("x is 1-D", _causal_error(x=lambda kw: kw["x"][0]), "error"),
        Case("x has no positions", _causal_error(x=np.zeros((0, 3))), "error"),
        Case("w_q has too few rows", _causal_error(w_q=lambda kw: kw["w_q"][:2]), "error"),
        Case("w_v has too many rows", _causal_error(w_v=lambda kw: np.vstack([kw["w_v"], kw["w_v"]])), "error"),
        Case("w_k narrower than w_q", _causal_error(w_k=lambda kw: kw["w_k"][:, :1]), "error"),
        Case("w_k wider than w_q", _causal_error(w_k=lambda kw: np.hstack([kw["w_k"], kw["w_k"]])), "error"),
        Case("a projection of width 0", _causal_error(w_v=np.zeros((3, 0))), "error"),
        Case("w_k is 3-D", _causal_error(w_k=lambda kw: kw["w_k"][None]), "error"),
        Case("NaN in x", _causal_error(x=lambda kw: set_entry(kw["x"], (2, 1), np.nan)), "error"),
        Case("+inf in w_v", _causal_error(w_v=lambda kw: set_entry(kw["w_v"], (0, 0), np.inf)), "error"),
        Case("-inf in w_q", _causal_error(w_q=lambda kw: set_entry(kw["w_q"], (1, 1), -np.inf)), "error"),
        Case("a score overflows to inf", _causal_error(x=lambda kw: kw["x"] * 1e160), "error"),
    ),
    map_what="causal weights for a sequence of 6 positions (row = query, column = key)",
    map_inputs=lambda: _causal(6, 4, 3, 3, 1.3)(np.random.default_rng(5)),
    panels=lambda kw: [Panel("weights", (1,), np.triu(np.ones((6, 6), dtype=bool), 1))],
    blocked_words="weight above the diagonal: a future leak",
    speed=Speed(
        what="x (n, 128), w_q, w_k, w_v (128, 64)",
        sizes=(256, 512),
        build=lambda n: _causal(n, 128, 64, 64)(np.random.default_rng(n)),
        torch=_torch_causal,
    ),
)
