"""The contract of paged_attention, written out again apart from its solution's docstring
(solutions/paged_attention.py): ``check(call)`` raises ``Broken`` when one call drawn by its judge's
strategies breaks it (tests/meta/test_strategies.py draws them)."""

from __future__ import annotations

import numbers

import numpy as np

from tests.meta.validity import finite_array, finite_scores, need, scores


def check(call) -> None:
    q = finite_array(call, "q", 2)
    pools = {name: np.asarray(call[name], dtype=np.float64) for name in ("k_pages", "v_pages")}
    for name, a in pools.items():  # slots outside the context may hold anything, NaN included
        need(a.ndim == 3 and 0 not in a.shape, f"{name} has shape {a.shape}: it should be 3-D, every dimension >= 1")
    k_pages, v_pages = pools["k_pages"], pools["v_pages"]
    need(k_pages.shape[2] == q.shape[1], f"k_pages has width {k_pages.shape[2]}, q has {q.shape[1]}")
    need(k_pages.shape[:2] == v_pages.shape[:2], f"k_pages {k_pages.shape} and v_pages {v_pages.shape} differ in P or page_size")
    table = np.asarray(call["block_table"])
    need(table.ndim == 1 and table.dtype.kind in "iu", f"block_table {table!r} is not 1-D of an integer dtype")
    need(((table >= 0) & (table < k_pages.shape[0])).all(), f"block_table {table} has an entry outside [0, P)")
    m = call["context_len"]
    need(isinstance(m, numbers.Integral) and not isinstance(m, (bool, np.bool_)), f"context_len = {m!r} is not an int")
    page_size = k_pages.shape[1]
    need(q.shape[0] <= m <= table.size * page_size,
         f"context_len = {m} is not within n = {q.shape[0]} .. len(block_table) * page_size = {table.size * page_size}")
    t = np.arange(int(m))
    k, v = k_pages[table[t // page_size], t % page_size], v_pages[table[t // page_size], t % page_size]
    need(np.isfinite(k).all() and np.isfinite(v).all(), "a used slot of k_pages or v_pages holds NaN or inf")
    finite_scores(scores(q, k), "q k_tᵀ / sqrt(d_k) over the used slots")
