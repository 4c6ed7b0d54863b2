"""The demonstrations behind the follow-ups of moe_layer: Mixtral's renormalised gates, what the
load-balancing loss rewards, and what running every expert on every token costs."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.demos import Shown, demo, softmax
from dojo.text.messages import t


def _say(slug: str, **params) -> str:
    """One line of a demonstration, in the tool's language (``kata.moe_layer.demo.<slug>``)."""
    return t(f"kata.moe_layer.demo.{slug}", **params)


def _shown(a) -> str:
    return np.array2string(np.asarray(a), precision=3, suppress_small=True)


def _aux(logits: np.ndarray, top_k: int) -> float:
    """E * sum(f * P) for router logits (n, E): HF Mixtral's load-balancing loss."""
    n, E = logits.shape
    chosen = np.argsort(-logits, axis=1, kind="stable")[:, :top_k]
    f = np.bincount(chosen.ravel(), minlength=E) / n
    return float(E * np.sum(f * softmax(logits, axis=1).mean(axis=0)))


@demo("moe_renormalise")
def moe_renormalise() -> Shown:
    logits, top_k = np.array([2.0, 1.5, 0.5, -1.0]), 2
    probs = softmax(logits)
    chosen = np.argsort(-logits, kind="stable")[:top_k]
    raw = probs[chosen]
    renormalised = raw / raw.sum()
    over_chosen = softmax(logits[chosen])
    lines = [
        _say("renormalise-logits", logits=logits.tolist(), top_k=top_k),
        _say("renormalise-probs", probs=_shown(probs), chosen=chosen.tolist()),
        _say("renormalise-raw", gates=_shown(raw), total=f"{raw.sum():.3f}"),
        _say("renormalise-mixtral", gates=_shown(renormalised)),
        _say("renormalise-softmax", gates=_shown(over_chosen)),
    ]
    return Shown(lines, {"raw": raw, "renormalised": renormalised, "over_chosen": over_chosen})


@demo("moe_aux_balance")
def moe_aux_balance() -> Shown:
    n, E, top_k = 4096, 8, 2
    rng = np.random.default_rng(0)
    collapsed = np.zeros((n, E))
    collapsed[:, :top_k] = 8.0  # every token prefers experts 0 and 1 by far
    cases = {"uniform": np.zeros((n, E)), "random": rng.standard_normal((n, E)), "collapsed": collapsed}
    values = {name: _aux(logits, top_k) for name, logits in cases.items()}
    lines = [_say("aux-sizes", n=n, E=E, top_k=top_k)]
    lines += [_say(f"aux-{name}", aux=f"{value:.3f}") for name, value in values.items()]
    return Shown(lines, {"top_k": top_k, "E": E, **values})


@demo("moe_flops")
def moe_flops() -> Shown:
    # Mixtral 8x7B's stated sizes: d_model 4096, d_ff 14336, 8 experts, top_k 2; one batch of 1024 tokens
    n, d_model, d_ff, E, top_k = 1024, 4096, 14336, 8, 2
    per_token_expert = 2 * 3 * d_model * d_ff  # a SwiGLU expert: three d_model x d_ff matrices
    dense = n * E * per_token_expert
    sparse = n * top_k * per_token_expert
    lines = [
        _say("flops-sizes", n=n, d_model=d_model, d_ff=d_ff, E=E, top_k=top_k),
        _say("flops-dense", flops=f"{dense / 1e12:.1f}"),
        _say("flops-sparse", flops=f"{sparse / 1e12:.1f}"),
        _say("flops-ratio", ratio=f"{dense / sparse:g}"),
    ]
    return Shown(lines, {"dense": dense, "sparse": sparse, "E": E, "top_k": top_k})
