"""``dojo compare``'s inputs for alibi_attention: edge cases, random cases, one per ValueError, the map and the speed run."""

from __future__ import annotations

import math

import numpy as np

from dojo.catalogue.batteries import Battery, Case, Panel, Speed, fixed, normal, set_entry


def _qkv(rng, h, n, m, d_k, d_v, scale=1.0):
    return {
        "q": normal(rng, (h, n, d_k), scale),
        "k": normal(rng, (h, m, d_k), scale),
        "v": normal(rng, (h, m, d_v)),
    }


def _heads(h, n, m, d_k, d_v, scale=1.0):
    return lambda rng: _qkv(rng, h, n, m, d_k, d_v, scale)


def _random(i: int) -> Case:
    plan = np.random.default_rng(14000 + i)
    h = int(plan.choice([1, 2, 3, 4, 5, 6, 7, 8, 12, 16]))
    n, extra, d_k, d_v = (int(s) for s in plan.integers(1, 6, size=4))
    m = n + extra - 1  # m >= n, sometimes m == n
    scale = float(plan.choice([0.3, 1.0, 3.0]))
    return Case(f"random {i + 1}: h={h} heads, n={n}, m={m}, d_k={d_k}, d_v={d_v}", _heads(h, n, m, d_k, d_v, scale), "random")


def _zero_queries(h, n, m):
    """q = 0 and v = the identity: out holds the weights, which are the ALiBi prior alone."""
    return lambda rng: {"q": np.zeros((h, n, 2)), "k": normal(rng, (h, m, 2)), "v": np.broadcast_to(np.eye(m), (h, m, m)).copy()}


def _huge_future(rng):
    """4 heads, 3 queries, 6 keys: the keys after query 0's position point along q[:, 0], 1e12 long."""
    kw = _qkv(rng, 4, 3, 6, 3, 2)
    direction = kw["q"][:, 0] / np.abs(kw["q"][:, 0]).max(axis=1, keepdims=True)
    kw["k"][:, 4:] = np.array([1.0, 1.5])[None, :, None] * direction[:, None, :] * 1e12
    kw["v"][:, 4:] = normal(rng, (4, 2, 2), 1e6)
    return kw


def _far_below(rng):
    """3 heads, 3 queries, 5 keys; q = a 2^20 u and k = -b 2^20 u with small integers (b
    distinct), so every score is exact and below -4e11 (a finite -1e9 fill would beat them all)."""
    u = np.array([[[1.0, -2.0]], [[3.0, 1.0]], [[-1.0, -1.0]]])
    a = rng.integers(1, 4, size=(3, 3, 1)).astype(float)
    b = np.stack([rng.permutation(5) + 1.0 for _ in range(3)])[:, :, None]
    return {"q": a * u * 2.0**20, "k": -b * u * 2.0**20, "v": normal(rng, (3, 5, 2))}


def _error(**changes):
    """A valid (h=3, n=3, m=5, d_k=2, d_v=4) call with ``changes`` applied; a change may be a function of the kwargs."""

    def build(rng):
        kw = _qkv(rng, 3, 3, 5, 2, 4)
        for key, value in changes.items():
            kw[key] = value(kw) if callable(value) else value
        return kw

    return build


#: Head 1, query 0 sits at position m - n = 2 and sees key 1: q[1, 0] = k[1, 1] = 1e200 u makes that score ~1e400.
_U = np.array([1.0, -0.5])


def _map_inputs() -> dict:
    rng = np.random.default_rng(14)
    return {"q": normal(rng, (6, 5, 4), 1.2), "k": normal(rng, (6, 8, 4), 1.2), "v": np.broadcast_to(np.eye(8), (6, 8, 8)).copy()}


def _slopes(h: int) -> list[float]:
    """Press et al.'s get_slopes (the product form)."""
    if math.log2(h).is_integer():
        start = 2 ** (-(2 ** -(math.log2(h) - 3)))
        return [start * start**i for i in range(h)]
    c = 2 ** math.floor(math.log2(h))
    return _slopes(c) + _slopes(2 * c)[0::2][: h - c]


def _torch_alibi(torch, kw):
    q, k, v = (torch.from_numpy(kw[a]) for a in "qkv")
    h, n, m = q.shape[0], q.shape[1], k.shape[1]
    distance = (torch.arange(m - n, m)[:, None] - torch.arange(m)[None, :]).to(torch.float64)
    slopes = torch.tensor(_slopes(h), dtype=torch.float64)
    bias = (-slopes[:, None, None] * distance).masked_fill(distance < 0, float("-inf"))
    return lambda: torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=bias)


_BLOCKED = ~np.tril(np.ones((5, 8), dtype=bool), k=3)

BATTERY = Battery(
    kata="alibi_attention",
    outputs=("out",),
    cases=(
        Case("one decoding step: h=8, n=1, m=6", _heads(8, 1, 6, 3, 2)),
        Case("h=6 heads (not a power of 2), n=3, m=7", _heads(6, 3, 7, 4, 2)),
        Case("h=3 heads, n=2, m=5", _heads(3, 2, 5, 2, 3)),
        Case("h=5 heads, n=2, m=4", _heads(5, 2, 4, 3, 2)),
        Case("h=12 heads, n=3, m=6", _heads(12, 3, 6, 2, 3)),
        Case("one head (slope 1/256), n=2, m=6", _heads(1, 2, 6, 3, 2)),
        Case("prefill: h=4, n = m = 5", _heads(4, 5, 5, 3, 4)),
        Case("n = m = 1, h=2", _heads(2, 1, 1, 2, 3)),
        Case("q = 0, v = I: the bias alone, h=6, n=2, m=6", _zero_queries(6, 2, 6)),
        Case("q = 0, v = I: the bias alone, h=256, n=1, m=4", _zero_queries(256, 1, 4)),
        Case("q = 0, v = I: the bias alone, h=24, n=3, m=5", _zero_queries(24, 3, 5)),
        Case("large scores (~1e4), h=4, n=3, m=5", _heads(4, 3, 5, 4, 2, scale=100.0)),
        Case("future keys 1e12 long along q[:, 0] (must get weight 0)", _huge_future),
        Case("every score below -4e11 (future keys must still get weight 0)", _far_below),
        Case("float32 inputs (computed in float64)",
             lambda r: {a: x.astype(np.float32) for a, x in _qkv(r, 3, 2, 4, 3, 2).items()}),
        Case("keys 0.06 apart near 2**20 (lost in float32)",
             fixed(q=np.array([[[1.0]]]), k=np.array([[[2.0**20], [2.0**20 + 0.06]]]), v=np.array([[[0.0, 1.0], [1.0, 0.0]]]))),
        Case("nested-list inputs", lambda r: {a: x.tolist() for a, x in _qkv(r, 2, 2, 3, 2, 2).items()}),
        Case("integer inputs", lambda r: {a: np.round(x).astype(np.int64) for a, x in _qkv(r, 3, 2, 4, 3, 2, 3.0).items()}),
        *(_random(i) for i in range(8)),
        Case("q is 2-D (one head)", _error(q=lambda kw: kw["q"][0]), "error"),
        Case("k is 4-D", _error(k=lambda kw: kw["k"][None]), "error"),
        Case("no heads (h = 0)", _error(q=np.zeros((0, 3, 2)), k=np.zeros((0, 5, 2)), v=np.zeros((0, 5, 4))), "error"),
        Case("q has no rows (n = 0)", _error(q=np.zeros((3, 0, 2))), "error"),
        Case("d_k = 0", _error(q=np.zeros((3, 3, 0)), k=np.zeros((3, 5, 0))), "error"),
        Case("k has 2 heads, q and v 3", _error(k=lambda kw: kw["k"][:2]), "error"),
        Case("v has 4 heads, q and k 3", _error(v=lambda kw: np.concatenate([kw["v"], kw["v"][:1]])), "error"),
        Case("k wider than q", _error(k=lambda kw: np.concatenate([kw["k"], kw["k"]], axis=2)), "error"),
        Case("v has fewer rows than k", _error(v=lambda kw: kw["v"][:, :4]), "error"),
        Case("fewer keys than queries (m=2 < n=3)", _error(k=lambda kw: kw["k"][:, :2], v=lambda kw: kw["v"][:, :2]), "error"),
        Case("NaN in q", _error(q=lambda kw: set_entry(kw["q"], (1, 1, 0), np.nan)), "error"),
        Case("+inf in a future key (query 0 cannot see key 4)", _error(k=lambda kw: set_entry(kw["k"], (0, 4, 1), np.inf)), "error"),
        Case("-inf in v", _error(v=lambda kw: set_entry(kw["v"], (2, 0, 3), -np.inf)), "error"),
        Case("an allowed score overflows to inf",
             _error(q=lambda kw: set_entry(kw["q"], (1, 0), 1e200 * _U), k=lambda kw: set_entry(kw["k"], (1, 1), 1e200 * _U)), "error"),
    ),
    map_what="weights of h=6 heads (v = I, so out is the weights) for n=5 queries against m=8 keys (row = query at position 3+i, column = key)",
    map_inputs=_map_inputs,
    panels=lambda kw: [
        Panel("head 4 (slope 1/2)", (0, 4), _BLOCKED),
        Panel("head 0 (slope 1/4)", (0, 0), _BLOCKED),
        Panel("head 3 (slope 1/256)", (0, 3), _BLOCKED),
    ],
    blocked_words="weight on keys after the query's position (a future leak: ALiBi's bias does not block them, the causal mask must)",
    speed=Speed(
        what="8 heads: q of shape (8, n/4, 64) against k, v of shape (8, n, 64)",
        sizes=(256, 512),
        build=lambda n: _qkv(np.random.default_rng(n), 8, n // 4, n, 64, 64),
        torch=_torch_alibi,
    ),
)
