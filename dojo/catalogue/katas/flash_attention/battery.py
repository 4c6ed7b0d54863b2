"""``dojo compare``'s inputs for flash_attention: edge cases (block sizes, extreme scores, the memory
bound), random cases, one per ValueError, the map of the weights exp(s - lse) and the speed run."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.batteries import Battery, Case, Panel, Speed, fixed, normal, scores_far_below, set_entry

#: The contract's memory bound: at n = 1000, m = 16500, d_k = d_v = 4, block_size = 64, causal or not, under 12 MiB.
MEMORY_BOUND = 12 * 2**20  # as tests/test_flash_attention.py: the judge's measure (dojo/worker/memory.py)


def _flash(n, m, d_k, d_v, block_size, causal=False, scale=1.0):
    def build(rng):
        return {"q": normal(rng, (n, d_k), scale), "k": normal(rng, (m, d_k), scale), "v": normal(rng, (m, d_v)),
                "block_size": block_size, "causal": causal}

    return build


def _random(i: int) -> Case:
    plan = np.random.default_rng(6000 + i)
    n, m = sorted(int(s) for s in plan.integers(1, 9, size=2))
    d_k, d_v = (int(s) for s in plan.integers(1, 6, size=2))
    block_size = int(plan.integers(1, m + 2))
    causal = bool(i % 2)
    if not causal:
        n, m = m, n  # not causal: more queries than keys is fine
        block_size = int(plan.integers(1, m + 2))
    return Case(f"random {i + 1}: n={n}, m={m}, d_k={d_k}, d_v={d_v}, block_size={block_size}"
                + (", causal" if causal else ""),
                _flash(n, m, d_k, d_v, block_size, causal, float(plan.choice([0.3, 1.0, 3.0]))), "random")


def _signed_scores(sign: float):
    """Every score about sign × 1e4: q ≈ c u, k ≈ sign c u with c² |u|² / sqrt(d_k) = 1e4."""

    def build(rng):
        u = normal(rng, 4) + 0.5
        c = np.sqrt(1e4 * 2.0 / (u @ u))
        return {"q": np.round(c * u + normal(rng, (3, 4)), 2), "k": np.round(sign * c * u + normal(rng, (7, 4)), 2),
                "v": normal(rng, (7, 3)), "block_size": 3, "causal": False}

    return build


def _huge_future(rng):
    """causal, 3 queries, 6 keys: the keys after query 0's position point along q[0], 1e12 long."""
    kw = _flash(3, 6, 3, 2, 2, causal=True)(rng)
    kw["k"][4:] = np.outer([1.0, 1.5], kw["q"][0] / np.abs(kw["q"][0]).max()) * 1e12
    kw["v"][4:] = normal(rng, (2, 2), 1e6)
    return kw


def _error(**changes):
    """A valid (n=3, m=5, d_k=2, d_v=4, block_size=2) call with ``changes`` applied."""

    def build(rng):
        kw = _flash(3, 5, 2, 4, 2)(rng)
        for key, value in changes.items():
            kw[key] = value(kw) if callable(value) else value
        return kw

    return build


_U = np.array([1.0, -0.5])


def _map_inputs() -> dict:
    return _flash(6, 8, 4, 3, 3, causal=True, scale=1.2)(np.random.default_rng(23))


def _scores(kw) -> np.ndarray:
    """The scaled scores q kᵀ / sqrt(d_k) of the map's example, -inf where the causal mask blocks."""
    q, k = kw["q"], kw["k"]
    n, m = q.shape[0], k.shape[0]
    s = q @ k.T / np.sqrt(q.shape[1])
    return np.where(np.tril(np.ones((n, m), dtype=bool), k=m - n), s, -np.inf)


def _implied_weights(kw):
    scores = _scores(kw)
    return lambda outputs: np.exp(scores - np.asarray(outputs[1], dtype=np.float64)[:, None])


def _torch_sdpa(torch, kw):
    q, k, v = (torch.from_numpy(kw[a]) for a in "qkv")

    def call():
        return torch.nn.functional.scaled_dot_product_attention(q, k, v)

    return call


BATTERY = Battery(
    kata="flash_attention",
    outputs=("out", "lse"),
    cases=(
        Case("block_size = 1 (one key at a time)", _flash(3, 5, 3, 2, 1)),
        Case("block_size = 3 does not divide m = 7", _flash(4, 7, 3, 2, 3)),
        Case("block_size = 4 divides m = 8", _flash(3, 8, 2, 3, 4)),
        Case("block_size = m = 5 (one block)", _flash(4, 5, 2, 3, 5)),
        Case("block_size = 9 > m = 4", _flash(3, 4, 3, 2, 9)),
        Case("causal, n=3 < m=7, block_size = 2", _flash(3, 7, 3, 2, 2, causal=True)),
        Case("causal, n = m = 5, block_size = 2", _flash(5, 5, 2, 3, 2, causal=True)),
        Case("causal, one query (a decoding step), block_size = 3", _flash(1, 6, 3, 2, 3, causal=True)),
        Case("more queries than keys (n=6, m=3), not causal", _flash(6, 3, 2, 2, 2)),
        Case("n = 13 queries, m = 20 keys, block_size = 8 (tiles of 8 leave a remainder)", _flash(13, 20, 3, 2, 8)),
        Case("causal, n = 67 < m = 100, block_size = 16", _flash(67, 100, 5, 3, 16, causal=True)),
        Case("large scores (~1e4), block_size = 2", _flash(3, 6, 4, 2, 2, scale=100.0)),
        Case("causal, block_size = 2, every allowed score far below -1e9 (about -1e12)", scores_far_below(_flash(3, 6, 2, 3, 2, causal=True))),
        Case("causal, block_size = 2, every allowed score far below -1e20 (about -1e30)", scores_far_below(_flash(3, 6, 2, 3, 2, causal=True), 1e15)),
        Case("every score around +1e4", _signed_scores(1.0)),
        Case("every score around -1e4 (a running max starting at 0 underflows)", _signed_scores(-1.0)),
        Case("causal, future keys 1e12 long along q[0] (must stay blocked)", _huge_future),
        Case("causal given as numpy.bool_", lambda r: {**_flash(3, 5, 2, 2, 2)(r), "causal": np.bool_(True)}),
        Case("block_size as numpy.int64", lambda r: {**_flash(3, 5, 2, 2, 2)(r), "block_size": np.int64(2)}),
        Case("float32 inputs (computed in float64)",
             lambda r: {a: (x.astype(np.float32) if isinstance(x, np.ndarray) else x) for a, x in _flash(3, 5, 3, 2, 2)(r).items()}),
        Case("keys 0.06 apart near 2**20 (lost in float32)",
             fixed(q=np.array([[1.0]]), k=np.array([[2.0**20], [2.0**20 + 0.06]]), v=np.array([[0.0, 1.0], [1.0, 0.0]]),
                   block_size=1, causal=False)),
        Case("nested-list inputs", lambda r: {a: (x.tolist() if isinstance(x, np.ndarray) else x) for a, x in _flash(2, 4, 2, 2, 3)(r).items()}),
        Case("the memory bound: n = 1000, m = 16500, d = 4, block_size = 64, under 12 MiB",
             _flash(1000, 16500, 4, 4, 64), max_bytes=MEMORY_BOUND),
        Case("the memory bound: n = 1000, m = 16500, d = 4, block_size = 64, causal, under 12 MiB",
             _flash(1000, 16500, 4, 4, 64, causal=True), max_bytes=MEMORY_BOUND),
        *(_random(i) for i in range(8)),
        Case("block_size = 0", _error(block_size=0), "error"),
        Case("block_size = -2", _error(block_size=-2), "error"),
        Case("block_size = True (a bool)", _error(block_size=True), "error"),
        Case("block_size = 2.0 (a float)", _error(block_size=2.0), "error"),
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
        Case("an allowed score overflows to inf",
             _error(q=lambda kw: set_entry(kw["q"], 0, 1e200 * _U), k=lambda kw: set_entry(kw["k"], 3, 1e200 * _U)), "error"),
    ),
    map_what=("the weights exp(s - lse) that lse implies: 6 queries × 8 keys, causal (aligned bottom-right), "
              "block_size 3 (row = query, column = key)"),
    map_inputs=_map_inputs,
    panels=lambda kw: [Panel("weights exp(s - lse)", derive=_implied_weights(kw),
                             blocked=~np.tril(np.ones((6, 8), dtype=bool), k=2))],
    blocked_words="weight on keys after the query's position (a future leak: the mask is aligned bottom-right)",
    speed=Speed(
        what="q, k, v of shape (n, 64), block_size 128, not causal (torch: its SDPA)",
        sizes=(512, 1024),
        build=lambda n: {**{a: normal(np.random.default_rng(n + i), (n, 64)) for i, a in enumerate("qkv")},
                         "block_size": 128, "causal": False},
        torch=_torch_sdpa,
    ),
)
