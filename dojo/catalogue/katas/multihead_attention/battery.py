"""``dojo compare``'s inputs for multihead_attention: edge cases, random cases, one per ValueError, the map and the speed run."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.batteries import Battery, Case, Panel, Speed, fixed, normal, projected_scores_far_below, set_entry, torch_weights


def _mha(n, d_model, h, d_k, d_v, d_out, causal=False, scale=1.0):
    def build(rng):
        return {
            "x": normal(rng, (n, d_model), scale),
            "w_q": normal(rng, (d_model, h * d_k)),
            "w_k": normal(rng, (d_model, h * d_k)),
            "w_v": normal(rng, (d_model, h * d_v)),
            "w_o": normal(rng, (h * d_v, d_out)),
            "num_heads": h,
            "causal": causal,
        }

    return build


def _mha_random(i: int) -> Case:
    plan = np.random.default_rng(4000 + i)
    n, d_model, h, d_k, d_v, d_out = (int(s) for s in plan.integers(1, 6, size=6))
    causal = bool(i % 2)
    return Case(
        f"random {i + 1}: n={n}, d_model={d_model}, heads={h}, d_k={d_k}, d_v={d_v}"
        + (", causal" if causal else ""),
        _mha(n, d_model, h, d_k, d_v, d_out, causal, float(plan.choice([0.3, 1.0]))),
        "random",
    )


def _mha_error(**changes):
    def build(rng):
        kw = _mha(4, 5, 2, 3, 2, 3)(rng)
        for key, value in changes.items():
            kw[key] = value(kw) if callable(value) else value
        return kw

    return build


def _torch_mha(torch, kw):
    x, w_q, w_k, w_v, w_o = (torch.from_numpy(kw[a]) for a in ("x", "w_q", "w_k", "w_v", "w_o"))
    n, h = x.shape[0], kw["num_heads"]
    allowed = torch.ones(n, n, dtype=torch.bool).tril() if kw["causal"] else None

    def call():
        q = (x @ w_q).view(n, h, -1).transpose(0, 1)
        k = (x @ w_k).view(n, h, -1).transpose(0, 1)
        v = (x @ w_v).view(n, h, -1).transpose(0, 1)
        w = torch_weights(torch, q, k, allowed)
        return (w @ v).transpose(0, 1).reshape(n, -1) @ w_o, w

    return call


BATTERY = Battery(
    kata="multihead_attention",
    outputs=("out", "weights"),
    cases=(
        Case("one head", _mha(4, 3, 1, 3, 2, 3)),
        Case("many heads (8)", _mha(5, 4, 8, 2, 1, 3)),
        Case("causal, 2 heads", _mha(5, 4, 2, 3, 2, 4, causal=True)),
        Case("causal, one head", _mha(4, 3, 1, 2, 3, 2, causal=True)),
        Case("d_k != d_v != d_model, d_out differs", _mha(4, 5, 3, 2, 4, 3)),
        Case("a single position (n=1), causal", _mha(1, 3, 2, 2, 2, 2, causal=True)),
        Case("causal given as numpy.bool_", lambda r: {**_mha(4, 3, 2, 2, 2, 3)(r), "causal": np.bool_(True)}),
        Case("large scores (~1e4)", _mha(3, 4, 2, 3, 2, 2, scale=40.0)),
        Case("causal, scores above 1e9 (the future must stay exactly 0)", _mha(4, 3, 2, 2, 2, 3, causal=True, scale=1e5)),
        Case("causal, every allowed score far below -1e9 (about -1e12)", projected_scores_far_below(_mha(4, 3, 2, 2, 2, 3, causal=True))),
        Case("float32 inputs (computed in float64)",
             lambda r: {k: (v.astype(np.float32) if isinstance(v, np.ndarray) else v)
                        for k, v in _mha(3, 4, 2, 2, 3, 2)(r).items()}),
        Case("positions 0.06 apart near 2**20 (lost in float32)",
             fixed(x=np.array([[2.0**20], [2.0**20 + 0.06]]), w_q=np.array([[2.0**-20]]), w_k=np.array([[1.0]]),
                   w_v=np.array([[2.0**-20]]), w_o=np.array([[1.0, -1.0]]), num_heads=1, causal=False)),
        Case("nested-list inputs", lambda r: {k: (v.tolist() if isinstance(v, np.ndarray) else v)
                                              for k, v in _mha(3, 4, 2, 2, 2, 3)(r).items()}),
        *(_mha_random(i) for i in range(8)),
        Case("num_heads = 0", _mha_error(num_heads=0), "error"),
        Case("num_heads = -2", _mha_error(num_heads=-2), "error"),
        Case("num_heads = True (a bool)", _mha_error(num_heads=True), "error"),
        Case("num_heads = 2.0 (a float)", _mha_error(num_heads=2.0), "error"),
        Case("width not divisible by num_heads", _mha_error(num_heads=4), "error"),
        Case("w_k narrower than w_q", _mha_error(w_k=lambda kw: kw["w_k"][:, :4]), "error"),
        Case("w_k wider than w_q", _mha_error(w_k=lambda kw: np.hstack([kw["w_k"], kw["w_k"]])), "error"),
        Case("w_o has too few rows", _mha_error(w_o=lambda kw: kw["w_o"][:3]), "error"),
        Case("w_o has too many rows", _mha_error(w_o=lambda kw: np.vstack([kw["w_o"], kw["w_o"]])), "error"),
        Case("x is 1-D", _mha_error(x=lambda kw: kw["x"][0]), "error"),
        Case("x has no positions", _mha_error(x=np.zeros((0, 5))), "error"),
        Case("w_o has no columns (d_out = 0)", _mha_error(w_o=lambda kw: kw["w_o"][:, :0]), "error"),
        Case("w_k has too few rows", _mha_error(w_k=lambda kw: kw["w_k"][:4]), "error"),
        Case("w_v has too many rows", _mha_error(w_v=lambda kw: np.vstack([kw["w_v"], kw["w_v"]])), "error"),
        Case("NaN in x", _mha_error(x=lambda kw: set_entry(kw["x"], (1, 1), np.nan)), "error"),
        Case("+inf in w_o", _mha_error(w_o=lambda kw: set_entry(kw["w_o"], (0, 2), np.inf)), "error"),
        Case("a score overflows to inf", _mha_error(x=lambda kw: kw["x"] * 1e160), "error"),
    ),
    map_what="causal weights of 2 heads for 6 positions (row = query, column = key)",
    map_inputs=lambda: _mha(6, 6, 2, 3, 3, 4, causal=True, scale=1.2)(np.random.default_rng(3)),
    panels=lambda kw: [
        Panel(f"head {h} weights", (1, h), np.triu(np.ones((6, 6), dtype=bool), 1)) for h in range(2)
    ],
    blocked_words="weight above the diagonal: a future leak",
    speed=Speed(
        what="x (n, 256), 8 heads of width 32, causal",
        sizes=(128, 256),
        build=lambda n: _mha(n, 256, 8, 32, 32, 256, causal=True)(np.random.default_rng(n)),
        torch=_torch_mha,
    ),
)
