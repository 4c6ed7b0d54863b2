"""``dojo compare``'s inputs for kv_cache_attention: edge cases, random cases, one per ValueError, the map and the speed run."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.batteries import Battery, Case, Panel, Speed, fixed, normal, scores_far_below, rows_far_below, set_entry, torch_weights


def _qkv(rng, n, m, d_k, d_v, scale=1.0):
    return {"q": normal(rng, (n, d_k), scale), "k": normal(rng, (m, d_k), scale), "v": normal(rng, (m, d_v))}


def _cached(n, m, d_k, d_v, scale=1.0):
    return lambda rng: _qkv(rng, n, m, d_k, d_v, scale)


def _random(i: int) -> Case:
    plan = np.random.default_rng(5000 + i)
    n, extra, d_k, d_v = (int(s) for s in plan.integers(1, 6, size=4))
    m = n + extra - 1  # m >= n, sometimes m == n
    scale = float(plan.choice([0.3, 1.0, 3.0]))
    return Case(f"random {i + 1}: n={n} new, m={m} cached, d_k={d_k}, d_v={d_v}", _cached(n, m, d_k, d_v, scale), "random")


def _huge_future(rng):
    """3 new tokens, 6 in the cache: the keys after query 0's position point along q[0], 1e12 long."""
    kw = _qkv(rng, 3, 6, 3, 2)
    direction = kw["q"][0] / np.abs(kw["q"][0]).max()
    kw["k"][4:] = np.outer([1.0, 1.5], direction) * 1e12
    kw["v"][4:] = normal(rng, (2, 2), 1e6)
    return kw


def _error(**changes):
    """A valid (n=3, m=5, d_k=2, d_v=4) call with ``changes`` applied; a change may be a function of the kwargs."""

    def build(rng):
        kw = _qkv(rng, 3, 5, 2, 4)
        for key, value in changes.items():
            kw[key] = value(kw) if callable(value) else value
        return kw

    return build


#: Query 0 sits at position m - n = 2 and sees key 1: q[0] = k[1] = 1e200 u makes that score ~1e400.
_U = np.array([1.0, -0.5])


def _map_inputs() -> dict:
    return _qkv(np.random.default_rng(17), 5, 8, 4, 3, 1.2)


def _torch_cached(torch, kw):
    q, k, v = (torch.from_numpy(kw[a]) for a in "qkv")
    n, m = q.shape[0], k.shape[0]
    allowed = torch.ones(n, m, dtype=torch.bool).tril(diagonal=m - n)

    def call():
        w = torch_weights(torch, q, k, allowed)
        return w @ v, w

    return call


BATTERY = Battery(
    kata="kv_cache_attention",
    outputs=("out", "weights"),
    cases=(
        Case("one decoding step: n=1 new token, m=6 cached", _cached(1, 6, 3, 2)),
        Case("a chunk: n=3 new tokens, m=7 cached", _cached(3, 7, 4, 2)),
        Case("a chunk past 8: n=5 new tokens, m=13 cached", _cached(5, 13, 3, 2)),
        Case("prefill: n = m = 5 (ordinary causal attention)", _cached(5, 5, 3, 4)),
        Case("n = m = 1", _cached(1, 1, 2, 3)),
        Case("n=2 new, m=3 cached", _cached(2, 3, 2, 2)),
        Case("d_k != d_v (d_k=5, d_v=2), n=2, m=4", _cached(2, 4, 5, 2)),
        Case("large scores (~1e4), n=3, m=5", _cached(3, 5, 4, 2, scale=100.0)),
        Case("n=3, m=5, every allowed score far below -1e9 (about -1e12)", scores_far_below(_cached(3, 5, 2, 3))),
        Case("rows' allowed scores near -3e4, -3e5, -3e6, -3e7, -3e9, -1e14, -1e25, -1e35 (a finite fill takes some rows)", rows_far_below(lambda r: _qkv(r, 9, 11, 2, 2))),
        Case("future keys 1e12 long along q[0] (must stay exactly 0)", _huge_future),
        Case("float32 inputs (computed in float64)",
             lambda r: {a: x.astype(np.float32) for a, x in _qkv(r, 2, 4, 3, 2).items()}),
        Case("keys 0.06 apart near 2**20 (lost in float32)",
             fixed(q=np.array([[1.0]]), k=np.array([[2.0**20], [2.0**20 + 0.06]]), v=np.array([[0.0, 1.0], [1.0, 0.0]]))),
        Case("nested-list inputs", lambda r: {a: x.tolist() for a, x in _qkv(r, 2, 3, 2, 2).items()}),
        Case("integer inputs", lambda r: {a: np.round(x).astype(np.int64) for a, x in _qkv(r, 2, 4, 3, 2, 3.0).items()}),
        *(_random(i) for i in range(8)),
        Case("q is 1-D (one token as a vector)", _error(q=lambda kw: kw["q"][-1]), "error"),
        Case("k is 3-D", _error(k=lambda kw: kw["k"][None]), "error"),
        Case("q has no rows (n = 0)", _error(q=np.zeros((0, 2))), "error"),
        Case("d_k = 0", _error(q=np.zeros((3, 0)), k=np.zeros((5, 0))), "error"),
        Case("k wider than q", _error(k=lambda kw: np.hstack([kw["k"], kw["k"]])), "error"),
        Case("v has fewer rows than k", _error(v=lambda kw: kw["v"][:4]), "error"),
        Case("v has more rows than k", _error(v=lambda kw: np.vstack([kw["v"], kw["v"]])), "error"),
        Case("the cache is shorter than the new tokens (m=2 < n=3)",
             _error(k=lambda kw: kw["k"][:2], v=lambda kw: kw["v"][:2]), "error"),
        Case("NaN in q", _error(q=lambda kw: set_entry(kw["q"], (1, 0), np.nan)), "error"),
        Case("+inf in a future key (query 0 cannot see key 4)", _error(k=lambda kw: set_entry(kw["k"], (4, 1), np.inf)), "error"),
        Case("-inf in v", _error(v=lambda kw: set_entry(kw["v"], (0, 3), -np.inf)), "error"),
        Case("an allowed score overflows to inf",
             _error(q=lambda kw: set_entry(kw["q"], 0, 1e200 * _U), k=lambda kw: set_entry(kw["k"], 1, 1e200 * _U)), "error"),
    ),
    map_what="weights for the n=5 newest tokens against a cache of m=8 (row = query at position 3+i, column = key)",
    map_inputs=_map_inputs,
    panels=lambda kw: [Panel("weights", (1,), ~np.tril(np.ones((5, 8), dtype=bool), k=3))],
    blocked_words="weight on keys after the query's position (a future leak: the mask is aligned to the bottom-right corner)",
    speed=Speed(
        what="q of shape (n/4, 64) against a cache k, v of shape (n, 64)",
        sizes=(512, 1024),
        build=lambda n: _qkv(np.random.default_rng(n), n // 4, n, 64, 64),
        torch=_torch_cached,
    ),
)
