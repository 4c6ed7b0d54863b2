"""``dojo compare``'s inputs for softmax: edge cases, random cases, one per ValueError, the map and the speed run."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.batteries import Battery, Case, Panel, Speed, normal, fixed


def _softmax_random(i: int) -> Case:
    plan = np.random.default_rng(1000 + i)
    ndim = int(plan.integers(1, 5))
    shape = tuple(int(s) for s in plan.integers(1, 7, size=ndim))
    axis = int(plan.integers(-ndim, ndim))
    scale = float(plan.choice([0.3, 1.0, 3.0, 10.0]))
    with_inf = bool(plan.random() < 0.4)

    def build(rng):
        x = normal(rng, shape, scale)
        if with_inf:
            x[rng.random(shape) < 0.3] = -np.inf
            keep = rng.integers(0, shape[axis], size=_drop(shape, axis))
            idx = list(np.indices(_drop(shape, axis)))
            idx.insert(axis % ndim, keep)
            x[tuple(idx)] = normal(rng, _drop(shape, axis), scale)
        return {"x": x, "axis": axis}

    return Case(f"random {i + 1}: shape {shape}, axis={axis}" + (", some -inf" if with_inf else ""), build, "random")


def _drop(shape, axis):
    axis = axis % len(shape)
    return tuple(s for i, s in enumerate(shape) if i != axis)


def _softmax_map_inputs() -> dict:
    rng = np.random.default_rng(7)
    x = normal(rng, (6, 6), 2.0)
    x[np.triu_indices(6, 1)] = -np.inf  # masked logits: a causal pattern
    x[4] += 1e3  # one row on another scale: a global max shift loses the others
    return {"x": x, "axis": -1}


def _mixed_rows(rng):
    x = normal(rng, (4, 5))
    x[1] += 1e4
    x[3] = x[3] * 100 - 1e4
    return x


BATTERY = Battery(
    kata="softmax",
    outputs=("softmax(x)",),
    cases=(
        Case("1-D logits", fixed(x=np.array([1.0, 2.0, 3.0]), axis=-1)),
        # square, so that a max or a sum without keepdims broadcasts (against the wrong axis) instead of raising
        Case("2-D, axis=-1", lambda r: {"x": normal(r, (4, 4), 2.0), "axis": -1}),
        Case("2-D, axis=0", lambda r: {"x": normal(r, (3, 5), 2.0), "axis": 0}),
        Case("3-D, axis=1", lambda r: {"x": normal(r, (2, 4, 3), 2.0), "axis": 1}),
        Case("3-D, axis=-3", lambda r: {"x": normal(r, (3, 2, 4), 2.0), "axis": -3}),
        Case("5-D, axis=2", lambda r: {"x": normal(r, (2, 1, 3, 2, 2), 2.0), "axis": 2}),
        # one block of 256 and a partial one: an online softmax that drops the partial block
        Case("slices 300 long", lambda r: {"x": normal(r, (2, 300), 3.0), "axis": -1}),
        Case("large logits (~1e4)", fixed(x=np.array([[1e4, 1e4 - 1.0, -1e4], [3e4, 2.9e4, 3e4]]), axis=-1)),
        Case("mixed scales: rows 1e4 apart", lambda r: {"x": _mixed_rows(r), "axis": -1}),
        Case("mixed scales: columns 1e4 apart, axis=0", lambda r: {"x": _mixed_rows(r).T.copy(), "axis": 0}),
        Case("-inf logits (masked)", fixed(x=np.array([[0.0, -np.inf, 1.0], [-np.inf, 2.0, 2.0]]), axis=-1)),
        Case("one finite entry per slice", fixed(x=np.array([[-np.inf, 5.0, -np.inf], [-3.0, -np.inf, -np.inf]]), axis=-1)),
        Case("-inf logits, axis=0", fixed(x=np.array([[0.0, -np.inf], [-np.inf, 1.0], [2.0, 3.0]]), axis=0)),
        Case("a single entry", fixed(x=np.array([[3.0]]), axis=-1)),
        Case("slices of length 1, axis=0", lambda r: {"x": normal(r, (1, 4)), "axis": 0}),
        Case("equal logits", fixed(x=np.full((2, 4), 7.5), axis=-1)),
        Case("float32 input (computed in float64)", lambda r: {"x": normal(r, (3, 4), 3.0).astype(np.float32), "axis": -1}),
        Case("integer input", fixed(x=np.array([[1, 2, 3], [0, 0, 10]]), axis=-1)),
        Case("uint8 input (computed in float64)", fixed(x=np.array([[200, 10, 255], [0, 3, 1]], dtype=np.uint8), axis=-1)),
        Case("nested-list input", fixed(x=[[0.5, -1.0, 2.0], [2.0, 2.0, -7.25]], axis=-1)),
        Case("logits 0.06 apart near 2**20 (lost in float32)",
             fixed(x=np.array([[2.0**20, 2.0**20 + 0.06, 2.0**20 - 0.06], [0.5, 1.5, -0.5]]), axis=-1)),
        *(_softmax_random(i) for i in range(8)),
        Case("NaN in x", fixed(x=np.array([[1.0, np.nan, 0.0], [1.0, 2.0, 3.0]]), axis=-1), "error"),
        Case("+inf in x", fixed(x=np.array([[1.0, 2.0, np.inf]]), axis=-1), "error"),
        Case("a slice entirely -inf", fixed(x=np.array([[1.0, 2.0], [-np.inf, -np.inf]]), axis=-1), "error"),
        Case("a slice entirely -inf along axis=0", fixed(x=np.array([[1.0, -np.inf], [2.0, -np.inf]]), axis=0), "error"),
        Case("0-d input (a scalar)", fixed(x=np.array(2.0), axis=-1), "error"),
        Case("axis=2 out of range for 2-D", fixed(x=np.ones((2, 3)), axis=2), "error"),
        Case("axis=-3 out of range for 2-D", fixed(x=np.ones((2, 3)), axis=-3), "error"),
        Case("length 0 along axis", fixed(x=np.zeros((3, 0)), axis=-1), "error"),
    ),
    map_what="softmax(x, axis=-1) of a 6×6 x with -inf above the diagonal and row 4 shifted by +1e3 (row = row of x, column = entry along axis -1)",
    map_inputs=_softmax_map_inputs,
    panels=lambda kw: [Panel("softmax(x, axis=-1)", (0,), np.isneginf(kw["x"]))],
    blocked_words="weight on -inf logits",
    speed=Speed(
        what="x of shape (n, n), axis=-1",
        sizes=(256, 512),
        build=lambda n: {"x": normal(np.random.default_rng(n), (n, n), 3.0), "axis": -1},
        torch=lambda torch, kw: (lambda t=torch.from_numpy(kw["x"]): torch.softmax(t, dim=kw["axis"])),
    ),
)
