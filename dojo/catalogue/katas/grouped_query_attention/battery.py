"""``dojo compare``'s inputs for grouped_query_attention: edge cases, random cases, one per ValueError, the map and the speed run."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.batteries import Battery, Case, Panel, Speed, fixed, normal, projected_scores_far_below, set_entry, torch_weights


def _gqa(n, d_model, h, h_kv, d_k, d_v, d_out, causal=False, scale=1.0):
    def build(rng):
        return {
            "x": normal(rng, (n, d_model), scale),
            "w_q": normal(rng, (d_model, h * d_k)),
            "w_k": normal(rng, (d_model, h_kv * d_k)),
            "w_v": normal(rng, (d_model, h_kv * d_v)),
            "w_o": normal(rng, (h * d_v, d_out)),
            "num_heads": h,
            "num_kv_heads": h_kv,
            "causal": causal,
        }

    return build


def _random(i: int) -> Case:
    plan = np.random.default_rng(7000 + i)
    h, h_kv = [(4, 2), (6, 2), (6, 3), (4, 1), (2, 2), (8, 4)][int(plan.integers(0, 6))]
    n, d_model, d_k, d_v, d_out = (int(s) for s in plan.integers(1, 5, size=5))
    causal = bool(i % 2)
    return Case(
        f"random {i + 1}: n={n}, d_model={d_model}, heads={h}, kv heads={h_kv}, d_k={d_k}, d_v={d_v}"
        + (", causal" if causal else ""),
        _gqa(n, d_model, h, h_kv, d_k, d_v, d_out, causal, float(plan.choice([0.3, 1.0]))),
        "random",
    )


def _error(**changes):
    """A valid (n=4, d_model=5, 4 heads, 2 kv heads, d_k=3, d_v=2, d_out=3) call with ``changes`` applied."""

    def build(rng):
        kw = _gqa(4, 5, 4, 2, 3, 2, 3)(rng)
        for key, value in changes.items():
            kw[key] = value(kw) if callable(value) else value
        return kw

    return build


def _overflow(kw):
    """Query head 1 (kv head 0) scores position 2 against itself at ~1e312."""
    w_q, w_k, x = kw["w_q"].copy(), kw["w_k"].copy(), kw["x"].copy()
    w_q[0, 3:6] = [1.0, 0.5, -0.5]
    w_k[0, 0:3] = w_q[0, 3:6]
    x[2, 0] = 1e156
    return {**kw, "x": x, "w_q": w_q, "w_k": w_k}


def _torch_gqa(torch, kw):
    x, w_q, w_k, w_v, w_o = (torch.from_numpy(kw[a]) for a in ("x", "w_q", "w_k", "w_v", "w_o"))
    n, h, h_kv = x.shape[0], kw["num_heads"], kw["num_kv_heads"]
    allowed = torch.ones(n, n, dtype=torch.bool).tril() if kw["causal"] else None

    def call():
        q = (x @ w_q).view(n, h, -1).transpose(0, 1)
        k = (x @ w_k).view(n, h_kv, -1).transpose(0, 1).repeat_interleave(h // h_kv, dim=0)
        v = (x @ w_v).view(n, h_kv, -1).transpose(0, 1).repeat_interleave(h // h_kv, dim=0)
        w = torch_weights(torch, q, k, allowed)
        return (w @ v).transpose(0, 1).reshape(n, -1) @ w_o, w

    return call


BATTERY = Battery(
    kata="grouped_query_attention",
    outputs=("out", "weights"),
    cases=(
        Case("4 query heads share 2 kv heads (g=2)", _gqa(4, 5, 4, 2, 3, 2, 3)),
        Case("6 query heads share 3 kv heads (g=2), causal", _gqa(5, 4, 6, 3, 2, 3, 2, causal=True)),
        Case("6 query heads share 2 kv heads (g=3)", _gqa(4, 3, 6, 2, 2, 1, 4)),
        Case("multi-query: 4 heads, one kv head", _gqa(4, 3, 4, 1, 2, 3, 2)),
        Case("multi-head: 3 heads, 3 kv heads", _gqa(4, 5, 3, 3, 2, 3, 2)),
        Case("one head, one kv head, causal", _gqa(3, 4, 1, 1, 3, 2, 2, causal=True)),
        Case("a single position (n=1), causal", _gqa(1, 3, 4, 2, 2, 2, 2, causal=True)),
        Case("d_k = d_v, d_model = h * d_k", _gqa(4, 8, 4, 2, 2, 2, 3)),
        Case("causal given as numpy.bool_", lambda r: {**_gqa(4, 3, 4, 2, 2, 2, 3)(r), "causal": np.bool_(True)}),
        Case("head counts as numpy.int64", lambda r: {**_gqa(3, 4, 4, 2, 2, 3, 2)(r),
                                                     "num_heads": np.int64(4), "num_kv_heads": np.int64(2)}),
        Case("large scores (~1e4)", _gqa(3, 4, 4, 2, 3, 2, 2, scale=40.0)),
        Case("causal, scores above 1e9 (the future must stay exactly 0)", _gqa(4, 3, 4, 2, 2, 2, 3, causal=True, scale=1e5)),
        Case("causal, every allowed score far below -1e9 (about -1e12)", projected_scores_far_below(_gqa(4, 3, 4, 2, 2, 2, 3, causal=True))),
        Case("causal, every allowed score far below -1e30 (about -1e40)",
             projected_scores_far_below(_gqa(4, 3, 4, 2, 2, 2, 3, causal=True), far=1e20)),
        Case("float32 inputs (computed in float64)",
             lambda r: {k: (v.astype(np.float32) if isinstance(v, np.ndarray) else v)
                        for k, v in _gqa(3, 4, 4, 2, 2, 3, 2)(r).items()}),
        Case("positions 0.06 apart near 2**20 (lost in float32)",
             fixed(x=np.array([[2.0**20], [2.0**20 + 0.06]]), w_q=np.array([[2.0**-20]]), w_k=np.array([[1.0]]),
                   w_v=np.array([[2.0**-20]]), w_o=np.array([[1.0, -1.0]]), num_heads=1, num_kv_heads=1, causal=False)),
        Case("nested-list inputs", lambda r: {k: (v.tolist() if isinstance(v, np.ndarray) else v)
                                              for k, v in _gqa(3, 4, 4, 2, 2, 2, 3)(r).items()}),
        *(_random(i) for i in range(8)),
        Case("num_heads = 0", _error(num_heads=0), "error"),
        Case("num_kv_heads = -2", _error(num_kv_heads=-2), "error"),
        Case("num_kv_heads = True (a bool; widths fit one kv head)",
             _error(num_kv_heads=True, w_k=lambda kw: kw["w_k"][:, :3], w_v=lambda kw: kw["w_v"][:, :2]), "error"),
        Case("num_heads = 4.0 (a float)", _error(num_heads=4.0), "error"),
        Case("num_kv_heads = 3 does not divide num_heads = 4 (widths fit)",
             _error(num_kv_heads=3, w_k=lambda kw: np.hstack([kw["w_k"], kw["w_k"][:, :3]]),
                    w_v=lambda kw: np.hstack([kw["w_v"], kw["w_v"][:, :2]])), "error"),
        Case("num_kv_heads = 8 > num_heads = 4 (widths fit)",
             _error(num_kv_heads=8, w_k=lambda kw: np.hstack([kw["w_k"]] * 4), w_v=lambda kw: np.hstack([kw["w_v"]] * 4)), "error"),
        Case("w_q's width not divisible by num_heads", _error(w_q=lambda kw: kw["w_q"][:, :11]), "error"),
        Case("w_v's width not divisible by num_kv_heads", _error(w_v=lambda kw: kw["w_v"][:, :3]), "error"),
        Case("k heads wider than q heads (w_k has 2 × 4 columns)",
             _error(w_k=lambda kw: np.hstack([kw["w_k"], kw["w_k"][:, :2]])), "error"),
        Case("w_o has too few rows", _error(w_o=lambda kw: kw["w_o"][:6]), "error"),
        Case("w_k has too few rows", _error(w_k=lambda kw: kw["w_k"][:4]), "error"),
        Case("x is 1-D", _error(x=lambda kw: kw["x"][0]), "error"),
        Case("x has no positions", _error(x=np.zeros((0, 5))), "error"),
        Case("NaN in x", _error(x=lambda kw: set_entry(kw["x"], (1, 1), np.nan)), "error"),
        Case("+inf in w_k", _error(w_k=lambda kw: set_entry(kw["w_k"], (0, 2), np.inf)), "error"),
        Case("NaN in w_o", _error(w_o=lambda kw: set_entry(kw["w_o"], (3, 1), np.nan)), "error"),
        Case("a score overflows to inf", lambda rng: _overflow(_error()(rng)), "error"),
    ),
    map_what="causal weights of 4 query heads sharing 2 kv heads (g=2) for 5 positions (row = query, column = key)",
    map_inputs=lambda: _gqa(5, 6, 4, 2, 3, 3, 4, causal=True, scale=1.2)(np.random.default_rng(29)),
    panels=lambda kw: [
        Panel(f"query head {h} (kv head {h // 2}) weights", (1, h), np.triu(np.ones((5, 5), dtype=bool), 1))
        for h in range(4)
    ],
    blocked_words="weight above the diagonal: a future leak",
    speed=Speed(
        what="x (n, 256), 8 query heads of width 32 sharing 2 kv heads, causal",
        sizes=(128, 256),
        build=lambda n: _gqa(n, 256, 8, 2, 32, 32, 256, causal=True)(np.random.default_rng(n)),
        torch=_torch_gqa,
    ),
)
