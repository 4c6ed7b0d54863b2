"""``dojo compare``'s inputs for half_precision_attention: edge cases (float16 overflow of q·k
and of exp(), long key sequences), random cases, one per ValueError, the map and the speed run.
Compared at the kata's own tolerance ("float16_attention", its tolerance.py)."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.batteries import Battery, Case, Panel, Speed, normal, set_entry

F16 = np.float16


def _qkv(rng, n, m, d_k, d_v, scale=1.0, v_offset=0.0):
    return {"q": normal(rng, (n, d_k), scale).astype(F16), "k": normal(rng, (m, d_k), scale).astype(F16),
            "v": (v_offset + normal(rng, (m, d_v))).astype(F16)}


def _attn(n, m, d_k, d_v, scale=1.0, v_offset=0.0):
    return lambda rng: _qkv(rng, n, m, d_k, d_v, scale, v_offset)


def _random(i: int) -> Case:
    plan = np.random.default_rng(3000 + i)
    n, m, d_k, d_v = (int(s) for s in plan.integers(1, 8, size=4))
    scale = float(plan.choice([0.3, 1.0, 3.0]))
    return Case(f"random {i + 1}: n={n}, m={m}, d_k={d_k}, d_v={d_v}", _attn(n, m, d_k, d_v, scale), "random")


def _overflowing_product(rng):
    """Entries in [256, 300] along one sign pattern: q·k above 65504, one key aligned with every query."""
    sign = rng.choice([-1.0, 1.0], size=4)
    q = sign * rng.uniform(256, 300, size=(3, 4))
    k = sign * rng.uniform(256, 300, size=(5, 4)) * np.array([[1.0], [-1.0], [1.0], [-1.0], [-1.0]])
    return {"q": q.astype(F16), "k": k.astype(F16), "v": normal(rng, (5, 2)).astype(F16)}


def _wide_keys(rng):
    """d_k = 1024 entries near 8: the unscaled q·k passes 65504, the scaled score does not."""
    q = (8.0 + normal(rng, (2, 1024), 0.05)).astype(F16)
    k = (8.5 + normal(rng, (3, 1024), 0.05)).astype(F16)
    return {"q": q, "k": k, "v": normal(rng, (3, 2)).astype(F16)}


def _past_float64_exp(rng):
    """d_k = 1, entries near 30: q·k about 900 fits float16, and so does everything computed in
    it after the max shift, but exp(900) overflows even float64 without the shift."""
    q = (30.0 + rng.uniform(0, 1, size=(2, 1))).astype(F16)
    k = (28.0 + rng.uniform(0, 2, size=(3, 1))).astype(F16)
    return {"q": q, "k": k, "v": normal(rng, (3, 2)).astype(F16)}


def _tie(rng):
    """d_k = 3, query 0's scores with keys 0 and 1 tie exactly (q[0] = (a, b, 0.5), k = (b, 0, 0)
    and (0, a, 0), a b / sqrt(3) about 540), while a * fp16(1/sqrt(3)) rounds up and b * it rounds
    down in float16: a float16 pre-scaled q pulls the tie apart. v[:, 0] = (4, -4): out[0, 0] is 0."""
    s = F16(1 / np.sqrt(3))
    values = np.arange(1024, 2048) * 2.0**-6  # every float16 in [16, 32)
    error = ((values.astype(F16) * s).astype(np.float64) - values * float(s)) / (values * float(s))
    a, b = values[np.argmax(error)], values[np.argmin(error)]
    q = np.array([[a, b, 0.5], [0.3, -1.2, 0.8]])
    k = np.array([[b, 0.0, 0.0], [0.0, a, 0.0]])
    v = np.array([[4.0, 0.5], [-4.0, 1.5]])
    return {"q": q.astype(F16), "k": k.astype(F16), "v": v.astype(F16)}


def _error(**changes):
    """A valid (n=3, m=4, d_k=2, d_v=5) float16 call with ``changes`` applied (a change may be a
    function of the keyword arguments)."""

    def build(rng):
        kw = _qkv(rng, 3, 4, 2, 5)
        for key, value in changes.items():
            kw[key] = value(kw) if callable(value) else value
        return kw

    return build


def _map_inputs() -> dict:
    """v = the identity, so out's row i is query i's weights over the 7 keys (rounded to float16)."""
    rng = np.random.default_rng(15)
    kw = _qkv(rng, 6, 7, 4, 7, 1.5)
    kw["v"] = np.eye(7, dtype=F16)
    return kw


def _torch_half(torch, kw):
    q, k, v = (torch.from_numpy(kw[a].astype(np.float32)) for a in "qkv")
    return lambda: torch.nn.functional.scaled_dot_product_attention(q, k, v).to(torch.float16)


BATTERY = Battery(
    kata="half_precision_attention",
    outputs=("out",),
    cases=(
        Case("n = m", _attn(4, 4, 3, 2)),
        Case("n != m: 3 queries, 6 keys", _attn(3, 6, 4, 2)),
        Case("n != m: 6 queries, 2 keys", _attn(6, 2, 3, 3)),
        Case("d_k != d_v (d_k=5, d_v=2)", _attn(4, 4, 5, 2)),
        Case("one query, one key", _attn(1, 1, 1, 1)),
        Case("scores ~100: exp() overflows float16 without the max shift", _attn(3, 4, 4, 2, scale=10.0)),
        Case("q·k above 65504 (entries near 256)", _overflowing_product),
        Case("q·k above 65504 (d_k = 1024, entries near 8)", _wide_keys),
        Case("scores ~900, q·k within float16: exp() overflows even float64 without the max shift", _past_float64_exp),
        Case("3000 keys, values around 2 (a float16 running sum drifts)", _attn(2, 3000, 2, 2, 0.5, 2.0)),
        Case("two keys tied exactly, pulled apart by a float16 pre-scaled q", _tie),
        *(_random(i) for i in range(6)),
        Case("q as a nested list", _error(q=lambda kw: kw["q"].tolist()), "error"),
        Case("k as a list of float16 rows", _error(k=lambda kw: list(kw["k"])), "error"),
        Case("k as float32", _error(k=lambda kw: kw["k"].astype(np.float32)), "error"),
        Case("v as float64", _error(v=lambda kw: kw["v"].astype(np.float64)), "error"),
        Case("q is 1-D", _error(q=lambda kw: kw["q"][0]), "error"),
        Case("k is 3-D", _error(k=lambda kw: kw["k"][None]), "error"),
        Case("q has no rows", _error(q=np.zeros((0, 2), dtype=F16)), "error"),
        Case("k wider than q", _error(k=lambda kw: np.hstack([kw["k"], kw["k"]])), "error"),
        Case("v has fewer rows than k", _error(v=lambda kw: kw["v"][:3]), "error"),
        Case("NaN in q", _error(q=lambda kw: set_entry(kw["q"], (1, 0), np.nan)), "error"),
        Case("+inf in k", _error(k=lambda kw: set_entry(kw["k"], (2, 1), np.inf)), "error"),
        Case("-inf in v", _error(v=lambda kw: set_entry(kw["v"], (0, 3), -np.inf)), "error"),
    ),
    map_what="out for 6 queries × 7 keys with v = the identity: query i's weights, rounded to float16 (row = query, column = key)",
    map_inputs=_map_inputs,
    panels=lambda kw: [Panel("out with v = I (the weights)", (0,), distribution=False)],
    blocked_words="",
    speed=Speed(
        what="q, k, v of shape (n, 64), float16",
        sizes=(256, 512),
        build=lambda n: _qkv(np.random.default_rng(n), n, n, 64, 64),
        torch=_torch_half,
    ),
    tolerance="float16_attention",
)
