"""The contract of speculative_decoding, written out again apart from its solution's docstring
(solutions/speculative_decoding.py): ``check(call)`` raises ``Broken`` when one call drawn by its
judge's strategies breaks it, the cases it leaves open included (tests/meta/test_strategies.py
draws them)."""

from __future__ import annotations

import numbers

import numpy as np

from tests.meta.validity import need, shaped


def _distributions(a, name: str, rows: int) -> np.ndarray:
    a = np.asarray(a, dtype=np.float64)
    need(a.ndim == 2 and a.shape[0] == rows and a.shape[1] >= 1, f"{name} has shape {a.shape}, want ({rows}, V >= 1)")
    need(np.isfinite(a).all(), f"{name} contains NaN or inf")
    need((a >= 0).all(), f"{name} has a negative entry")
    need((np.abs(a.sum(axis=1) - 1) <= 1e-6).all(), f"a row of {name} does not sum to 1 within 1e-6")
    return a


def check(call) -> None:
    raw = np.asarray(call["draft_tokens"])
    need(raw.ndim == 1, f"draft_tokens has shape {raw.shape}, not (k,)")
    need(raw.size == 0 or (raw.dtype.kind in "iu"), f"draft_tokens has dtype {raw.dtype}, not an integer one")
    x = raw.astype(np.int64)
    k = len(x)
    p = _distributions(call["p"], "p", k + 1)
    V = p.shape[1]
    q = _distributions(call["q"], "q", k) if k else np.asarray(call["q"], dtype=np.float64)
    shaped(q, "q", (k, V))
    need(((x >= 0) & (x < V)).all(), f"a draft token lies outside [0, {V})")
    drafted = q[np.arange(k), x]
    need((drafted > 0).all(), "q[i, x_i] is 0 for a draft")
    u = np.asarray(call["u_accept"], dtype=np.float64)
    shaped(u, "u_accept", (k,))
    need(np.isfinite(u).all() and ((u >= 0) & (u < 1)).all(), "a u_accept lies outside [0, 1)")
    us = call["u_sample"]
    need(isinstance(us, numbers.Real) and not isinstance(us, (bool, np.bool_)) and not isinstance(us, np.ndarray),
         f"u_sample = {us!r} is not a real (a 0-d array is left open)")
    need(0 <= us < 1, f"u_sample = {us!r} is not in [0, 1)")
    ratio = p[np.arange(k), x] / drafted
    positive = ratio > 0
    need(not (positive & (np.abs(u - ratio) <= 1e-9)).any(), "a u_accept within 1e-9 of its positive ratio (left open)")
    rejected = np.flatnonzero(~(u < ratio))
    n = int(rejected[0]) if rejected.size else k
    if n == k:
        w = p[k]
    else:
        w = np.maximum(p[n] - q[n], 0.0)
        need(w.sum() >= 1e-6, f"the residual at the rejection of draft {n} has mass {w.sum()} < 1e-6 (left open)")
    cdf = np.cumsum(w) / w.sum()
    need(np.abs(cdf[cdf > 0] - us).min() > 1e-9, f"u_sample = {us!r} within 1e-9 of a positive C_t (left open)")
