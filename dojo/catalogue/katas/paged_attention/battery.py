"""``dojo compare``'s inputs for paged_attention: edge cases, random cases, one per ValueError, the map and the speed run."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.batteries import Battery, Case, Panel, Speed, normal, set_entry


def _paged(rng, k, v, page_size, order=None, spare_pages=1, spare_entries=0, junk=np.nan):
    """k (m, d_k), v (m, d_v) laid out in pages of ``page_size``: the table ``order`` (default: a
    shuffle), ``spare_pages`` pages nobody names, ``spare_entries`` table entries past the
    context; every slot outside the context holds ``junk``."""
    m = k.shape[0]
    used = -(-m // page_size)
    length = used + spare_entries
    pool = length + spare_pages
    table = np.array(order, dtype=np.int64) if order is not None else rng.permutation(pool)[:length].astype(np.int64)
    pool = max(pool, int(table.max()) + 1)
    k_pages = np.full((pool, page_size, k.shape[1]), junk, dtype=np.float64)
    v_pages = np.full((pool, page_size, v.shape[1]), junk, dtype=np.float64)
    t = np.arange(m)
    k_pages[table[t // page_size], t % page_size] = k
    v_pages[table[t // page_size], t % page_size] = v
    return {"k_pages": k_pages, "v_pages": v_pages, "block_table": table, "context_len": m}


def _case(n, m, d_k, d_v, page_size, scale=1.0, **layout):
    def build(rng):
        q, k, v = normal(rng, (n, d_k), scale), normal(rng, (m, d_k), scale), normal(rng, (m, d_v))
        return {"q": q, **_paged(rng, k, v, page_size, **layout)}

    return build


def _random(i: int) -> Case:
    plan = np.random.default_rng(7000 + i)
    n, extra, d_k, d_v = (int(s) for s in plan.integers(1, 6, size=4))
    page_size = int(plan.integers(1, 5))
    m = n + extra - 1 + int(plan.integers(0, 6))
    scale = float(plan.choice([0.3, 1.0, 3.0]))
    return Case(f"random {i + 1}: n={n} new, m={m} cached in pages of {page_size}, d_k={d_k}, d_v={d_v}",
                _case(n, m, d_k, d_v, page_size, scale, junk=float(plan.choice([np.nan, 5.0, np.inf]))), "random")


def _far_below(half: int = 16):
    """Every score about -2**(2 half) (-4.3e9 by default; exact: d_k = 4, integer entries), so a
    finite fill above it (-1e9; -1e10 at half = 20, scores -1.1e12) takes the weight. Neighbouring
    keys' scores are 40 apart, so each row's weights are one-hot to 1e-17 and a logsumexp taken
    at -4.3e9 (which rounds by 1e-6) still agrees to float64 precision."""

    def build(rng):
        q = np.array([[-(2.0**half), 1.0, 0.0, 2.0], [-(2.0**half), 1.0, 1.0, 0.0], [-(2.0**half), 1.0, -1.0, 1.0]])
        k = np.hstack([np.full((7, 1), 2.0 ** (half + 1)), 80.0 * np.arange(7)[:, None], rng.integers(-3, 4, size=(7, 2))])
        return {"q": q, **_paged(rng, k, normal(rng, (7, 2)), 3, junk=0.0)}

    return build


def _forms(table_form=None, context_form=None, arrays=None):
    def build(rng):
        kw = _case(2, 5, 3, 2, 2, junk=1.5)(rng)
        if table_form is not None:
            kw["block_table"] = table_form(kw["block_table"])
        if context_form is not None:
            kw["context_len"] = context_form(kw["context_len"])
        if arrays is not None:
            for name in ("q", "k_pages", "v_pages"):
                kw[name] = arrays(kw[name])
        return kw

    return build


def _error(**changes):
    """A valid call (n=2, m=5, d_k=3, d_v=2, pages of 2, table [3, 0, 2], page 1 unused, its
    tail and page 1 NaN) with ``changes`` applied; a change may be a function of the kwargs."""

    def build(rng):
        kw = _case(2, 5, 3, 2, 2, order=[3, 0, 2])(rng)
        for key, value in changes.items():
            kw[key] = value(kw) if callable(value) else value
        return kw

    return build


def _slot(kw, t):
    """(page, slot) of logical key t."""
    ps = kw["k_pages"].shape[1]
    return int(kw["block_table"][t // ps]), t % ps


def _overflow(kw):
    """q[0] (position 3) and key 2 (slot 0 of page 0) both 1e200 u: that allowed score is ~1e400."""
    u = np.array([1.0, -0.5, 0.7])
    kw["q"] = set_entry(kw["q"], 0, 1e200 * u)
    kw["k_pages"] = set_entry(kw["k_pages"], _slot(kw, 2), 1e200 * u)
    return kw


def _overflowing(rng):
    return _overflow(_error()(rng))


def _tail_nan(rng):
    """m=5 in pages of 3 with no spare page: only the last page's unused slot holds NaN."""
    kw = _case(2, 5, 3, 2, 3, spare_pages=0, junk=0.0)(rng)
    ps = kw["k_pages"].shape[1]
    kw["k_pages"][kw["block_table"][-1], ps - 1] = np.nan
    return kw


def _map_inputs() -> dict:
    """5 new tokens, m = 10 in pages of 4 (table [2, 0, 3]); v_t = e_t, so out is the weights."""
    rng = np.random.default_rng(23)
    q, k = normal(rng, (5, 4), 1.2), normal(rng, (10, 4), 1.2)
    return {"q": q, **_paged(rng, k, np.eye(10), 4, order=[2, 0, 3], junk=np.nan)}


def _torch_paged(torch, kw):
    q, k_pages, v_pages = (torch.from_numpy(kw[a]) for a in ("q", "k_pages", "v_pages"))
    table = torch.from_numpy(kw["block_table"])
    n, m, ps = q.shape[0], kw["context_len"], k_pages.shape[1]
    t = torch.arange(m)
    k, v = k_pages[table[t // ps], t % ps], v_pages[table[t // ps], t % ps]
    allowed = torch.ones(n, m, dtype=torch.bool).tril(diagonal=m - n)

    def call():
        return torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=allowed)

    return call


def _speed(m: int) -> dict:
    """One decoding step (n = 1) against m tokens in pages of 16, d = 64, the table shuffled."""
    rng = np.random.default_rng(m)
    q, k, v = normal(rng, (1, 64)), normal(rng, (m, 64)), normal(rng, (m, 64))
    return {"q": q, **_paged(rng, k, v, 16, spare_pages=8, junk=0.0)}


BATTERY = Battery(
    kata="paged_attention",
    outputs=("out",),
    cases=(
        Case("one decoding step: n=1, m=7 in pages of 3", _case(1, 7, 3, 2, 3)),
        Case("a chunk: n=3 new, m=8 in pages of 2", _case(3, 8, 4, 2, 2)),
        Case("prefill: n = m = 5, pages of 2", _case(5, 5, 3, 4, 2)),
        Case("n = m = 1, one page of 1", _case(1, 1, 2, 3, 1, spare_pages=0)),
        Case("pages in order (table = arange)", _case(2, 6, 3, 2, 2, order=[0, 1, 2])),
        Case("pages in reverse order", _case(2, 6, 3, 2, 2, order=[2, 1, 0])),
        Case("page_size 1 (one token per page)", _case(2, 5, 2, 3, 1, spare_pages=2)),
        Case("one page holds the whole context (page_size 8, m=6)", _case(2, 6, 3, 2, 8, spare_pages=2)),
        Case("the context fills its last page exactly (m=6, pages of 3)", _case(2, 6, 3, 2, 3)),
        Case("the table names a page past the context", _case(2, 5, 3, 2, 2, spare_entries=1)),
        Case("garbage past the context is finite (5.0)", _case(2, 5, 3, 2, 2, spare_entries=1, junk=5.0)),
        Case("garbage past the context is +inf", _case(3, 7, 2, 2, 3, spare_entries=1, junk=np.inf)),
        Case("NaN only in a page nobody names", _case(2, 6, 3, 2, 3, spare_pages=2, junk=np.nan)),
        Case("NaN only past context_len in the last page", _tail_nan),
        Case("large scores (~1e4)", _case(3, 6, 4, 2, 2, scale=100.0)),
        Case("scores near -4.3e9 (far below -1e9)", _far_below()),
        Case("scores near -1.1e12 (far below -1e10)", _far_below(20)),
        Case("block_table as a list of ints", _forms(table_form=lambda t: t.tolist())),
        Case("block_table of dtype uint8", _forms(table_form=lambda t: t.astype(np.uint8))),
        Case("context_len as np.int32", _forms(context_form=np.int32)),
        Case("float32 q and pages (computed in float64)", _forms(arrays=lambda a: a.astype(np.float32))),
        Case("nested-list q and pages", _forms(arrays=lambda a: a.tolist())),
        *(_random(i) for i in range(8)),
        Case("q is 1-D", _error(q=lambda kw: kw["q"][0]), "error"),
        Case("k_pages is 2-D (one page)", _error(k_pages=lambda kw: kw["k_pages"][0]), "error"),
        Case("q has no rows (n = 0)", _error(q=np.zeros((0, 3))), "error"),
        Case("page_size = 0", _error(k_pages=np.zeros((4, 0, 3)), v_pages=np.zeros((4, 0, 2))), "error"),
        Case("k_pages wider than q", _error(k_pages=lambda kw: np.concatenate([kw["k_pages"]] * 2, axis=2)), "error"),
        Case("v_pages has one page more than k_pages", _error(v_pages=lambda kw: np.concatenate([kw["v_pages"], kw["v_pages"][:1]])), "error"),
        Case("v_pages has a larger page size", _error(v_pages=lambda kw: np.concatenate([kw["v_pages"]] * 2, axis=1)), "error"),
        Case("block_table is 2-D", _error(block_table=lambda kw: kw["block_table"][None]), "error"),
        Case("block_table of floats (whole numbers)", _error(block_table=lambda kw: kw["block_table"].astype(np.float64)), "error"),
        Case("block_table of bools", _error(block_table=np.array([True, False, True])), "error"),
        Case("block_table holds -1 (not the last page)", _error(block_table=np.array([3, -1, 2])), "error"),
        Case("block_table names page P (out of range), past the context", _error(block_table=np.array([3, 0, 2, 4])), "error"),
        Case("context_len is True (n = 1)", _error(q=lambda kw: kw["q"][:1], context_len=True), "error"),
        Case("context_len is a float (5.0)", _error(context_len=5.0), "error"),
        Case("context_len < n", _error(context_len=1), "error"),
        Case("context_len = 0", _error(q=lambda kw: kw["q"][:1], context_len=0), "error"),
        Case("context_len > len(block_table) * page_size", _error(context_len=7), "error"),
        Case("NaN in q", _error(q=lambda kw: set_entry(kw["q"], (1, 0), np.nan)), "error"),
        Case("+inf in a used key slot the first query cannot see",
             _error(k_pages=lambda kw: set_entry(kw["k_pages"], (*_slot(kw, 4), 1), np.inf)), "error"),
        Case("-inf in a used value slot", _error(v_pages=lambda kw: set_entry(kw["v_pages"], (*_slot(kw, 1), 0), -np.inf)), "error"),
        Case("an allowed score overflows to inf", _overflowing, "error"),
    ),
    map_what="the weights of n=5 new tokens against m=10 cached in pages of 4, table [2, 0, 3] "
             "(v_t = e_t, so out is the weights; row = query at position 5+i, column = logical key t)",
    map_inputs=_map_inputs,
    panels=lambda kw: [Panel("weights (out with v = identity)", (0,), ~np.tril(np.ones((5, 10), dtype=bool), k=5))],
    blocked_words="weight on keys after the query's position (a future leak: the mask is aligned to the bottom-right corner)",
    speed=Speed(
        what="one decoding step: q of shape (1, 64) against n cached tokens in pages of 16 (d = 64), the table shuffled",
        sizes=(2048, 8192),
        build=_speed,
        torch=_torch_paged,
    ),
)
