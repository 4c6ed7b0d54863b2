"""``dojo compare``'s inputs for masked_attention: edge cases, random cases, one per ValueError, the map and the speed run."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.batteries import Battery, Case, Panel, Speed, fixed, normal, one_allowed_per_row, scores_far_below, set_entry, torch_weights


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
    mask = None if density == 0.0 else (lambda rng, n, m: one_allowed_per_row(rng, n, m, density))
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
        w = torch_weights(torch, q, k, allowed)
        return w @ v, w

    return call


BATTERY = Battery(
    kata="masked_attention",
    outputs=("out", "weights"),
    cases=(
        Case("n = m, no mask", _attn(4, 4, 3, 2)),
        Case("n != m: 3 queries, 6 keys", _attn(3, 6, 4, 2)),
        Case("n != m: 5 queries, 13 keys (past a table of 8)", _attn(5, 13, 3, 2)),
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
        Case("mask, every allowed score far below -1e9 (about -1e12)", scores_far_below(_attn(3, 4, 2, 3, mask=_padding))),
        Case("mask, every allowed score far below -1e13 (about -1e20)", scores_far_below(_attn(3, 4, 2, 3, mask=_padding), 1e10)),
        Case("mask, every allowed score far below -1e30 (about -1e40)", scores_far_below(_attn(3, 4, 2, 3, mask=_padding), 1e20)),
        Case("float32 inputs (computed in float64)",
             lambda r: {a: x.astype(np.float32) for a, x in _attn(3, 4, 3, 2)(r).items()}),
        Case("keys 0.06 apart near 2**20 (lost in float32)",
             fixed(q=np.array([[1.0], [0.5]]), k=np.array([[2.0**20], [2.0**20 + 0.06]]),
                   v=np.array([[0.0, 1.0], [1.0, 0.0]]), mask=None)),
        Case("nested-list inputs", lambda r: {a: normal(r, s).tolist() for a, s in zip("qkv", [(2, 3), (4, 3), (4, 2)])}),
        Case("integer inputs", lambda r: {a: np.round(normal(r, s, 3.0)).astype(np.int64) for a, s in zip("qkv", [(2, 3), (3, 3), (3, 2)])}),
        Case("int8 inputs (computed in float64)",
             lambda r: {a: np.clip(np.round(normal(r, s, 60.0)), -128, 127).astype(np.int8) for a, s in zip("qkv", [(2, 3), (3, 3), (3, 2)])}),
        *(_attn_random(i) for i in range(8)),
        Case("q is 1-D (no mask)", _attn_error(q=lambda kw: kw["q"][0], mask=None), "error"),
        Case("k is 3-D", _attn_error(k=lambda kw: kw["k"][None]), "error"),
        Case("q has no rows", _attn_error(q=np.zeros((0, 2)), mask=None), "error"),
        Case("d_k = 0", _attn_error(q=np.zeros((3, 0)), k=np.zeros((4, 0))), "error"),
        Case("k wider than q", _attn_error(k=lambda kw: np.hstack([kw["k"], kw["k"]])), "error"),
        Case("k narrower than q", _attn_error(k=lambda kw: kw["k"][:, :1]), "error"),
        Case("v has fewer rows than k", _attn_error(v=lambda kw: kw["v"][:3]), "error"),
        Case("v has more rows than k", _attn_error(v=lambda kw: np.vstack([kw["v"], kw["v"]])), "error"),
        Case("NaN in q", _attn_error(q=lambda kw: set_entry(kw["q"], (1, 0), np.nan)), "error"),
        Case("+inf in k", _attn_error(k=lambda kw: set_entry(kw["k"], (2, 1), np.inf)), "error"),
        Case("-inf in v", _attn_error(v=lambda kw: set_entry(kw["v"], (0, 3), -np.inf)), "error"),
        Case("mask of 0/1 integers", _attn_error(mask=np.ones((3, 4), dtype=np.int64)), "error"),
        Case("mask of shape (m, n)", _attn_error(mask=np.ones((4, 3), dtype=bool)), "error"),
        Case("mask of shape (1, m) (no broadcasting)", _attn_error(mask=np.ones((1, 4), dtype=bool)), "error"),
        Case("a query row with no allowed key", _attn_error(mask=lambda kw: set_entry(kw["mask"], 1, False)), "error"),
        Case("scores overflow to inf", _attn_error(q=lambda kw: kw["q"] * 1e160, k=lambda kw: kw["k"] * 1e160), "error"),
        Case("a score whose products overflow to +inf and -inf",  # float64: inf, -inf or NaN, as summed
             _attn_error(q=lambda kw: set_entry(kw["q"], 0, [1e200, 1e200]),
                         k=lambda kw: set_entry(kw["k"], 1, [1e200, -5e199])), "error"),
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
