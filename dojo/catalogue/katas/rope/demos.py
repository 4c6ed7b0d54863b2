"""The demonstrations behind the follow-ups of RoPE: scores depend on relative positions only."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.demos import Shown, demo
from dojo.text.messages import t


def say(key: str, **params) -> str:
    """A line of these demonstrations in the tool's language: ``kata.rope.demo.<key>``
    (dojo/catalogue/katas/rope/<lang>/kata.toml); numbers come in formatted."""
    return t("kata.rope.demo." + key, **params)


def rope(x, positions, base=10000.0):
    """Half-split (rotate_half) layout: column i pairs with column i + d/2."""
    half = x.shape[1] // 2
    angle = positions[:, None] * base ** (-2.0 * np.arange(half) / x.shape[1])  # (n, d/2)
    a, b = x[:, :half], x[:, half:]
    return np.concatenate([a * np.cos(angle) - b * np.sin(angle), a * np.sin(angle) + b * np.cos(angle)], axis=1)


@demo("rope_relative")
def rope_relative() -> Shown:
    rng = np.random.default_rng(7)
    q, k = rng.standard_normal((1, 64)), rng.standard_normal((1, 64))

    def score(a: int, b: int) -> float:
        return float((rope(q, np.array([a])) @ rope(k, np.array([b])).T)[0, 0])

    apart, starts, offsets = 3, (0, 10, 1000, 100000), (1, 2, 5)
    same = [score(a, a + apart) for a in starts]
    other = [score(0, off) for off in offsets]
    lines = [
        say("relative-same-offset", d=q.shape[1], apart=apart),
        say("relative-scores", pairs=", ".join(f"({a}, {a + apart})" for a in starts),
            scores=", ".join(f"{s:.6f}" for s in same)),
        say("relative-other-offsets", spread=f"{max(same) - min(same):.1e}", offsets=", ".join(map(str, offsets)),
            scores=", ".join(f"{s:.4f}" for s in other)),
    ]
    return Shown(lines, {"same_offset": same, "other_offsets": other})
