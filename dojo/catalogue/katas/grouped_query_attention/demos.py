"""The demonstrations behind the follow-ups of grouped-query attention: the cache it saves."""

from __future__ import annotations

from dojo.catalogue.demos import Shown, demo, kv_cache_bytes, size
from dojo.text.messages import t


def say(key: str, **params) -> str:
    """A line of these demonstrations in the tool's language: ``kata.grouped_query_attention.demo.<key>``
    (dojo/catalogue/katas/grouped_query_attention/<lang>/kata.toml); numbers come in formatted."""
    return t("kata.grouped_query_attention.demo." + key, **params)


@demo("gqa_cache")
def gqa_cache() -> Shown:
    layers, heads, head_dim, tokens, fp16 = 80, 64, 128, 8192, 2
    rows = [(kv, kv_cache_bytes(layers, kv, head_dim, tokens, fp16)) for kv in (heads, 8, 1)]
    lines = [say("cache-model", layers=layers, heads=heads, head_dim=head_dim),
             say("cache-sequence", tokens=tokens)]
    for kv, nbytes in rows:
        kind = {heads: "cache-multi-head", 1: "cache-multi-query"}.get(kv, "cache-grouped-query")
        lines.append(say(kind, kv=f"{kv:>2}", size=f"{size(nbytes):>9}", ratio=f"{rows[0][1] / nbytes:.0f}"))
    return Shown(lines, {"heads": heads, "rows": rows})
