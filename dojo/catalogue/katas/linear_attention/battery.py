"""``dojo compare``'s inputs for linear_attention: edge cases (bottom-right causal, entries far
below 0, large entries, the memory bound), random cases, one per ValueError, the map of the
weights (v = the identity, so out is the weight matrix itself) and the speed run."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.batteries import Battery, Case, Panel, Speed, fixed, normal, set_entry

#: The contract's memory bound: at n = 1000, m = 16500, d_k = d_v = 4, causal or not, under 12 MiB.
MEMORY_BOUND = 12 * 2**20  # as tests/test_linear_attention.py: the judge's measure (dojo/worker/memory.py)


def _linear(n, m, d_k, d_v, causal=False, scale=1.0):
    def build(rng):
        return {"q": normal(rng, (n, d_k), scale), "k": normal(rng, (m, d_k), scale), "v": normal(rng, (m, d_v)),
                "causal": causal}

    return build


def _below(low, high, which="q", causal=False):
    """n=3, m=5, d_k=3: every entry of ``which`` between -high and -low, the rest ordinary."""

    def build(rng):
        kw = _linear(3, 5, 3, 2, causal)(rng)
        kw[which] = -np.round(rng.uniform(low, high, kw[which].shape), 2)
        return kw

    return build


def _large(rng):
    """Positive entries around 1e6 (phi = x + 1; exp would overflow), negative ones ordinary."""
    kw = _linear(3, 6, 3, 2, causal=True)(rng)
    for a in ("q", "k"):
        kw[a] = np.where(kw[a] > 0, kw[a] * 1e6, kw[a])
    return kw


def _random(i: int) -> Case:
    plan = np.random.default_rng(13000 + i)
    n, m = sorted(int(s) for s in plan.integers(1, 9, size=2))
    d_k, d_v = (int(s) for s in plan.integers(1, 6, size=2))
    causal = bool(i % 2)
    if not causal:
        n, m = m, n  # not causal: more queries than keys is fine
    return Case(f"random {i + 1}: n={n}, m={m}, d_k={d_k}, d_v={d_v}" + (", causal" if causal else ""),
                _linear(n, m, d_k, d_v, causal, float(plan.choice([0.3, 1.0, 3.0]))), "random")


def _error(**changes):
    """A valid (n=3, m=5, d_k=2, d_v=4) call with ``changes`` applied."""

    def build(rng):
        kw = _linear(3, 5, 2, 4)(rng)
        for key, value in changes.items():
            kw[key] = value(kw) if callable(value) else value
        return kw

    return build


def _map_inputs() -> dict:
    """6 queries, 8 keys, causal; v = the identity, so row i of out is query i's weights."""
    kw = _linear(6, 8, 4, 8, causal=True, scale=1.2)(np.random.default_rng(29))
    kw["v"] = np.eye(8)
    return kw


def _torch_quadratic(torch, kw):
    q, k, v = (torch.from_numpy(kw[a]) for a in "qkv")

    def call():
        fq, fk = torch.nn.functional.elu(q) + 1, torch.nn.functional.elu(k) + 1
        a = (fq @ fk.T).tril()
        return (a @ v) / a.sum(dim=1, keepdim=True)

    return call


BATTERY = Battery(
    kata="linear_attention",
    outputs=("out",),
    cases=(
        Case("not causal, n=3 < m=5", _linear(3, 5, 3, 2)),
        Case("not causal, more queries than keys (n=6, m=3)", _linear(6, 3, 2, 2)),
        Case("causal, n = m = 5", _linear(5, 5, 3, 2, causal=True)),
        Case("causal, n = m = 13 (a chunk of 8 and a shorter one)", _linear(13, 13, 3, 2, causal=True)),
        Case("causal, n=3 < m=7 (aligned bottom-right)", _linear(3, 7, 3, 2, causal=True)),
        Case("causal, one query (a decoding step)", _linear(1, 6, 3, 2, causal=True)),
        Case("d_k = 1", _linear(3, 5, 1, 2, causal=True)),
        Case("every entry of q between -37 and -17 (elu(x) + 1 written literally is inexact)", _below(17.0, 37.0)),
        Case("every entry of q between -300 and -40 (elu(x) + 1 written literally is 0)", _below(40.0, 300.0)),
        Case("every entry of k between -300 and -17, causal", _below(17.0, 300.0, "k", causal=True)),
        Case("entries of q and k around 1e6 (phi = x + 1)", _large),
        Case("causal given as numpy.bool_", lambda r: {**_linear(3, 5, 2, 2)(r), "causal": np.bool_(True)}),
        Case("float32 inputs (computed in float64)",
             lambda r: {a: (x.astype(np.float32) if isinstance(x, np.ndarray) else x) for a, x in _linear(3, 5, 3, 2)(r).items()}),
        Case("nested-list inputs", lambda r: {a: (x.tolist() if isinstance(x, np.ndarray) else x) for a, x in _linear(2, 4, 2, 2, True)(r).items()}),
        Case("keys 0.06 apart near 2**20 (lost in float32)",
             fixed(q=np.array([[1.0]]), k=np.array([[2.0**20], [2.0**20 + 0.06]]), v=np.array([[0.0, 1.0], [1.0, 0.0]]),
                   causal=False)),
        Case("keys 2**-5 apart near 2**20, values +-2**20 (their difference is lost in float32)",
             fixed(q=np.array([[1.0]]), k=np.array([[2.0**20], [2.0**20 + 2.0**-5]]), v=np.array([[2.0**20], [-(2.0**20)]]),
                   causal=False)),
        Case("the memory bound: n = 1000, m = 16500, d = 4, causal, under 12 MiB",
             _linear(1000, 16500, 4, 4, causal=True), max_bytes=MEMORY_BOUND),
        Case("the memory bound: n = 1000, m = 16500, d = 4, not causal, under 12 MiB",
             _linear(1000, 16500, 4, 4, causal=False), max_bytes=MEMORY_BOUND),
        *(_random(i) for i in range(8)),
        Case("q is 1-D", _error(q=lambda kw: kw["q"][0]), "error"),
        Case("k is 3-D", _error(k=lambda kw: kw["k"][None]), "error"),
        Case("d_k = 0", _error(q=np.zeros((3, 0)), k=np.zeros((5, 0))), "error"),
        Case("k has no rows (m = 0)", _error(k=np.zeros((0, 2)), v=np.zeros((0, 4))), "error"),
        Case("k wider than q", _error(k=lambda kw: np.hstack([kw["k"], kw["k"]])), "error"),
        Case("v has fewer rows than k", _error(v=lambda kw: kw["v"][:4]), "error"),
        Case("NaN in q", _error(q=lambda kw: set_entry(kw["q"], (1, 0), np.nan)), "error"),
        Case("+inf in k", _error(k=lambda kw: set_entry(kw["k"], (4, 1), np.inf)), "error"),
        Case("-inf in v", _error(v=lambda kw: set_entry(kw["v"], (0, 3), -np.inf)), "error"),
        Case("causal with fewer keys than queries (m=2 < n=3)",
             _error(k=lambda kw: kw["k"][:2], v=lambda kw: kw["v"][:2], causal=True), "error"),
    ),
    map_what=("the weights phi(q_i)·phi(k_j) / (their sum over j): 6 queries × 8 keys, causal (aligned bottom-right), "
              "read as out with v = the identity (row = query, column = key)"),
    map_inputs=_map_inputs,
    panels=lambda kw: [Panel("weights (out with v = I)", (0,), ~np.tril(np.ones((6, 8), dtype=bool), k=2))],
    blocked_words="weight on keys after the query's position (a future leak: the mask is aligned bottom-right)",
    speed=Speed(
        what="q, k, v of shape (n, 16), causal (torch: the quadratic form, tril of phi(q) phi(k)ᵀ)",
        sizes=(1024, 2048),
        build=lambda n: {**{a: normal(np.random.default_rng(n + i), (n, 16)) for i, a in enumerate("qkv")},
                         "causal": True},
        torch=_torch_quadratic,
    ),
)
