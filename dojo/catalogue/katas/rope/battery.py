"""``dojo compare``'s inputs for rope: edge cases, random cases, one per ValueError, the map and the speed run."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.batteries import Battery, Case, Panel, Speed, normal, set_entry


def _rope(n, d, positions=None, base=10000.0, interleaved=False, scale=1.0):
    """A builder; ``positions`` is None (a shuffled range from 3), a list, or a function of (rng, n)."""

    def build(rng):
        x = normal(rng, (n, d), scale)
        if positions is None:
            p = rng.permutation(n) + 3
        elif callable(positions):
            p = positions(rng, n)
        else:
            p = np.array(positions)
        return {"x": x, "positions": np.asarray(p), "base": base, "interleaved": interleaved}

    return build


def _rope_random(i: int) -> Case:
    plan = np.random.default_rng(6000 + i)
    n, d = int(plan.integers(1, 7)), 2 * int(plan.integers(1, 6))
    base = float(plan.choice([10000.0, 500.0, 10.0]))
    interleaved = bool(i % 2)
    top = int(plan.choice([10, 100, 5000]))
    return Case(
        f"random {i + 1}: n={n}, d={d}, base={base:g}, positions < {top}, {'interleaved' if interleaved else 'half-split'}",
        _rope(n, d, lambda rng, n: rng.integers(0, top, size=n), base, interleaved, float(plan.choice([0.3, 1.0, 3.0]))),
        "random",
    )


def _rope_error(**changes):
    """A valid (n=3, d=4) call with ``changes`` applied; a change may be a function of the kwargs."""

    def build(rng):
        kw = _rope(3, 4, [4, 0, 9])(rng)
        for key, value in changes.items():
            kw[key] = value(kw) if callable(value) else value
        return kw

    return build


def _as(kind):
    def convert(kw):
        return {**kw, "x": kw["x"].tolist() if kind == "list" else np.round(kw["x"] * 3).astype(kind)
                if kind == "int64" else kw["x"].astype(kind)}

    return convert


def _map_inputs() -> dict:
    rng = np.random.default_rng(12)
    q, k = normal(rng, 8, 1.0), normal(rng, 8, 1.0)
    p = np.arange(8)
    return {"x": np.vstack([np.tile(q, (8, 1)), np.tile(k, (8, 1))]),  # rows 0-7: q, rows 8-15: k
            "positions": np.concatenate([p, p]), "base": 100.0, "interleaved": False}


def _scores(x: np.ndarray):
    """The derived map: <rope(q, a), rope(k, b)> for a, b in 0..7, mapped to [0, 1] by Cauchy-Schwarz."""
    bound = float(np.linalg.norm(x[0]) * np.linalg.norm(x[8]))

    def derive(outputs):
        out = np.asarray(outputs[0], dtype=np.float64)
        return (out[:8] @ out[8:16].T / bound + 1.0) / 2.0

    return derive


def _torch_rope(torch, kw):
    x = torch.from_numpy(kw["x"])
    n, d = x.shape
    freqs = 1.0 / (kw["base"] ** (torch.arange(0, d, 2, dtype=torch.float64) / d))
    angles = torch.outer(torch.from_numpy(kw["positions"]).to(torch.float64), freqs)

    def call():
        turn = torch.polar(torch.ones_like(angles), angles)
        r = torch.complex(x[:, : d // 2], x[:, d // 2 :]) * turn
        return torch.cat([r.real, r.imag], dim=1)

    return call


BATTERY = Battery(
    kata="rope",
    outputs=("out",),
    cases=(
        Case("one pair (d = 2)", _rope(4, 2)),
        Case("one row (n = 1) at position 5", _rope(1, 6, [5])),
        Case("every row at position 0 (identity)", _rope(3, 4, [0, 0, 0])),
        Case("positions = arange(n)", _rope(4, 6, [0, 1, 2, 3])),
        Case("shuffled positions, half-split", _rope(5, 8)),
        Case("shuffled positions, interleaved", _rope(5, 8, interleaved=True)),
        Case("repeated positions", _rope(4, 4, [7, 7, 2, 7])),
        Case("positions up to 10**6", _rope(3, 8, [10**6, 999_983, 123_457], interleaved=True)),
        Case("positions up to 10**6, half-split", _rope(2, 6, [10**6, 65_537])),
        Case("base = 2 (fast rotations)", _rope(4, 6, [1, 3, 0, 2], base=2.0)),
        Case("integer base (500)", _rope(3, 4, [2, 9, 4], base=500)),
        Case("d = n (4 × 4)", _rope(4, 4, [3, 1, 8, 2], base=10.0, interleaved=True)),
        Case("positions of dtype uint8", lambda r: {**_rope(3, 4, [200, 3, 17])(r), "positions": np.array([200, 3, 17], dtype=np.uint8)}),
        Case("positions as a list of ints", lambda r: {**_rope(3, 4)(r), "positions": [6, 2, 11]}),
        Case("float32 x (computed in float64)", lambda r: _as(np.float32)(_rope(3, 4, [1, 5, 2], base=10.0)(r))),
        Case("integer x", lambda r: _as("int64")(_rope(3, 6, [4, 0, 2])(r))),
        Case("nested-list x", lambda r: _as("list")(_rope(2, 4, [3, 8], interleaved=True)(r))),
        *(_rope_random(i) for i in range(8)),
        Case("x is 1-D", _rope_error(x=lambda kw: kw["x"][0], positions=np.array([1])), "error"),
        Case("x is 3-D", _rope_error(x=lambda kw: kw["x"][None]), "error"),
        Case("x has no rows", _rope_error(x=np.zeros((0, 4)), positions=np.zeros(0, dtype=np.int64)), "error"),
        Case("x has no columns", _rope_error(x=np.zeros((3, 0))), "error"),
        Case("odd width d = 5", _rope_error(x=lambda kw: np.hstack([kw["x"], kw["x"][:, :1]])), "error"),
        Case("NaN in x", _rope_error(x=lambda kw: set_entry(kw["x"], (1, 2), np.nan)), "error"),
        Case("-inf in x", _rope_error(x=lambda kw: set_entry(kw["x"], (0, 0), -np.inf)), "error"),
        Case("positions has n + 1 entries", _rope_error(positions=np.array([4, 0, 9, 1])), "error"),
        Case("positions of shape (1, n)", _rope_error(positions=np.array([[4, 0, 9]])), "error"),
        Case("float positions (2.5)", _rope_error(positions=np.array([4.0, 2.5, 9.0])), "error"),
        Case("float positions of whole numbers", _rope_error(positions=np.array([4.0, 0.0, 9.0])), "error"),
        Case("bool positions", _rope_error(positions=np.array([True, False, True])), "error"),
        Case("a negative position", _rope_error(positions=np.array([4, -3, 9])), "error"),
        Case("base = 0", _rope_error(base=0.0), "error"),
        Case("negative base", _rope_error(base=-10000.0), "error"),
        Case("base = inf", _rope_error(base=np.inf), "error"),
        Case("base = NaN", _rope_error(base=np.nan), "error"),
    ),
    map_what="the score <rope(q, a), rope(k, b)> for one q and one k at positions a, b = 0..7, "
             "mapped to [0, 1] (row = a, column = b); right answers are constant along each diagonal",
    map_inputs=_map_inputs,
    panels=lambda kw: [Panel("score of rope(q, a) and rope(k, b)", derive=_scores(kw["x"]), distribution=False)],
    blocked_words="",
    speed=Speed(
        what="x of shape (n, 128), positions a shuffled range, half-split",
        sizes=(1024, 4096),
        build=lambda n: _rope(n, 128)(np.random.default_rng(n)),
        torch=_torch_rope,
    ),
)
