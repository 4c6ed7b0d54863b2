"""``dojo compare``'s inputs for sliding_window_attention: edge cases, random cases, one per ValueError, the map and the speed run."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.batteries import Battery, Case, Panel, Speed, fixed, normal, rows_far_below, set_entry


def _qkv(rng, n, m, d_k, d_v, scale=1.0):
    return {"q": normal(rng, (n, d_k), scale), "k": normal(rng, (m, d_k), scale), "v": normal(rng, (m, d_v))}


def _sliding(n, m, d_k, d_v, window, num_sinks=0, scale=1.0):
    return lambda rng: {**_qkv(rng, n, m, d_k, d_v, scale), "window": window, "num_sinks": num_sinks}


def allowed_of(n: int, m: int, window: int, num_sinks: int) -> np.ndarray:
    """(n, m) bool, True where query i (position m - n + i) may attend key j."""
    p = (m - n + np.arange(n))[:, None]
    j = np.arange(m)[None, :]
    return (j <= p) & ((p - j < window) | (j < num_sinks))


def _random(i: int) -> Case:
    plan = np.random.default_rng(6000 + i)
    n, extra, d_k, d_v = (int(s) for s in plan.integers(1, 6, size=4))
    m = n + extra + 1
    window, num_sinks = int(plan.integers(1, m + 1)), int(plan.choice([0, 0, 1, 2, 3]))
    scale = float(plan.choice([0.3, 1.0, 3.0]))
    return Case(f"random {i + 1}: n={n} new, m={m} cached, d_k={d_k}, d_v={d_v}, window={window}, num_sinks={num_sinks}",
                _sliding(n, m, d_k, d_v, window, num_sinks, scale), "random")


def _huge_blocked(rng):
    """n=2, m=8, window 2, 1 sink: the keys query 0 may not see point along q[0], 1e12 long."""
    kw = _sliding(2, 8, 3, 2, 2, 1)(rng)
    direction = kw["q"][0] / np.abs(kw["q"][0]).max()
    blocked = np.flatnonzero(~allowed_of(2, 8, 2, 1)[0])
    kw["k"][blocked] = np.outer(np.linspace(1.0, 1.5, blocked.size), direction) * 1e12
    kw["v"][blocked] = normal(rng, (blocked.size, 2), 1e6)
    return kw


def _far_below(rng):
    """Every score about -1e30: a finite -1e9 fill would win the softmax."""
    u = np.array([1.0, 0.5, 2.0])
    return {"q": np.outer([1.0, 1.5], u), "k": -np.outer(normal(rng, 7) ** 2 + 1.0, u) * 1e30,
            "v": normal(rng, (7, 2)), "window": 2, "num_sinks": 1}


def _error(**changes):
    """A valid (n=3, m=6, d_k=2, d_v=4, window 2, 1 sink) call with ``changes`` applied; a change may be a function of the kwargs."""

    def build(rng):
        kw = _sliding(3, 6, 2, 4, 2, 1)(rng)
        for key, value in changes.items():
            kw[key] = value(kw) if callable(value) else value
        return kw

    return build


#: Query 0 sits at position m - n = 3 and sees key 0 (a sink): q[0] = k[0] = 1e200 u makes that score ~1e400.
_U = np.array([1.0, -0.5])


def _map_inputs() -> dict:
    """v = I: out is then exactly the weights, (n, m)."""
    rng = np.random.default_rng(19)
    return {"q": normal(rng, (6, 4), 1.2), "k": normal(rng, (12, 4), 1.2), "v": np.eye(12), "window": 4, "num_sinks": 2}


def _torch_sliding(torch, kw):
    q, k, v = (torch.from_numpy(kw[a]) for a in "qkv")
    allowed = torch.from_numpy(allowed_of(q.shape[0], k.shape[0], kw["window"], kw["num_sinks"]))
    return lambda: torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=allowed)


BATTERY = Battery(
    kata="sliding_window_attention",
    outputs=("out",),
    cases=(
        Case("one decoding step: n=1, m=10, window 3, 2 sinks", _sliding(1, 10, 3, 2, 3, 2)),
        Case("a chunk: n=3, m=9, window 3, no sinks", _sliding(3, 9, 4, 2, 3)),
        Case("window = 1, no sinks (each query sees only itself)", _sliding(3, 7, 2, 3, 1)),
        Case("window = 1, 2 sinks", _sliding(2, 8, 3, 2, 1, 2)),
        Case("a sink inside the window: n=1, m=3, window 3, 1 sink", _sliding(1, 3, 2, 2, 3, 1)),
        Case("prefill n = m = 5, window 2, 3 sinks (a sink in query 0's future)", _sliding(5, 5, 3, 2, 2, 3)),
        Case("window longer than the cache (window 20, m=6)", _sliding(2, 6, 3, 2, 20)),
        Case("more sinks than keys (num_sinks 9, m=5)", _sliding(2, 5, 2, 3, 2, 9)),
        Case("num_sinks = m = 5", _sliding(2, 5, 2, 3, 1, 5)),
        Case("n = m = 1", _sliding(1, 1, 2, 3, 1)),
        Case("large scores (~1e4), n=3, m=8, window 3, 1 sink", _sliding(3, 8, 4, 2, 3, 1, scale=100.0)),
        Case("blocked keys 1e12 long along q[0] (must stay exactly 0)", _huge_blocked),
        Case("every score about -1e30 (far below -1e9)", _far_below),
        Case("rows' allowed scores near -3e4, -3e5, -3e6, -3e7, -3e9, -1e14, -1e25, -1e35 (a finite fill takes some rows)", rows_far_below(_sliding(9, 13, 2, 2, 2, 1))),
        Case("window and num_sinks as numpy.int64", lambda r: {**_sliding(3, 7, 2, 2, 2)(r), "window": np.int64(2), "num_sinks": np.int64(1)}),
        Case("float32 inputs (computed in float64)",
             lambda r: {a: (x.astype(np.float32) if isinstance(x, np.ndarray) else x) for a, x in _sliding(2, 6, 3, 2, 2, 1)(r).items()}),
        Case("nested-list inputs", lambda r: {a: (x.tolist() if isinstance(x, np.ndarray) else x) for a, x in _sliding(2, 5, 2, 2, 2, 1)(r).items()}),
        *(_random(i) for i in range(8)),
        Case("window = 0", _error(window=0), "error"),
        Case("window = -1", _error(window=-1), "error"),
        Case("window = True (a bool)", _error(window=True), "error"),
        Case("window = 2.0 (a float)", _error(window=2.0), "error"),
        Case("num_sinks = -1", _error(num_sinks=-1), "error"),
        Case("num_sinks = False (a bool)", _error(num_sinks=False), "error"),
        Case("q is 1-D (one token as a vector)", _error(q=lambda kw: kw["q"][-1]), "error"),
        Case("k is 3-D", _error(k=lambda kw: kw["k"][None]), "error"),
        Case("d_k = 0", _error(q=np.zeros((3, 0)), k=np.zeros((6, 0))), "error"),
        Case("k wider than q", _error(k=lambda kw: np.hstack([kw["k"], kw["k"]])), "error"),
        Case("v has fewer rows than k", _error(v=lambda kw: kw["v"][:5]), "error"),
        Case("the cache is shorter than the new tokens (m=2 < n=3)",
             _error(k=lambda kw: kw["k"][:2], v=lambda kw: kw["v"][:2]), "error"),
        Case("NaN in q", _error(q=lambda kw: set_entry(kw["q"], (1, 0), np.nan)), "error"),
        Case("+inf in a key no query sees (key 1)", _error(k=lambda kw: set_entry(kw["k"], (1, 1), np.inf)), "error"),
        Case("an allowed score overflows to inf (query 0 and sink 0)",
             _error(q=lambda kw: set_entry(kw["q"], 0, 1e200 * _U), k=lambda kw: set_entry(kw["k"], 0, 1e200 * _U)), "error"),
    ),
    map_what="out with v = I (12 × 12), so out is the weights: 6 newest tokens of 12, window 4, 2 sinks (row = query at position 6+i, column = key)",
    map_inputs=_map_inputs,
    panels=lambda kw: [Panel("weights (out with v = I)", (0,), ~allowed_of(6, 12, 4, 2))],
    blocked_words="weight on a key outside the query's window that is not a sink, or after the query's position",
    speed=Speed(
        what="one query (1, 64) against a cache k, v of shape (n, 64), window 256, 4 sinks (torch: SDPA with the explicit bool mask)",
        sizes=(2048, 8192),
        build=lambda n: {**_qkv(np.random.default_rng(n), 1, n, 64, 64), "window": 256, "num_sinks": 4},
        torch=_torch_sliding,
    ),
)
