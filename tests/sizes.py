"""Sizes where bugs hide: mostly small, sometimes past 8, often enough past 64.

A judge whose sizes stop at 7 passes every bug that shows only above it: a causal mask built
once for 8 positions and sliced, a tile loop that drops the remainder, a RoPE or ALiBi table of
8 positions or heads, an answer that looks only at the first 8 keys. So every size a property
draws comes from ``sizes``: a small size (``lo`` to ``small_hi``, as before) in five draws of
eight, a middle one (8 to 33: powers of two and sizes just past them) in one, and a large one
(64 to 128, powers of two and not: 65, 67, 97, 100) in two, about one in four. Small inputs
explain a failure best, so shrinking goes to the small tier and then to ``lo``.

A tuple of sizes (``size_tuple``) keeps each example's cost bounded: at most ``max_large`` of
its sizes are large (the others are drawn small or middle), in a drawn order, so each position is
large about equally often. Sizes are pairwise different by construction where asked (a
collision moves to the next free size of its tier), never by rejection.
"""

from __future__ import annotations

import functools

from hypothesis import strategies as st

#: Sizes just past the small range: tile and table sizes and one past them.
MID = (8, 9, 13, 16, 17, 32, 33)
#: Large sizes: at least 64, powers of two and sizes that are not multiples of a tile.
LARGE = (64, 65, 67, 97, 100, 128)
#: The tier of one size: small 4 in 7, middle 1 in 7, large 2 in 7 (shrinks to small).
_TIERS = st.sampled_from(("small",) * 4 + ("mid",) + ("large",) * 2)


@functools.lru_cache(maxsize=None)
def ints(lo: int, hi: int):
    """``st.integers(lo, hi)``, built once per range (Hypothesis validates each new strategy)."""
    return st.integers(lo, hi)


def tier_values(tier: str, lo: int, small_hi: int, hi: int | None = None, step: int = 1) -> tuple[int, ...]:
    """The sizes of ``tier`` for a size between ``lo`` and ``hi`` (no bound if None) that is small
    up to ``small_hi``; with ``step``, only multiples of it (the small tier excepted: its sizes
    are ``lo..small_hi`` as given)."""
    if tier == "small":
        return tuple(range(lo, small_hi + 1))
    values = MID if tier == "mid" else LARGE
    return tuple(v for v in values if v > small_hi and v >= lo and (hi is None or v <= hi) and v % step == 0)


@functools.lru_cache(maxsize=None)
def sizes(lo: int = 1, small_hi: int = 7, hi: int | None = None):
    """One size: ``lo..small_hi`` mostly, sometimes a middle (8-33) or large (64-128) one, never
    above ``hi``. Shrinks to ``lo``."""
    return _size(lo, small_hi, hi)


@st.composite
def _size(draw, lo, small_hi, hi):
    tier = draw(_TIERS)
    values = tier_values(tier, lo, small_hi, hi) or tier_values("small", lo, small_hi)
    if tier == "small":
        return draw(ints(lo, small_hi))
    return values[draw(ints(0, len(values) - 1))]


@functools.lru_cache(maxsize=None)
def size_tuple(count: int, lo: int = 1, small_hi: int = 7, distinct: bool = True, max_large: int = 2,
               max_big: int | None = None):
    """``count`` sizes from ``sizes(lo, small_hi)``, pairwise different if ``distinct``, at most
    ``max_large`` of them large (64 or more) and at most ``max_big`` (all if None) of them above
    ``small_hi``."""
    if distinct and small_hi - lo + 1 < count:
        raise ValueError(f"{count} distinct sizes do not fit in {lo}..{small_hi}")
    return _size_tuple(count, lo, small_hi, distinct, max_large, count if max_big is None else max_big)


@st.composite
def _size_tuple(draw, count, lo, small_hi, distinct, max_large, max_big):
    order = draw(_orders(count))
    drawn: dict[int, int] = {}
    large = big = 0
    for position in order:
        tier = draw(_TIERS)
        if tier == "large" and large >= max_large:
            tier = "mid"
        if tier != "small" and big >= max_big:
            tier = "small"
        large += tier == "large"
        big += tier != "small"
        values = tier_values(tier, lo, small_hi)
        value = values[draw(ints(0, len(values) - 1))]
        if distinct:
            used = set(drawn.values())
            while value in used:  # the next free size of the tier, cyclically (the tier has room)
                value = values[(values.index(value) + 1) % len(values)]
        drawn[position] = value
    return tuple(drawn[i] for i in range(count))


@functools.lru_cache(maxsize=None)
def _orders(count: int):
    return st.permutations(range(count))


#: Which sizes of an attention problem coincide: none (two in three), n == m, or d_k == d_v.
_COINCIDING = st.sampled_from(["none", "none", "none", "none", "n == m", "d_k == d_v"])


@functools.lru_cache(maxsize=None)
def query_key_sizes(kind: str = "any", small_hi: int = 7):
    """(n, m, d_k, d_v) with n <= m (the queries are the last n of m tokens), from
    ``size_tuple(4, 1, small_hi)``: ``kind`` "any" (pairwise different, or n == m, or d_k ==
    d_v), "chunk" (2 <= n < m), "prefill" (n == m, d_k != d_v) or "decode" (n = 1 < m)."""
    return _query_key_sizes(kind, small_hi)


@st.composite
def _query_key_sizes(draw, kind, small_hi):
    a, b, d_k, d_v = draw(size_tuple(4, 1, small_hi))
    n, m = min(a, b), max(a, b)
    if kind == "chunk":
        n = max(n, 2)
        m = max(m, n + 1)
    elif kind == "prefill":
        n = m
    elif kind == "decode":
        n, m = 1, max(m, 2)
    elif kind == "any":
        coinciding = draw(_COINCIDING)
        if coinciding == "n == m":
            n = m
        elif coinciding == "d_k == d_v":
            d_v = d_k
    else:
        raise ValueError(f"no such kind of sizes: {kind!r}")
    return n, m, d_k, d_v


@functools.lru_cache(maxsize=None)
def any_order_sizes(small_hi: int = 6):
    """(n, m, d_k, d_v) with m >= 2 and n either side of m, from ``size_tuple(4, 1, small_hi)``:
    pairwise different (two draws in three), or n == m, or d_k == d_v."""
    return _any_order_sizes(small_hi)


@st.composite
def _any_order_sizes(draw, small_hi):
    sizes = list(draw(size_tuple(4, 1, small_hi)))
    if sizes[1] < 2:  # m is too small: swap it with the largest of the other sizes
        other = max((0, 2, 3), key=lambda i: sizes[i])
        sizes[1], sizes[other] = sizes[other], sizes[1]
    n, m, d_k, d_v = sizes
    coinciding = draw(_COINCIDING)
    if coinciding == "n == m":
        n = m
    elif coinciding == "d_k == d_v":
        d_v = d_k
    return n, m, d_k, d_v
