"""The demonstrations behind the follow-ups of half_precision_attention: a float16 running sum
over many keys, and the score error of float16 against float32 next to the kata's bound."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.demos import Shown, demo, softmax
from dojo.text.messages import t


def _say(slug: str, **params) -> str:
    """One line of a demonstration, in the tool's language (``kata.half_precision_attention.demo.<slug>``)."""
    return t(f"kata.half_precision_attention.demo.{slug}", **params)


@demo("float16_running_sum")
def float16_running_sum() -> Shown:
    rng = np.random.default_rng(0)
    m = 4096
    scores = rng.standard_normal(m)  # one query's scores over m keys
    weights = np.exp(scores - scores.max())  # each in (0, 1]
    exact = float(weights.sum())
    half = float(np.cumsum(weights.astype(np.float16), dtype=np.float16)[-1])  # key by key, float16
    single = float(np.cumsum(weights.astype(np.float32), dtype=np.float32)[-1])  # key by key, float32
    lines = [
        _say("sum-setup", m=m),
        _say("sum-exact", exact=f"{exact:.4f}"),
        _say("sum-float16", value=f"{half:.4f}", error=f"{abs(half - exact) / exact:.1%}"),
        _say("sum-float32", value=f"{single:.4f}", error=f"{abs(single - exact) / exact:.1e}"),
    ]
    return Shown(lines, {"m": m, "exact": exact, "float16": half, "float32": single})


def _attention(q, k, v, dtype):
    """Scores in ``dtype``, then the softmax and weighted sum in float64."""
    scores = (q.astype(dtype) @ k.astype(dtype).T).astype(np.float64) / np.sqrt(q.shape[1])
    return softmax(scores) @ v.astype(np.float64)


@demo("float16_score_error")
def float16_score_error() -> Shown:
    rng = np.random.default_rng(1)
    n, m, d = 4, 64, 64
    q, k, v = (rng.standard_normal(s).astype(np.float16) for s in ((n, d), (m, d), (m, d)))
    q = (q * 3).astype(np.float16)
    k = (k * 3).astype(np.float16)
    q64, k64, v64 = (a.astype(np.float64) for a in (q, k, v))
    exact = _attention(q64, k64, v64, np.float64)
    size = (np.abs(q64[:, None, :] * k64[None, :, :]).sum(axis=2) / np.sqrt(d)).max(axis=1)  # S_i
    bound = 2.0**-12 * np.abs(v64).max(axis=0)[None, :] * (1 + size[:, None])
    rows = {}
    for name, dtype in (("float16", np.float16), ("float32", np.float32)):
        with np.errstate(over="ignore"):
            err = np.abs(_attention(q, k, v, dtype) - exact)
        rows[name] = float((err / bound).max())
    lines = [
        _say("score-setup", n=n, m=m, d=d, size=f"{size.max():.1f}"),
        _say("score-row", dtype="float16", share=f"{rows['float16']:.0%}"),
        _say("score-row", dtype="float32", share=f"{rows['float32']:.2%}"),
    ]
    return Shown(lines, {"largest_S": float(size.max()), "share": rows})
