"""The demonstrations behind the follow-ups of the backward pass:
its identities, checked by finite differences."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.demos import Shown, demo, softmax
from dojo.text.messages import t


def say(key: str, **params) -> str:
    """A line of these demonstrations in the tool's language: ``kata.attention_backward.demo.<key>``
    (dojo/catalogue/katas/attention_backward/<lang>/kata.toml); numbers come in formatted."""
    return t("kata.attention_backward.demo." + key, **params)


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
        say("identities-rowsum", difference=f"{identity:.1e}"),
        say("identities-dk-sum", largest=f"{dk_sum:.1e}", dk_max=f"{np.abs(dk).max():.2f}"),
        say("identities-key-bias", change=f"{shifted:.1e}"),
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
    lines = [say("differences-setup", h=f"{h:g}", n=q.shape[0], m=k.shape[0], d_k=q.shape[1], d_v=v.shape[1]),
             say("differences-worst", worst=f"{worst:.1e}")]
    return Shown(lines, {"worst_relative": worst})
