"""The demonstrations behind the follow-ups of the backward pass:
its identities, checked by finite differences."""

from __future__ import annotations

import numpy as np

from dojo.demos import Shown, demo, softmax


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
