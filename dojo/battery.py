"""The inputs ``dojo compare`` feeds to both implementations: one ``Battery`` per kata.

A battery is data: a list of named cases, each with a builder that makes the keyword arguments
of one call from a seeded generator, plus what to draw (``maps``) and how to time it
(``speed``). Adding a kata to ``dojo compare`` means adding one battery to ``BATTERIES``.

Every builder is deterministic: case ``name`` of kata ``k`` always gets the generator seeded
with ``crc32(f"{k}:{name}")``, so two runs compare the same numbers.

Case kinds:
- ``edge``: the contract's edge cases (large logits, mixed scales, -inf, masks with a single
  allowed key, n != m, d_k != d_v != d_model, one head, many heads, causal, array-likes);
- ``random``: ordinary generated inputs of assorted shapes;
- ``error``: one input per ValueError class of the contract.

Only the reference decides what is right: a case's kind is a label, not an expectation
(``tests/tool/test_compare.py`` checks that the reference raises on exactly the error cases).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Callable

import numpy as np

KINDS = ("edge", "random", "error")


@dataclass(frozen=True)
class Case:
    name: str
    build: Callable[[np.random.Generator], dict]
    kind: str = "edge"


@dataclass(frozen=True)
class Panel:
    """One matrix to draw: its title, and which cells the contract forces to exactly 0."""

    title: str
    index: tuple  # where the matrix sits in the kata's outputs: (output number, *leading index)
    blocked: np.ndarray | None = None  # bool, True where the weight must be exactly 0


@dataclass(frozen=True)
class Speed:
    what: str  # the shapes, in words, with n standing for the size
    sizes: tuple[int, int]  # (smaller, realistic); the growth exponent comes from the two
    build: Callable[[int], dict]
    torch: Callable[[object, dict], Callable[[], object]]  # (torch module, kwargs) -> a call


@dataclass(frozen=True)
class Battery:
    kata: str
    outputs: tuple[str, ...]  # what the function returns: one array, or a tuple of arrays
    cases: tuple[Case, ...]
    map_what: str  # the drawn example, in words
    map_inputs: Callable[[], dict]
    panels: Callable[[dict], list[Panel]]
    blocked_words: str  # what a weight on a blocked cell means, e.g. "a future leak"
    speed: Speed

    @property
    def single(self) -> bool:
        return len(self.outputs) == 1

    def rng(self, case: Case) -> np.random.Generator:
        return np.random.default_rng(zlib.crc32(f"{self.kata}:{case.name}".encode()))

    def inputs(self, case: Case) -> dict:
        return case.build(self.rng(case))


def normal(rng: np.random.Generator, shape, scale: float = 1.0) -> np.ndarray:
    """Readable entries: N(0, 1) rounded to 2 decimals, times ``scale`` (as the judge draws them)."""
    return np.round(rng.standard_normal(shape), 2) * scale


def fixed(**kwargs) -> Callable[[np.random.Generator], dict]:
    """A builder that ignores the generator."""
    return lambda rng: {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in kwargs.items()}


def _one_allowed_per_row(rng, n, m, density):
    mask = rng.random((n, m)) < density
    mask[np.arange(n), rng.integers(0, m, size=n)] = True
    return mask


def _set(a: np.ndarray, index, value) -> np.ndarray:
    a = a.copy()
    a[index] = value
    return a


def _torch_weights(torch, q, k, allowed):
    scores = q @ k.transpose(-2, -1) / float(q.shape[-1]) ** 0.5
    if allowed is not None:
        scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1)


# -- softmax --------------------------------------------------------------------------------


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


SOFTMAX = Battery(
    kata="softmax",
    outputs=("softmax(x)",),
    cases=(
        Case("1-D logits", fixed(x=np.array([1.0, 2.0, 3.0]), axis=-1)),
        Case("2-D, axis=-1", lambda r: {"x": normal(r, (3, 5), 2.0), "axis": -1}),
        Case("2-D, axis=0", lambda r: {"x": normal(r, (3, 5), 2.0), "axis": 0}),
        Case("3-D, axis=1", lambda r: {"x": normal(r, (2, 4, 3), 2.0), "axis": 1}),
        Case("3-D, axis=-3", lambda r: {"x": normal(r, (3, 2, 4), 2.0), "axis": -3}),
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
        Case("nested-list input", fixed(x=[[0.5, -1.0, 2.0], [2.0, 2.0, -7.25]], axis=-1)),
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
    map_what="softmax(x, axis=-1) of a 6×6 x with -inf above the diagonal and row 4 shifted by +1e3",
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


# -- masked_attention -----------------------------------------------------------------------


def _qkv(rng, n, m, d_k, d_v, scale=1.0):
    return normal(rng, (n, d_k), scale), normal(rng, (m, d_k), scale), normal(rng, (m, d_v))


def _attn(n, m, d_k, d_v, scale=1.0, mask=None):
    """A masked_attention builder; ``mask`` is None, a name, or a function (rng, n, m) -> mask."""

    def build(rng):
        q, k, v = _qkv(rng, n, m, d_k, d_v, scale)
        kw = {"q": q, "k": k, "v": v}
        if mask == "causal":
            kw["mask"] = np.tril(np.ones((n, m), dtype=bool))
        elif callable(mask):
            kw["mask"] = mask(rng, n, m)
        return kw

    return build


def _attn_random(i: int) -> Case:
    plan = np.random.default_rng(2000 + i)
    n, m, d_k, d_v = (int(s) for s in plan.integers(1, 8, size=4))
    scale = float(plan.choice([0.3, 1.0, 3.0]))
    density = float(plan.choice([0.0, 0.3, 0.6, 1.0]))  # 0.0: no mask at all
    mask = None if density == 0.0 else (lambda rng, n, m: _one_allowed_per_row(rng, n, m, density))
    label = "no mask" if mask is None else f"mask density {density:g}"
    return Case(f"random {i + 1}: n={n}, m={m}, d_k={d_k}, d_v={d_v}, {label}",
                _attn(n, m, d_k, d_v, scale, mask), "random")


def _single_key(rng, n, m):
    mask = np.zeros((n, m), dtype=bool)
    mask[np.arange(n), rng.integers(0, m, size=n)] = True
    return mask


def _padding(rng, n, m):
    mask = np.ones((n, m), dtype=bool)
    mask[:, -2:] = False
    return mask


def _mixed_queries(rng):
    q, k, v = _qkv(rng, 4, 5, 3, 2)
    q[1] *= 1e3
    q[3] *= 1e-3
    return {"q": q, "k": k, "v": v}


def _attn_error(**changes):
    """A valid (n=3, m=4, d_k=2, d_v=5) call with ``changes`` applied; a change may be a function of the kwargs."""

    def build(rng):
        q, k, v = _qkv(rng, 3, 4, 2, 5)
        kw = {"q": q, "k": k, "v": v, "mask": np.ones((3, 4), dtype=bool)}
        for key, value in changes.items():
            kw[key] = value(kw) if callable(value) else value
        return kw

    return build


def _attn_map_inputs() -> dict:
    rng = np.random.default_rng(11)
    q, k, v = _qkv(rng, 6, 7, 4, 3, 1.2)
    # causal over the first 6 keys; key 6 is padding no query may see. Every row of the
    # inverted mask still has an allowed key, so a True-means-blocked mix-up draws a map too.
    return {"q": q, "k": k, "v": v, "mask": np.tril(np.ones((6, 7), dtype=bool))}


def _torch_masked(torch, kw):
    q, k, v = (torch.from_numpy(kw[a]) for a in "qkv")
    allowed = torch.from_numpy(kw["mask"])

    def call():
        w = _torch_weights(torch, q, k, allowed)
        return w @ v, w

    return call


MASKED_ATTENTION = Battery(
    kata="masked_attention",
    outputs=("out", "weights"),
    cases=(
        Case("n = m, no mask", _attn(4, 4, 3, 2)),
        Case("n != m: 3 queries, 6 keys", _attn(3, 6, 4, 2)),
        Case("n != m: 6 queries, 2 keys", _attn(6, 2, 3, 3)),
        Case("d_k != d_v (d_k=5, d_v=2)", _attn(4, 4, 5, 2)),
        Case("causal mask", _attn(5, 5, 3, 4, mask="causal")),
        Case("mask with a single allowed key per row", _attn(4, 6, 3, 2, mask=_single_key)),
        Case("padding mask: last 2 keys blocked", _attn(3, 5, 2, 3, mask=_padding)),
        Case("all-True mask", _attn(3, 4, 2, 2, mask=lambda r, n, m: np.ones((n, m), dtype=bool))),
        Case("one query, one key", _attn(1, 1, 1, 1)),
        Case("large scores (~1e4)", _attn(3, 4, 4, 2, scale=100.0)),
        Case("mixed scales: query rows 1e6 apart", _mixed_queries),
        Case("causal mask, scores above 1e9 (blocked must stay exactly 0)", _attn(4, 4, 2, 3, scale=1e5, mask="causal")),
        Case("float32 inputs (computed in float64)",
             lambda r: {a: x.astype(np.float32) for a, x in _attn(3, 4, 3, 2)(r).items()}),
        Case("nested-list inputs", lambda r: {a: normal(r, s).tolist() for a, s in zip("qkv", [(2, 3), (4, 3), (4, 2)])}),
        Case("integer inputs", lambda r: {a: np.round(normal(r, s, 3.0)).astype(np.int64) for a, s in zip("qkv", [(2, 3), (3, 3), (3, 2)])}),
        *(_attn_random(i) for i in range(8)),
        Case("q is 1-D (no mask)", _attn_error(q=lambda kw: kw["q"][0], mask=None), "error"),
        Case("k is 3-D", _attn_error(k=lambda kw: kw["k"][None]), "error"),
        Case("q has no rows", _attn_error(q=np.zeros((0, 2)), mask=None), "error"),
        Case("d_k = 0", _attn_error(q=np.zeros((3, 0)), k=np.zeros((4, 0))), "error"),
        Case("k wider than q", _attn_error(k=lambda kw: np.hstack([kw["k"], kw["k"]])), "error"),
        Case("k narrower than q", _attn_error(k=lambda kw: kw["k"][:, :1]), "error"),
        Case("v has fewer rows than k", _attn_error(v=lambda kw: kw["v"][:3]), "error"),
        Case("v has more rows than k", _attn_error(v=lambda kw: np.vstack([kw["v"], kw["v"]])), "error"),
        Case("NaN in q", _attn_error(q=lambda kw: _set(kw["q"], (1, 0), np.nan)), "error"),
        Case("+inf in k", _attn_error(k=lambda kw: _set(kw["k"], (2, 1), np.inf)), "error"),
        Case("-inf in v", _attn_error(v=lambda kw: _set(kw["v"], (0, 3), -np.inf)), "error"),
        Case("mask of 0/1 integers", _attn_error(mask=np.ones((3, 4), dtype=np.int64)), "error"),
        Case("mask of shape (m, n)", _attn_error(mask=np.ones((4, 3), dtype=bool)), "error"),
        Case("mask of shape (1, m) (no broadcasting)", _attn_error(mask=np.ones((1, 4), dtype=bool)), "error"),
        Case("a query row with no allowed key", _attn_error(mask=lambda kw: _set(kw["mask"], 1, False)), "error"),
        Case("scores overflow to inf", _attn_error(q=lambda kw: kw["q"] * 1e160, k=lambda kw: kw["k"] * 1e160), "error"),
    ),
    map_what="weights for 6 queries × 7 keys, causal mask, key 6 is padding (row = query, column = key)",
    map_inputs=_attn_map_inputs,
    panels=lambda kw: [Panel("weights", (1,), ~kw["mask"])],
    blocked_words="weight on keys the mask blocks (above the diagonal: a future leak; column 6: padding)",
    speed=Speed(
        what="q, k, v of shape (n, 64), causal mask (n, n)",
        sizes=(256, 512),
        build=lambda n: {**dict(zip("qkv", _qkv(np.random.default_rng(n), n, n, 64, 64))),
                         "mask": np.tril(np.ones((n, n), dtype=bool))},
        torch=_torch_masked,
    ),
)


# -- causal_self_attention ------------------------------------------------------------------


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
        w = _torch_weights(torch, q, k, allowed)
        return w @ v, w

    return call


CAUSAL_SELF_ATTENTION = Battery(
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
        Case("float32 inputs (computed in float64)",
             lambda r: {a: x.astype(np.float32) for a, x in _causal(4, 3, 2, 3)(r).items()}),
        Case("identical positions", _repeated_positions),
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
        Case("NaN in x", _causal_error(x=lambda kw: _set(kw["x"], (2, 1), np.nan)), "error"),
        Case("+inf in w_v", _causal_error(w_v=lambda kw: _set(kw["w_v"], (0, 0), np.inf)), "error"),
        Case("-inf in w_q", _causal_error(w_q=lambda kw: _set(kw["w_q"], (1, 1), -np.inf)), "error"),
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


# -- multihead_attention --------------------------------------------------------------------


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
        w = _torch_weights(torch, q, k, allowed)
        return (w @ v).transpose(0, 1).reshape(n, -1) @ w_o, w

    return call


MULTIHEAD_ATTENTION = Battery(
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
        Case("float32 inputs (computed in float64)",
             lambda r: {k: (v.astype(np.float32) if isinstance(v, np.ndarray) else v)
                        for k, v in _mha(3, 4, 2, 2, 3, 2)(r).items()}),
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
        Case("NaN in x", _mha_error(x=lambda kw: _set(kw["x"], (1, 1), np.nan)), "error"),
        Case("+inf in w_o", _mha_error(w_o=lambda kw: _set(kw["w_o"], (0, 2), np.inf)), "error"),
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


BATTERIES = {b.kata: b for b in (SOFTMAX, MASKED_ATTENTION, CAUSAL_SELF_ATTENTION, MULTIHEAD_ATTENTION)}
