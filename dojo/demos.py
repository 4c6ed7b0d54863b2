"""Live demonstrations behind the follow-up answers: each computes its numbers with NumPy.

A demonstration is a function registered under a name (``@demo("name")``) that the registry's
follow-ups refer to (``demo = "name"``). It returns a ``Shown``: the lines to print, and a
structured ``result`` of the numbers it measured. No figure is typed in by hand: the lines
are formatted from the result, and tests/tool/test_followups.py checks each claim against the
result. Stated inputs (a model's sizes, a GPU's peak rates) are named as such in the lines.
NumPy only: no torch, no network.
"""

from __future__ import annotations

import tracemalloc
from dataclasses import dataclass, field
from typing import Callable

import numpy as np


@dataclass
class Shown:
    lines: list[str]
    result: dict = field(default_factory=dict)


DEMOS: dict[str, Callable[[], Shown]] = {}


def demo(name: str):
    def register(func: Callable[[], Shown]) -> Callable[[], Shown]:
        DEMOS[name] = func
        return func
    return register


def run(name: str) -> Shown:
    return DEMOS[name]()


def size(nbytes: float) -> str:
    """Bytes in binary units: 16.0 GiB, 512.0 KiB."""
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(nbytes) < 1024 or unit == "TiB":
            return f"{nbytes:.0f} {unit}" if unit == "B" else f"{nbytes:.1f} {unit}"
        nbytes /= 1024
    raise AssertionError("unreachable")


def softmax(x: np.ndarray, axis: int = -1) -> np.ndarray:
    e = np.exp(x - x.max(axis=axis, keepdims=True))  # same shape as x
    return e / e.sum(axis=axis, keepdims=True)


def naive_softmax(x: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(x)
        return e / e.sum(axis=-1, keepdims=True)


# -- softmax --------------------------------------------------------------------------------


@demo("softmax_overflow")
def softmax_overflow() -> Shown:
    x = np.array([1000.0, 1001.0, 1002.0])
    naive = naive_softmax(x)
    shifted = softmax(x)
    small = softmax(x - 1000.0)  # the same logits, shifted by hand
    lines = [
        f"logits {x.tolist()} in float64:",
        f"  exp(x) / sum(exp(x))          -> {np.array2string(naive, precision=4)}   (exp(1000) overflows)",
        f"  exp(x - max) / sum(...)       -> {np.array2string(shifted, precision=4)}",
        f"  the same after x - 1000 by hand -> {np.array2string(small, precision=4)}",
        f"  largest difference between the two shifted results: {np.abs(shifted - small).max():.1e}",
    ]
    return Shown(lines, {"naive_finite": bool(np.isfinite(naive).all()), "shifted": shifted,
                         "shifted_by_hand": small})


@demo("log_softmax")
def log_softmax_demo() -> Shown:
    x = np.array([0.0, -800.0])
    with np.errstate(divide="ignore"):
        via_softmax = np.log(softmax(x))
    m = x.max()
    direct = x - (m + np.log(np.exp(x - m).sum()))  # x - logsumexp(x)
    lines = [
        f"logits {x.tolist()}:",
        f"  log(softmax(x))        -> {via_softmax.tolist()}   (softmax underflowed to 0, log(0) = -inf)",
        f"  x - logsumexp(x)       -> {direct.tolist()}",
    ]
    return Shown(lines, {"via_softmax": via_softmax, "direct": direct, "logits": x})


@demo("float16_softmax")
def float16_softmax() -> Shown:
    f16 = np.float16
    logits = np.array([0.0, 5.0, 12.0], dtype=f16)
    with np.errstate(over="ignore", invalid="ignore"):
        naive = np.exp(logits) / np.exp(logits).sum()
    shifted = np.exp(logits - logits.max())
    shifted = shifted / shifted.sum()
    running16 = np.cumsum(np.ones(4096, dtype=f16), dtype=f16)[-1]
    running32 = np.cumsum(np.ones(4096, dtype=np.float32), dtype=np.float32)[-1]
    tiny = np.exp(f16(-18.0))
    lines = [
        f"float16: largest finite {float(np.finfo(f16).max):.0f}; exp(12) = {float(np.exp(np.float32(12))):.0f} in float32",
        f"  naive softmax of {logits.tolist()} in float16 -> {naive.tolist()}",
        f"  shifted by the max, in float16            -> {np.array2string(shifted.astype(np.float64), precision=4)}",
        f"  a running sum of 4096 ones: float16 {float(running16):.0f}, float32 {float(running32):.0f}",
        "    (float16 stops growing at 2048: 2048 + 1 rounds to 2048)",
        f"  exp(-18) in float16 = {float(tiny)}   (underflow: below the smallest subnormal, {float(np.finfo(f16).smallest_subnormal):.1e})",
    ]
    return Shown(lines, {"naive_finite": bool(np.isfinite(naive).all()),
                         "shifted_finite": bool(np.isfinite(shifted).all()),
                         "sum16": float(running16), "sum32": float(running32), "count": 4096,
                         "exp_minus_18": float(tiny)})


# -- scaled dot-product attention -----------------------------------------------------------


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
             "   d_k   std(q·k)   std(q·k/√d_k)   largest weight, unscaled   largest weight, scaled"]
    for r in rows:
        lines.append(f"  {r['d_k']:>4}   {r['std']:8.2f}   {r['std_scaled']:13.2f}   "
                     f"{r['top_raw']:24.3f}   {r['top_scaled']:22.3f}")
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


@demo("future_leak_test")
def future_leak_test() -> Shown:
    rng = np.random.default_rng(1)
    n, d_model, d_k = 6, 8, 4
    x = rng.standard_normal((n, d_model))
    w_q, w_k, w_v = (rng.standard_normal((d_model, d_k)) for _ in range(3))

    def layer(x, allowed):
        s = (x @ w_q) @ (x @ w_k).T / np.sqrt(d_k)  # (n, n)
        return softmax(np.where(allowed, s, -np.inf)) @ (x @ w_v)  # (n, d_k)

    tril = np.tril(np.ones((n, n), dtype=bool))
    changed = x.copy()
    changed[-1] = 1e3 * rng.standard_normal(d_model)  # the last (future) token, set to extreme values
    right = np.abs(layer(changed, tril) - layer(x, tril))
    wrong = np.abs(layer(changed, tril.T) - layer(x, tril.T))  # triu: a mask that leaks
    lines = [
        f"change the last of {n} tokens, compare the outputs of the others:",
        f"  tril mask: largest change in rows 0..{n - 2} = {right[:-1].max():.1e}, in the last row = {right[-1].max():.1e}",
        f"  triu mask: largest change in rows 0..{n - 2} = {wrong[:-1].max():.1e}   (a future leak)",
    ]
    return Shown(lines, {"past_change": float(right[:-1].max()), "last_change": float(right[-1].max()),
                         "leaky_past_change": float(wrong[:-1].max())})


@demo("head_permutation")
def head_permutation() -> Shown:
    rng = np.random.default_rng(2)
    n, d_model, h, d_k = 5, 12, 4, 3
    x = rng.standard_normal((n, d_model))
    w_q, w_k, w_v = (rng.standard_normal((d_model, h * d_k)) for _ in range(3))
    w_o = rng.standard_normal((h * d_k, d_model))

    def mha(w_q, w_k, w_v, w_o):
        def heads(w):
            return (x @ w).reshape(n, h, d_k).transpose(1, 0, 2)  # (h, n, d_k)
        q, k, v = heads(w_q), heads(w_k), heads(w_v)
        p = softmax(q @ k.transpose(0, 2, 1) / np.sqrt(d_k))  # (h, n, n)
        return (p @ v).transpose(1, 0, 2).reshape(n, h * d_k) @ w_o  # (n, d_model)

    perm = np.array([2, 0, 3, 1])
    cols = (perm[:, None] * d_k + np.arange(d_k)).ravel()  # column blocks in the new head order
    out = mha(w_q, w_k, w_v, w_o)
    permuted = mha(w_q[:, cols], w_k[:, cols], w_v[:, cols], w_o[cols])
    only_qkv = mha(w_q[:, cols], w_k[:, cols], w_v[:, cols], w_o)
    lines = [
        f"{h} heads reordered as {perm.tolist()}:",
        f"  w_q, w_k, w_v columns and w_o rows permuted together: largest change {np.abs(out - permuted).max():.1e}",
        f"  w_o left as it was:                                    largest change {np.abs(out - only_qkv).max():.1e}",
    ]
    return Shown(lines, {"together": float(np.abs(out - permuted).max()),
                         "w_o_unpermuted": float(np.abs(out - only_qkv).max())})


# -- KV cache, GQA, decoding ----------------------------------------------------------------


def kv_cache_bytes(layers: int, kv_heads: int, head_dim: int, tokens: int, bytes_per: int) -> int:
    return 2 * layers * kv_heads * head_dim * tokens * bytes_per  # 2: a key and a value


@demo("kv_cache_memory")
def kv_cache_memory() -> Shown:
    layers, heads, head_dim, tokens, fp16 = 32, 32, 128, 32 * 1024, 2
    params = 7e9
    mha = kv_cache_bytes(layers, heads, head_dim, tokens, fp16)
    gqa = kv_cache_bytes(layers, 8, head_dim, tokens, fp16)
    per_token = kv_cache_bytes(layers, heads, head_dim, 1, fp16)
    lines = [
        "bytes = 2 (k and v) × layers × kv_heads × head_dim × tokens × bytes per value",
        f"7B model (stated: {layers} layers, {heads} heads × {head_dim}, float16), {tokens} tokens:",
        f"  multi-head, {heads} kv heads: {size(per_token)} per token, {size(mha)} in all",
        f"  GQA, 8 kv heads:          {size(gqa)} in all ({mha / gqa:.0f}× smaller)",
        f"  for scale: the float16 weights of {params:.0e} parameters take {size(params * fp16)}",
    ]
    return Shown(lines, {"mha": mha, "gqa": gqa, "heads": heads, "kv_heads": 8, "per_token": per_token,
                         "tokens": tokens, "weights": params * fp16})


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


@demo("decode_intensity")
def decode_intensity() -> Shown:
    flops_peak, bandwidth = 312e12, 2.0e12  # stated: an A100's dense fp16 peak and HBM bandwidth
    d = 4096
    ridge = flops_peak / bandwidth
    rows = []
    for batch in (1, 8, 64, 256):
        flops = 2 * batch * d * d  # one (d, d) weight matrix applied to `batch` token vectors
        nbytes = 2 * d * d + 2 * 2 * batch * d  # read the fp16 weights once, read and write activations
        rows.append({"batch": batch, "intensity": flops / nbytes})
    lines = [f"a {d}×{d} float16 weight matrix times one token vector per request;",
             f"GPU (stated: A100, {flops_peak / 1e12:.0f} TFLOP/s, {bandwidth / 1e12:.1f} TB/s): compute-bound above "
             f"{ridge:.0f} flops per byte"]
    for r in rows:
        bound = "memory-bound" if r["intensity"] < ridge else "compute-bound"
        lines.append(f"  batch {r['batch']:>3}: {r['intensity']:6.1f} flops per byte read   {bound}")
    return Shown(lines, {"ridge": ridge, "rows": rows})


@demo("kv_cache_recompute")
def kv_cache_recompute() -> Shown:
    d = 4096  # stated: one layer of width d_model = 4096, MLP 4d, counted in multiply-adds

    def per_token(n: int, cached: bool) -> float:
        tokens = 1 if cached else n  # rows that go through the projections and the MLP again
        dense = tokens * (4 * d * d + 8 * d * d)  # q, k, v, o projections and the MLP
        attend = tokens * n * d * 2  # scores and weighted sum for each recomputed query
        return dense + attend

    rows = [{"n": n, "without": per_token(n, False), "with": per_token(n, True)} for n in (1024, 4096, 16384)]
    lines = [f"multiply-adds to generate the next token after n tokens, one layer, d_model = {d}:",
             "       n   without a cache   with a cache   ratio"]
    for r in rows:
        lines.append(f"  {r['n']:>6}   {r['without']:15.2e}   {r['with']:12.2e}   {r['without'] / r['with']:5.0f}")
    return Shown(lines, {"rows": rows})


# -- FlashAttention -------------------------------------------------------------------------


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


def peak_bytes(func) -> tuple[object, int]:
    """func's result and the most memory it held at once (leaves a running trace running)."""
    already = tracemalloc.is_tracing()
    if not already:
        tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        value = func()
        return value, tracemalloc.get_traced_memory()[1] - before
    finally:
        if not already:
            tracemalloc.stop()


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
        f"measured with tracemalloc, float64, n = m = {n}, d = {d}:",
        f"  full attention peak:           {size(full_peak)}   (one score matrix is {size(n * n * 8)})",
        f"  blocks of {block} keys, peak:      {size(tiled_peak)}   same output to {np.abs(full - tiled).max():.0e}",
        f"counted for one head at n = {big_n}, d = {big_d}, float16 inputs, tiles {b_r} × {b_c}:",
        f"  score matrix in HBM:           {size(score)}",
        f"  on-chip working set per step:  {size(working)}  (Q, K, V tiles; float32 score tile,",
        "                                 accumulator, running max and sum)",
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
    lines = [f"shared memory for Q, K, V tiles, d = {d}, float16, budget {budget / 1000:.0f} KB (stated):",
             "   B_r × B_c    tiles   double-buffered K, V   fits"]
    for r in rows:
        lines.append(f"  {r['b_r']:>4} × {r['b_c']:<4} {r['tiles'] / 1000:6.1f} KB   {r['buffered'] / 1000:17.1f} KB   "
                     f"{'yes' if r['fits'] else 'no'}")
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
        f"n = {n}, blocks of {block}: a {t} × {t} grid of {t * t} blocks",
        f"  skipped (all keys in the future): {skipped}",
        f"  on the diagonal (masked inside):  {diagonal}",
        f"  below (no mask needed):           {unmasked}",
        f"  work done: {(t * t - skipped) / (t * t):.1%} of full attention",
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
        f"exp(S - lse) against softmax(S), n = {n}, m = {m}: largest difference {err:.1e}",
        f"stored for the backward pass, one head at n = m = {big}:",
        f"  P in float16:    {size(p_bytes)}  ({size(p_bytes * heads)} for {heads} heads of one layer)",
        f"  lse in float32:  {size(lse_bytes)}",
    ]
    return Shown(lines, {"rebuild_error": err, "p_bytes": p_bytes, "lse_bytes": lse_bytes})


# -- backward pass, RoPE, padding -----------------------------------------------------------


def attention_and_grads(q, k, v, d_out):
    d = q.shape[1]
    p = softmax(q @ k.T / np.sqrt(d))  # (n, m)
    out = p @ v  # (n, d_v)
    dp = d_out @ v.T  # (n, m)
    ds = p * (dp - (dp * p).sum(axis=1, keepdims=True))  # (n, m)
    return out, p, dp, ds, ds @ k / np.sqrt(d), ds.T @ q / np.sqrt(d), p.T @ d_out


@demo("backward_identities")
def backward_identities() -> Shown:
    rng = np.random.default_rng(5)
    q, k, v = rng.standard_normal((4, 3)), rng.standard_normal((6, 3)), rng.standard_normal((6, 5))
    d_out = rng.standard_normal((4, 5))
    out, p, dp, ds, dq, dk, dv = attention_and_grads(q, k, v, d_out)
    identity = float(np.abs((dp * p).sum(axis=1) - (d_out * out).sum(axis=1)).max())
    dk_sum = float(np.abs(dk.sum(axis=0)).max())
    bias = rng.standard_normal(3)
    shifted = float(np.abs(attention_and_grads(q, k + bias, v, d_out)[0] - out).max())
    lines = [
        f"rowsum(dP ∘ P) - rowsum(dO ∘ O): largest difference {identity:.1e}",
        f"sum of dk over the keys: largest entry {dk_sum:.1e} (dk itself is up to {np.abs(dk).max():.2f})",
        f"the same bias added to every key changes the output by {shifted:.1e}",
    ]
    return Shown(lines, {"identity": identity, "dk_sum": dk_sum, "dk_max": float(np.abs(dk).max()),
                         "bias_change": shifted})


@demo("finite_differences")
def finite_differences() -> Shown:
    rng = np.random.default_rng(6)
    q, k, v = rng.standard_normal((3, 4)), rng.standard_normal((5, 4)), rng.standard_normal((5, 2))
    d_out = rng.standard_normal((3, 2))
    analytic = dict(zip("qkv", attention_and_grads(q, k, v, d_out)[4:]))
    h = 1e-6
    worst = 0.0
    for name, x in (("q", q), ("k", k), ("v", v)):
        numeric = np.zeros_like(x)
        for idx in np.ndindex(x.shape):
            plus, minus = x.copy(), x.copy()
            plus[idx] += h
            minus[idx] -= h
            args = {"q": q, "k": k, "v": v}
            f_plus = (attention_and_grads(**{**args, name: plus}, d_out=d_out)[0] * d_out).sum()
            f_minus = (attention_and_grads(**{**args, name: minus}, d_out=d_out)[0] * d_out).sum()
            numeric[idx] = (f_plus - f_minus) / (2 * h)
        rel = np.abs(numeric - analytic[name]).max() / np.abs(analytic[name]).max()
        worst = max(worst, float(rel))
    lines = [f"central differences, h = {h:g}, loss = sum(d_out ∘ out), n = 3, m = 5, d_k = 4, d_v = 2:",
             f"  largest relative disagreement with the hand-written gradients: {worst:.1e}"]
    return Shown(lines, {"worst_relative": worst})


def rope(x, positions, base=10000.0):
    """Half-split (rotate_half) layout: column i pairs with column i + d/2."""
    half = x.shape[1] // 2
    angle = positions[:, None] * base ** (-2.0 * np.arange(half) / x.shape[1])  # (n, d/2)
    a, b = x[:, :half], x[:, half:]
    return np.concatenate([a * np.cos(angle) - b * np.sin(angle), a * np.sin(angle) + b * np.cos(angle)], axis=1)


@demo("rope_relative")
def rope_relative() -> Shown:
    rng = np.random.default_rng(7)
    q, k = rng.standard_normal((1, 64)), rng.standard_normal((1, 64))

    def score(a: int, b: int) -> float:
        return float((rope(q, np.array([a])) @ rope(k, np.array([b])).T)[0, 0])

    same = [score(a, a + 3) for a in (0, 10, 1000, 100000)]
    other = [score(0, off) for off in (1, 2, 5)]
    lines = [
        "q·k after RoPE (d = 64), query and key positions 3 apart:",
        "  (0, 3), (10, 13), (1000, 1003), (100000, 100003): " + ", ".join(f"{s:.6f}" for s in same),
        f"  spread {max(same) - min(same):.1e}; keys 1, 2, 5 after the query instead: "
        + ", ".join(f"{s:.4f}" for s in other),
    ]
    return Shown(lines, {"same_offset": same, "other_offsets": other})


@demo("padding_waste")
def padding_waste() -> Shown:
    rng = np.random.default_rng(8)
    lengths = np.sort(rng.integers(64, 2049, size=16))  # a batch of 16 mixed lengths
    padded_tokens = len(lengths) * lengths.max()
    padded_pairs = len(lengths) * lengths.max() ** 2  # attention scores computed with padding
    packed_pairs = int((lengths.astype(np.int64) ** 2).sum())  # varlen: each sequence on its own
    lines = [
        f"16 sequences, lengths {lengths.min()}..{lengths.max()} (seeded draw), padded to {lengths.max()}:",
        f"  tokens: {lengths.sum()} real of {padded_tokens} ({1 - lengths.sum() / padded_tokens:.0%} padding)",
        f"  attention scores: {packed_pairs:.2e} needed, {padded_pairs:.2e} computed "
        f"({1 - packed_pairs / padded_pairs:.0%} wasted)",
    ]
    return Shown(lines, {"lengths": lengths.tolist(), "padded_pairs": int(padded_pairs),
                         "packed_pairs": packed_pairs, "padded_tokens": int(padded_tokens)})

