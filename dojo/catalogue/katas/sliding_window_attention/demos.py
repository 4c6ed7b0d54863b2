"""The demonstrations behind the follow-ups of sliding-window attention:
where a sink's weight goes when it is evicted, and the memory of a window cache."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.demos import Shown, demo, kv_cache_bytes, size, softmax
from dojo.text.messages import t


def _say(slug: str, **params) -> str:
    """One line of a demonstration, in the tool's language (``kata.sliding_window_attention.demo.<slug>``)."""
    return t(f"kata.sliding_window_attention.demo.{slug}", **params)


@demo("sink_weight")
def sink_weight() -> Shown:
    tokens, window, sinks, sink_score = 64, 16, 4, 5.0  # stated: token 0 is a learned sink, score 5
    scores = np.random.default_rng(0).standard_normal(tokens)  # one query's scores over its past
    scores[0] = sink_score
    full = softmax(scores)
    recent = np.arange(tokens - window, tokens)  # the window's keys, the query's own included
    keep = np.r_[np.arange(sinks), recent]
    with_sinks = softmax(scores[keep])  # the window's weights are the last `window` entries
    without = softmax(scores[recent])
    # How much bigger each window key's weight is than under full attention (the same for all).
    factor_with = float(with_sinks[-1] / full[recent[-1]])
    factor_without = float(without[-1] / full[recent[-1]])
    lines = [
        _say("sink-setup", tokens=tokens, score=f"{sink_score:g}", window=window, sinks=sinks),
        _say("sink-full", weight=f"{full[0]:.2f}"),
        _say("sink-kept", sinks=sinks, weight=f"{with_sinks[0]:.2f}", factor=f"{factor_with:.2f}"),
        _say("sink-evicted", factor=f"{factor_without:.2f}"),
    ]
    return Shown(lines, {"sink_full": float(full[0]), "sink_kept": float(with_sinks[0]),
                         "factor_with": factor_with, "factor_without": factor_without})


@demo("window_cache_memory")
def window_cache_memory() -> Shown:
    layers, kv_heads, head_dim, fp16 = 32, 8, 128, 2  # stated: Mistral 7B's shape, float16
    window, sinks = 4096, 4
    kept = window + sinks
    rows = []
    lines = [_say("memory-setup", layers=layers, kv_heads=kv_heads, head_dim=head_dim, window=window, sinks=sinks),
             _say("memory-header")]
    for tokens in (4_000, 32_000, 1_000_000):
        full = kv_cache_bytes(layers, kv_heads, head_dim, tokens, fp16)
        windowed = kv_cache_bytes(layers, kv_heads, head_dim, min(tokens, kept), fp16)
        rows.append({"tokens": tokens, "full": full, "window": windowed})
        lines.append(_say("memory-row", tokens=f"{tokens:>9,}", full=f"{size(full):>10}",
                          window=f"{size(windowed):>10}", ratio=f"{full / windowed:>6.1f}"))
    return Shown(lines, {"rows": rows, "kept": kept})
