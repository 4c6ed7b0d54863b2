"""The demonstrations behind the follow-ups of grouped-query attention: the cache it saves."""

from __future__ import annotations

from dojo.demos import Shown, demo, kv_cache_bytes, size


@demo("gqa_cache")
def gqa_cache() -> Shown:
    layers, heads, head_dim, tokens, fp16 = 80, 64, 128, 8192, 2
    rows = [(kv, kv_cache_bytes(layers, kv, head_dim, tokens, fp16)) for kv in (heads, 8, 1)]
    lines = [f"70B-style model (stated: {layers} layers, {heads} query heads × {head_dim}, float16),",
             f"one sequence of {tokens} tokens:"]
    for kv, nbytes in rows:
        name = {heads: "multi-head", 1: "multi-query"}.get(kv, "grouped-query")
        ratio = f"   ({rows[0][1] / nbytes:.0f}× smaller)" if kv != heads else ""
        lines.append(f"  {name:<13} {kv:>2} kv heads: {size(nbytes):>9}{ratio}")
    return Shown(lines, {"heads": heads, "rows": rows})
