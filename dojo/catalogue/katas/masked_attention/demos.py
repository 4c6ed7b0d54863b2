"""The demonstrations behind the follow-ups of scaled dot-product attention:
why 1/sqrt(d_k), what attention costs."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.demos import Shown, demo, size, softmax
from dojo.text.messages import t


def _say(slug: str, **params) -> str:
    """One line of a demonstration, in the tool's language (``kata.masked_attention.demo.<slug>``)."""
    return t(f"kata.masked_attention.demo.{slug}", **params)


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
    lines = [_say("sqrt-setup", queries=n_queries, keys=n_keys), _say("sqrt-header")]
    for r in rows:
        lines.append(_say("sqrt-row", d_k=f"{r['d_k']:>4}", std=f"{r['std']:8.2f}",
                          std_scaled=f"{r['std_scaled']:13.2f}", top_raw=f"{r['top_raw']:24.3f}",
                          top_scaled=f"{r['top_scaled']:6.3f}"))
    lines.append(_say("sqrt-legend"))
    return Shown(lines, {"rows": rows, "n_keys": n_keys})


@demo("attention_cost")
def attention_cost() -> Shown:
    d = 128
    rows = []
    for n in (1024, 4096, 16384, 32768):
        flops = 2 * n * n * d * 2  # QKᵀ and PV, 2 flops per multiply-add
        score_bytes = n * n * 2  # one head's (n, n) scores in float16
        rows.append({"n": n, "flops": flops, "score_bytes": score_bytes})
    lines = [_say("cost-setup", d=d), _say("cost-header")]
    for r in rows:
        lines.append(_say("cost-row", n=f"{r['n']:>6}", flops=f"{r['flops']:16.2e}",
                          score=f"{size(r['score_bytes']):>12}"))
    lines.append(_say("cost-doubling", factor=f"{rows[-1]['flops'] / rows[-2]['flops']:.0f}"))
    return Shown(lines, {"rows": rows})
