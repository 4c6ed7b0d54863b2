"""The demonstrations behind the follow-ups of the KV cache:
its memory, decoding's arithmetic intensity, recomputing without it."""

from __future__ import annotations

from dojo.catalogue.demos import Shown, demo, kv_cache_bytes, size
from dojo.text.messages import t


def _say(slug: str, **params) -> str:
    """One line of a demonstration, in the tool's language (``kata.kv_cache_attention.demo.<slug>``)."""
    return t(f"kata.kv_cache_attention.demo.{slug}", **params)


@demo("kv_cache_memory")
def kv_cache_memory() -> Shown:
    layers, heads, head_dim, tokens, fp16 = 32, 32, 128, 32 * 1024, 2
    params = 7e9
    mha = kv_cache_bytes(layers, heads, head_dim, tokens, fp16)
    gqa = kv_cache_bytes(layers, 8, head_dim, tokens, fp16)
    per_token = kv_cache_bytes(layers, heads, head_dim, 1, fp16)
    lines = [
        _say("memory-formula"),
        _say("memory-model", layers=layers, heads=heads, head_dim=head_dim, tokens=tokens),
        _say("memory-mha", heads=heads, per_token=size(per_token), total=size(mha)),
        _say("memory-gqa", kv_heads=8, total=size(gqa), factor=f"{mha / gqa:.0f}"),
        _say("memory-weights", params=f"{params:.0e}", weights=size(params * fp16)),
    ]
    return Shown(lines, {"mha": mha, "gqa": gqa, "heads": heads, "kv_heads": 8, "per_token": per_token,
                         "tokens": tokens, "weights": params * fp16})


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
    lines = [_say("intensity-setup", d=d),
             _say("intensity-gpu", tflops=f"{flops_peak / 1e12:.0f}", bandwidth=f"{bandwidth / 1e12:.1f}",
                  ridge=f"{ridge:.0f}")]
    for r in rows:
        bound = "intensity-memory-bound" if r["intensity"] < ridge else "intensity-compute-bound"
        lines.append(_say(bound, batch=f"{r['batch']:>3}", intensity=f"{r['intensity']:6.1f}"))
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
    lines = [_say("recompute-setup", d=d), _say("recompute-header")]
    for r in rows:
        lines.append(_say("recompute-row", n=f"{r['n']:>6}", without=f"{r['without']:15.2e}",
                          cached=f"{r['with']:12.2e}", ratio=f"{r['without'] / r['with']:5.0f}"))
    return Shown(lines, {"rows": rows})
