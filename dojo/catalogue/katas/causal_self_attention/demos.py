"""The demonstrations behind the follow-ups of causal self-attention:
the test that catches a future leak."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.demos import Shown, demo, softmax
from dojo.text.messages import t


def _say(slug: str, **params) -> str:
    """One line of a demonstration, in the tool's language (``kata.causal_self_attention.demo.<slug>``)."""
    return t(f"kata.causal_self_attention.demo.{slug}", **params)


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
        _say("leak-setup", n=n),
        _say("leak-tril", last_past=n - 2, past=f"{right[:-1].max():.1e}", last=f"{right[-1].max():.1e}"),
        _say("leak-triu", last_past=n - 2, past=f"{wrong[:-1].max():.1e}"),
    ]
    return Shown(lines, {"past_change": float(right[:-1].max()), "last_change": float(right[-1].max()),
                         "leaky_past_change": float(wrong[:-1].max())})
