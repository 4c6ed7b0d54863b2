"""The demonstrations behind the follow-ups of multi-head attention: permuting the heads."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.demos import Shown, demo, softmax
from dojo.text.messages import t


def _say(slug: str, **params) -> str:
    """One line of a demonstration, in the tool's language (``kata.multihead_attention.demo.<slug>``)."""
    return t(f"kata.multihead_attention.demo.{slug}", **params)


@demo("head_permutation")
def head_permutation() -> Shown:
    rng = np.random.default_rng(2)
    n, d_model, h, d_k = 5, 12, 4, 3
    x = rng.standard_normal((n, d_model))
    w_q, w_k, w_v = (rng.standard_normal((d_model, h * d_k)) for _ in range(3))
    w_o = rng.standard_normal((h * d_k, d_model))

    def mha(w_q, w_k, w_v, w_o):
        def heads(w):
            return (x @ w).reshape(n, h, d_k).transpose(1, 0, 2)  # (h, n, d_k)
        q, k, v = heads(w_q), heads(w_k), heads(w_v)
        p = softmax(q @ k.transpose(0, 2, 1) / np.sqrt(d_k))  # (h, n, n)
        return (p @ v).transpose(1, 0, 2).reshape(n, h * d_k) @ w_o  # (n, d_model)

    perm = np.array([2, 0, 3, 1])
    cols = (perm[:, None] * d_k + np.arange(d_k)).ravel()  # column blocks in the new head order
    out = mha(w_q, w_k, w_v, w_o)
    permuted = mha(w_q[:, cols], w_k[:, cols], w_v[:, cols], w_o[cols])
    only_qkv = mha(w_q[:, cols], w_k[:, cols], w_v[:, cols], w_o)
    lines = [
        _say("perm-setup", heads=h, order=str(perm.tolist())),
        _say("perm-together", change=f"{np.abs(out - permuted).max():.1e}"),
        _say("perm-w-o-kept", change=f"{np.abs(out - only_qkv).max():.1e}"),
    ]
    return Shown(lines, {"together": float(np.abs(out - permuted).max()),
                         "w_o_unpermuted": float(np.abs(out - only_qkv).max())})
