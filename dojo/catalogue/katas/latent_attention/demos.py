"""The demonstrations behind the follow-ups of latent attention: the cache it keeps, and the
decoding step with the up-projections absorbed."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.demos import Shown, demo, size, softmax
from dojo.text.messages import t

#: DeepSeek-V2's attention sizes (stated inputs, from its paper): layers, heads, d_h, d_c, d_r.
DEEPSEEK_V2 = dict(layers=60, heads=128, d_h=128, d_c=512, d_r=64, d_model=5120)


def say(key: str, **params) -> str:
    """A line of these demonstrations in the tool's language: ``kata.latent_attention.demo.<key>``."""
    return t("kata.latent_attention.demo." + key, **params)


@demo("mla_cache")
def mla_cache() -> Shown:
    c = DEEPSEEK_V2
    tokens, bf16 = 32768, 2
    per_token = {  # numbers cached per token and layer
        "mha": 2 * c["heads"] * c["d_h"],  # a key and a value for every head
        "gqa": 2 * 8 * c["d_h"],  # 8 kv heads
        "mla": c["d_c"] + c["d_r"],  # the latent and the shared RoPE key
    }
    total = {kind: per * c["layers"] * tokens * bf16 for kind, per in per_token.items()}
    lines = [say("cache-model", **{k: v for k, v in c.items() if k != "d_model"}),
             say("cache-sequence", tokens=tokens)]
    for kind in ("mha", "gqa", "mla"):
        lines.append(say(f"cache-{kind}", per=f"{per_token[kind]:>5}", size=f"{size(total[kind]):>9}",
                         ratio=f"{total['mha'] / total[kind]:.1f}"))
    return Shown(lines, {"per_token": per_token, "total": total, "config": c})


def _decode_macs(m: int, c: dict) -> dict:
    """Multiply-adds of one decoding step (one new query, m cached tokens), per layer."""
    h, d_h, d_c, d_r, d_model = c["heads"], c["d_h"], c["d_c"], c["d_r"], c["d_model"]
    d_v = d_h
    attention = m * h * (d_h + d_r) + m * h * d_v
    explicit = m * d_c * h * (d_h + d_v) + attention + h * d_v * d_model  # keys and values rebuilt
    absorbed = h * d_h * d_c + m * h * (d_c + d_r) + m * h * d_c + h * d_c * d_model  # never built
    return {"explicit": explicit, "absorbed": absorbed}


@demo("mla_absorbed_decode")
def mla_absorbed_decode() -> Shown:
    rng = np.random.default_rng(16)
    d_model, h, d_h, d_v, d_c, d_r, m = 64, 8, 16, 16, 32, 8, 512
    c_kv = rng.standard_normal((m, d_c))  # the cache: latents ...
    k_rope = rng.standard_normal((m, d_r))  # ... and rotated shared keys
    q_c = rng.standard_normal((h, d_h))  # the new token's content query, per head
    q_r = rng.standard_normal((h, d_r))  # and its rotated RoPE query
    w_uk = rng.standard_normal((d_c, h * d_h)) / np.sqrt(d_c)
    w_uv = rng.standard_normal((d_c, h * d_v)) / np.sqrt(d_c)
    w_o = rng.standard_normal((h * d_v, d_model)) / np.sqrt(h * d_v)
    scale = 1 / np.sqrt(d_h + d_r)

    k_c = (c_kv @ w_uk).reshape(m, h, d_h).transpose(1, 0, 2)  # (h, m, d_h): rebuilt every step
    v = (c_kv @ w_uv).reshape(m, h, d_v).transpose(1, 0, 2)  # (h, m, d_v)
    p = softmax((np.einsum("hd,hmd->hm", q_c, k_c) + q_r @ k_rope.T) * scale)  # (h, m)
    explicit = np.einsum("hm,hmd->hd", p, v).reshape(h * d_v) @ w_o  # (d_model,)

    w_uk_h = w_uk.reshape(d_c, h, d_h)
    w_uv_o = np.einsum("chd,hdo->hco", w_uv.reshape(d_c, h, d_v), w_o.reshape(h, d_v, d_model))  # once
    q_abs = np.einsum("hd,chd->hc", q_c, w_uk_h)  # (h, d_c): W_uk folded into the query
    p_abs = softmax((q_abs @ c_kv.T + q_r @ k_rope.T) * scale)  # (h, m): scores on the latents
    absorbed = np.einsum("hc,hco->o", p_abs @ c_kv, w_uv_o)  # (d_model,)
    diff = float(np.abs(explicit - absorbed).max())

    macs = _decode_macs(4096, DEEPSEEK_V2)
    lines = [say("absorb-setup", h=h, d_h=d_h, d_c=d_c, d_r=d_r, m=m),
             say("absorb-diff", diff=f"{diff:.1e}"),
             say("absorb-cost-setup", m=4096),
             say("absorb-cost-explicit", macs=f"{macs['explicit'] / 1e6:8.0f}"),
             say("absorb-cost-absorbed", macs=f"{macs['absorbed'] / 1e6:8.0f}",
                 ratio=f"{macs['explicit'] / macs['absorbed']:.1f}")]
    return Shown(lines, {"diff": diff, "scale": float(np.abs(explicit).max()), "macs": macs})
