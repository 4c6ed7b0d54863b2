"""The demonstrations behind the follow-ups of sampling: temperature acts on logits, HF's
shifted top-p mask, and the order of top-k and top-p."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.demos import Shown, demo, softmax
from dojo.text.messages import t


def _say(slug: str, **params) -> str:
    """One line of a demonstration, in the tool's language (``kata.sampling.demo.<slug>``)."""
    return t(f"kata.sampling.demo.{slug}", **params)


def _shown(a) -> str:
    return np.array2string(np.asarray(a), precision=3, suppress_small=True)


def _top_p_keep(w: np.ndarray, top_p: float, shifted: bool) -> np.ndarray:
    """Which tokens of ``w`` (already in rank order) a top-p mask keeps: HF's shifted mask
    (removed when the mass before a token is >= top_p) or the unshifted cumsum > top_p."""
    c = np.cumsum(w)
    return (c - w) < top_p if shifted else ~(c > top_p)


@demo("sampling_temperature")
def sampling_temperature() -> Shown:
    logits, temperature = np.array([2.0, 1.0, 0.5, -1.0]), 0.5
    p = softmax(logits)
    via_logits = softmax(logits / temperature)
    power = p ** (1 / temperature) / (p ** (1 / temperature)).sum()
    divided = (p / temperature) / (p / temperature).sum()  # the probabilities divided, renormalised
    lines = [
        _say("temperature-logits", logits=logits.tolist(), temperature=temperature),
        _say("temperature-p", p=_shown(p)),
        _say("temperature-logits-divided", probs=_shown(via_logits)),
        _say("temperature-power", probs=_shown(power)),
        _say("temperature-probs-divided", probs=_shown(divided)),
    ]
    return Shown(lines, {"p": p, "via_logits": via_logits, "power": power, "divided": divided})


@demo("sampling_top_p_shift")
def sampling_top_p_shift() -> Shown:
    rows = [(np.array([0.5, 0.3, 0.15, 0.05]), 0.7), (np.array([0.9, 0.06, 0.04]), 0.5)]
    lines, result = [], []
    for w, top_p in rows:
        plain, shifted = _top_p_keep(w, top_p, False), _top_p_keep(w, top_p, True)
        lines += [
            _say("shift-row", w=_shown(w), top_p=top_p),
            _say("shift-plain", kept=int(plain.sum()), mass=f"{w[plain].sum():.2f}"),
            _say("shift-shifted", kept=int(shifted.sum()), mass=f"{w[shifted].sum():.2f}"),
        ]
        result.append({"top_p": top_p, "plain_kept": int(plain.sum()), "plain_mass": float(w[plain].sum()),
                       "shifted_kept": int(shifted.sum()), "shifted_mass": float(w[shifted].sum())})
    return Shown(lines, {"rows": result})


@demo("sampling_order")
def sampling_order() -> Shown:
    logits, top_k, top_p = np.array([3.0, 2.0, 1.0, 0.0, -1.0]), 2, 0.7  # already in rank order
    p = softmax(logits)
    renormalised = softmax(logits[:top_k])  # HF: top-k first, then top-p on the survivors
    hf = int(_top_p_keep(renormalised, top_p, True).sum())
    other = int(min(top_k, _top_p_keep(p, top_p, True).sum()))  # top-p on the full distribution, then top-k
    lines = [
        _say("order-logits", logits=logits.tolist(), top_k=top_k, top_p=top_p),
        _say("order-hf", kept=hf, w=_shown(renormalised)),
        _say("order-other", kept=other, p=_shown(p)),
    ]
    return Shown(lines, {"hf_kept": hf, "other_kept": other})
