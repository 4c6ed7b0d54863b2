"""The demonstrations behind the follow-ups of decoder_block: the mask's corner with a cache,
eps inside the RMSNorm's sqrt, SwiGLU's parameter count and the KV cache's size."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.demos import Shown, demo
from dojo.text.messages import t


def _say(slug: str, **params) -> str:
    """One line of a demonstration, in the tool's language (``kata.decoder_block.demo.<slug>``)."""
    return t(f"kata.decoder_block.demo.{slug}", **params)


def _rows(mask: np.ndarray) -> list[str]:
    return ["    " + " ".join("x" if a else "." for a in row) for row in mask]


@demo("decoder_block_mask_corner")
def decoder_block_mask_corner() -> Shown:
    n, p = 3, 4
    m = n + p
    top_left = np.tril(np.ones((n, m), dtype=bool))
    bottom_right = np.tril(np.ones((n, m), dtype=bool), k=p)
    lines = [_say("mask-sizes", n=n, p=p, m=m), _say("mask-top-left"), *_rows(top_left),
             _say("mask-bottom-right"), *_rows(bottom_right)]
    return Shown(lines, {"n": n, "p": p, "top_left_seen": top_left.sum(axis=1).tolist(),
                         "bottom_right_seen": bottom_right.sum(axis=1).tolist()})


@demo("decoder_block_eps")
def decoder_block_eps() -> Shown:
    eps = 1e-6
    row = np.array([1.0, -2.0, 0.5, 1.5])
    gaps = {}
    lines = []
    for scale in (1.0, 1e-3):
        a = row / np.sqrt(np.mean(row**2)) * scale  # rms exactly `scale`
        ms = np.mean(a**2)
        inside = a / np.sqrt(ms + eps)
        outside = a / (np.sqrt(ms) + eps)
        gap = float(np.max(np.abs(inside - outside) / np.abs(inside)))
        gaps[scale] = gap
        lines.append(_say("eps-row", rms=f"{scale:g}", inside=np.round(inside, 4).tolist(),
                          outside=np.round(outside, 4).tolist(), gap=f"{gap:.2g}"))
    return Shown(lines, {"gap_at_rms_1": gaps[1.0], "gap_at_rms_1e-3": gaps[1e-3]})


@demo("decoder_block_swiglu_params")
def decoder_block_swiglu_params() -> Shown:
    d = 4096  # LLaMA-7B's d_model (a stated input)
    relu = 2 * d * (4 * d)
    d_ff = 8 * d // 3
    swiglu = 3 * d * d_ff if (8 * d) % 3 == 0 else 3 * d * (8 * d / 3)
    llama = int(np.ceil(8 * d / 3 / 256) * 256)
    lines = [_say("swiglu-relu", d=d, params=f"{relu:,}"),
             _say("swiglu-gated", d=d, params=f"{int(round(swiglu)):,}"),
             _say("swiglu-llama", d_ff=llama)]
    return Shown(lines, {"relu": relu, "swiglu": int(round(swiglu)), "llama_d_ff": llama})


@demo("decoder_block_cache_bytes")
def decoder_block_cache_bytes() -> Shown:
    layers, heads, d_head, kv_heads, tokens, itemsize = 32, 32, 128, 8, 4096, 2  # LLaMA-2-7B-like, float16
    per_token = 2 * layers * heads * d_head * itemsize
    per_token_gqa = 2 * layers * kv_heads * d_head * itemsize
    sequence = per_token * tokens
    lines = [_say("cache-model", layers=layers, heads=heads, d_head=d_head),
             _say("cache-token", bytes=f"{per_token:,}", mib=f"{per_token / 2**20:g}"),
             _say("cache-sequence", tokens=tokens, gib=f"{sequence / 2**30:g}"),
             _say("cache-gqa", kv_heads=kv_heads, bytes=f"{per_token_gqa:,}")]
    return Shown(lines, {"per_token": per_token, "per_token_gqa": per_token_gqa, "sequence": sequence})
