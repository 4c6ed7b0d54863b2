"""The demonstrations behind the follow-ups of causal self-attention:
the test that catches a future leak."""

from __future__ import annotations

import numpy as np

from dojo.demos import Shown, demo, softmax


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
