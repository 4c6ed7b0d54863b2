"""The demonstrations behind the follow-ups of FlashAttention:
memory, block sizes, causal blocks, rebuilding from the log-sum-exp."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.demos import Shown, demo, peak_bytes, size, softmax
from dojo.text.messages import t


def say(key: str, **params) -> str:
    """A line of these demonstrations in the tool's language: ``kata.flash_attention.demo.<key>``
    (dojo/catalogue/katas/flash_attention/<lang>/kata.toml); numbers come in formatted."""
    return t("kata.flash_attention.demo." + key, **params)


def blocked_attention(q, k, v, block: int):
    """Online softmax over key blocks: never holds more than an (n, block) score tile."""
    n, d = q.shape
    m_run = np.full((n, 1), -np.inf)
    l_run = np.zeros((n, 1))
    acc = np.zeros((n, v.shape[1]))
    for j in range(0, k.shape[0], block):
        s = q @ k[j:j + block].T / np.sqrt(d)  # (n, block)
        m_new = np.maximum(m_run, s.max(axis=1, keepdims=True))
        p = np.exp(s - m_new)
        scale = np.exp(m_run - m_new)
        l_run = l_run * scale + p.sum(axis=1, keepdims=True)
        acc = acc * scale + p @ v[j:j + block]
        m_run = m_new
    return acc / l_run, (m_run + np.log(l_run))[:, 0]


@demo("flash_memory")
def flash_memory() -> Shown:
    rng = np.random.default_rng(3)
    n, d, block = 2048, 64, 128
    q, k, v = (rng.standard_normal((n, d)) for _ in range(3))
    full, full_peak = peak_bytes(lambda: softmax(q @ k.T / np.sqrt(d)) @ v)
    (tiled, _), tiled_peak = peak_bytes(lambda: blocked_attention(q, k, v, block))
    big_n, big_d, b_r, b_c, fp16, fp32 = 32768, 128, 128, 64, 2, 4
    score = big_n * big_n * fp16
    working = ((b_r + 2 * b_c) * big_d * fp16  # Q, K, V tiles
               + (b_r * b_c + b_r * big_d + 2 * b_r) * fp32)  # score tile, accumulator, max and sum
    lines = [
        say("memory-measured", n=n, d=d),
        say("memory-full", peak=size(full_peak), matrix=size(n * n * 8)),
        say("memory-blocks", block=block, peak=size(tiled_peak), diff=f"{np.abs(full - tiled).max():.0e}"),
        say("memory-counted", n=big_n, d=big_d, b_r=b_r, b_c=b_c),
        say("memory-hbm", size=size(score)),
        say("memory-working", size=size(working)),
        say("memory-working-more"),
    ]
    return Shown(lines, {"n": n, "full_peak": full_peak, "tiled_peak": tiled_peak,
                         "max_diff": float(np.abs(full - tiled).max()), "score": score, "working": working})


@demo("flash_block_sizes")
def flash_block_sizes() -> Shown:
    budget, d, fp16 = 100 * 1000, 128, 2  # stated: 100 KB shared memory per SM, d = 128, float16
    rows = []
    for b_r, b_c in ((64, 64), (128, 64), (128, 128), (256, 128)):
        tiles = (b_r + 2 * b_c) * d * fp16  # Q tile + K tile + V tile
        buffered = tiles + 2 * b_c * d * fp16  # plus the next K and V tiles, loading meanwhile
        rows.append({"b_r": b_r, "b_c": b_c, "tiles": tiles, "buffered": buffered, "fits": buffered <= budget})
    lines = [say("tiles-budget", d=d, budget=f"{budget / 1000:.0f}"), say("tiles-header")]
    for r in rows:
        lines.append(say("tiles-row", b_r=f"{r['b_r']:>4}", b_c=f"{r['b_c']:<4}", tiles=f"{r['tiles'] / 1000:6.1f}",
                         buffered=f"{r['buffered'] / 1000:17.1f}", fits=say("tiles-fit" if r["fits"] else "tiles-no-fit")))
    return Shown(lines, {"budget": budget, "rows": rows})


@demo("causal_blocks")
def causal_blocks() -> Shown:
    n, block = 4096, 128
    t = n // block
    q_first = np.arange(t)[:, None] * block  # first query position of each row of blocks
    k_first = np.arange(t)[None, :] * block
    skipped = int((k_first > q_first + block - 1).sum())  # every key after every query
    unmasked = int((k_first + block - 1 <= q_first).sum())  # every key at or before every query
    diagonal = t * t - skipped - unmasked
    lines = [
        say("causal-grid", n=n, block=block, t=t, blocks=t * t),
        say("causal-skipped", count=skipped),
        say("causal-diagonal", count=diagonal),
        say("causal-below", count=unmasked),
        say("causal-work", share=f"{(t * t - skipped) / (t * t):.1%}"),
    ]
    return Shown(lines, {"t": t, "skipped": skipped, "diagonal": diagonal, "unmasked": unmasked})


@demo("lse_rebuild")
def lse_rebuild() -> Shown:
    rng = np.random.default_rng(4)
    n, m, d = 64, 96, 16
    q, k, v = rng.standard_normal((n, d)), rng.standard_normal((m, d)), rng.standard_normal((m, d))
    s = q @ k.T / np.sqrt(d)  # (n, m)
    _, lse = blocked_attention(q, k, v, block=32)  # (n,) from the forward pass
    rebuilt = np.exp(s - lse[:, None])  # P from one number per row
    err = float(np.abs(rebuilt - softmax(s)).max())
    big, heads, fp16, fp32 = 32768, 32, 2, 4
    p_bytes = big * big * fp16
    lse_bytes = big * fp32
    lines = [
        say("lse-rebuilt", n=n, m=m, error=f"{err:.1e}"),
        say("lse-stored", n=big),
        say("lse-p", size=size(p_bytes), total=size(p_bytes * heads), heads=heads),
        say("lse-lse", size=size(lse_bytes)),
    ]
    return Shown(lines, {"rebuild_error": err, "p_bytes": p_bytes, "lse_bytes": lse_bytes})
