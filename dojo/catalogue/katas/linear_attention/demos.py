"""The demonstrations behind the follow-ups of linear attention: its cost against softmax
attention, its constant decoding state, and why phi must compute exp(x) directly."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.demos import Shown, demo, peak_bytes, size
from dojo.text.messages import t


def say(key: str, **params) -> str:
    """A line of these demonstrations in the tool's language: ``kata.linear_attention.demo.<key>``
    (dojo/catalogue/katas/linear_attention/<lang>/kata.toml); numbers come in formatted."""
    return t("kata.linear_attention.demo." + key, **params)


def phi(x):
    return np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0.0)))


def quadratic(q, k, v):
    """Causal (n = m) linear attention through the full n×n matrix phi(q) phi(k)ᵀ."""
    a = np.tril(phi(q) @ phi(k).T)
    return (a @ v) / a.sum(axis=1, keepdims=True)


def recurrent(q, k, v, chunk: int = 64):
    """The same by a running (d_k, d_v) state, chunk by chunk."""
    fq, fk = phi(q), phi(k)
    state, z = np.zeros((q.shape[1], v.shape[1])), np.zeros(q.shape[1])
    out = np.empty((q.shape[0], v.shape[1]))
    for s in range(0, q.shape[0], chunk):
        a = np.tril(fq[s:s + chunk] @ fk[s:s + chunk].T)
        out[s:s + chunk] = ((fq[s:s + chunk] @ state + a @ v[s:s + chunk])
                            / (fq[s:s + chunk] @ z + a.sum(axis=1))[:, None])
        state = state + fk[s:s + chunk].T @ v[s:s + chunk]
        z = z + fk[s:s + chunk].sum(axis=0)
    return out


@demo("linear_attention_cost")
def linear_attention_cost() -> Shown:
    rows = []
    for n, d in ((1024, 16), (4096, 16), (16384, 16), (4096, 128)):
        softmax_madds = 2 * n * n * d  # scores n·n·d_k, weighted sum n·n·d_v (d_k = d_v = d)
        linear_madds = 2 * n * d * d  # state Σ phi(k) vᵀ: n·d_k·d_v, read-out phi(q) S: n·d_k·d_v
        rows.append({"n": n, "d": d, "softmax": softmax_madds, "linear": linear_madds})
    lines = [say("cost-setup"), say("cost-header")]
    for r in rows:
        lines.append(say("cost-row", n=f"{r['n']:>6}", d=f"{r['d']:>4}", softmax=f"{r['softmax']:10.2e}",
                         linear=f"{r['linear']:10.2e}", ratio=f"{r['softmax'] / r['linear']:6.0f}"))
    return Shown(lines, {"rows": rows})


@demo("linear_attention_state")
def linear_attention_state() -> Shown:
    rng = np.random.default_rng(13)
    n, d = 2048, 16
    q, k, v = (rng.standard_normal((n, d)) for _ in range(3))
    full, full_peak = peak_bytes(lambda: quadratic(q, k, v))
    rec, rec_peak = peak_bytes(lambda: recurrent(q, k, v))
    state = d * d * 8 + d * 8  # S (d_k, d_v) and z (d_k,), float64
    caches = [{"tokens": tokens, "cache": 2 * tokens * d * 8} for tokens in (1024, 16384, 131072)]
    lines = [say("state-setup", n=n, d=d),
             say("state-peaks", full=size(full_peak), recurrent=size(rec_peak),
                 diff=f"{float(np.abs(full - rec).max()):.1e}"),
             say("state-size", state=size(state))]
    for c in caches:
        lines.append(say("state-cache", tokens=f"{c['tokens']:>6}", cache=size(c["cache"])))
    return Shown(lines, {"n": n, "full_peak": full_peak, "recurrent_peak": rec_peak,
                         "max_diff": float(np.abs(full - rec).max()), "state": state, "caches": caches})


@demo("elu_literal")
def elu_literal() -> Shown:
    rows = []
    for x in (-5.0, -17.0, -25.0, -37.0, -37.5, -40.0):
        exact = float(np.exp(x))
        literal = float((np.exp(x) - 1.0) + 1.0)  # elu(x) + 1 written as it reads
        rows.append({"x": x, "exact": exact, "literal": literal, "relative": abs(literal - exact) / exact})
    lines = [say("elu-setup"), say("elu-header")]
    for r in rows:
        lines.append(say("elu-row", x=f"{r['x']:6.1f}", exact=f"{r['exact']:.6e}", literal=f"{r['literal']:.6e}",
                         relative=f"{r['relative']:.1e}"))
    return Shown(lines, {"rows": rows})
