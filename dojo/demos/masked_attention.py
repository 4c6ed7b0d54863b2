"""The demonstrations behind the follow-ups of scaled dot-product attention:
why 1/sqrt(d_k), what attention costs."""

from __future__ import annotations

import numpy as np

from dojo.demos import Shown, demo, size, softmax


@demo("sqrt_dk")
def sqrt_dk() -> Shown:
    rng = np.random.default_rng(0)
    n_queries, n_keys = 256, 64
    rows = []
    for d_k in (16, 256, 4096):
        q = rng.standard_normal((n_queries, d_k))  # entries: mean 0, variance 1
        k = rng.standard_normal((n_keys, d_k))
        s = q @ k.T  # (n_queries, n_keys)
        top_raw = softmax(s).max(axis=-1).mean()
        top_scaled = softmax(s / np.sqrt(d_k)).max(axis=-1).mean()
        rows.append({"d_k": d_k, "std": float(s.std()), "std_scaled": float((s / np.sqrt(d_k)).std()),
                     "top_raw": float(top_raw), "top_scaled": float(top_scaled)})
    lines = [f"q, k with N(0, 1) entries; {n_queries} queries against {n_keys} keys:",
             "   d_k   std(q·k)   std(q·k/√d_k)   largest weight: unscaled   scaled"]
    for r in rows:
        lines.append(f"  {r['d_k']:>4}   {r['std']:8.2f}   {r['std_scaled']:13.2f}   "
                     f"{r['top_raw']:24.3f}   {r['top_scaled']:6.3f}")
    lines.append("  (largest weight: the mean over queries of the biggest softmax weight in the row)")
    return Shown(lines, {"rows": rows, "n_keys": n_keys})


@demo("attention_cost")
def attention_cost() -> Shown:
    d = 128
    rows = []
    for n in (1024, 4096, 16384, 32768):
        flops = 2 * n * n * d * 2  # QKᵀ and PV, 2 flops per multiply-add
        score_bytes = n * n * 2  # one head's (n, n) scores in float16
        rows.append({"n": n, "flops": flops, "score_bytes": score_bytes})
    lines = [f"one head, d = {d}, float16 scores (stated sizes):", "       n   flops (QKᵀ + PV)   score matrix"]
    for r in rows:
        lines.append(f"  {r['n']:>6}   {r['flops']:16.2e}   {size(r['score_bytes']):>12}")
    lines.append(f"  doubling n multiplies both by {rows[-1]['flops'] / rows[-2]['flops']:.0f}")
    return Shown(lines, {"rows": rows})
