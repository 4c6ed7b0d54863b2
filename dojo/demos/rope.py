"""The demonstrations behind the follow-ups of RoPE: scores depend on relative positions only."""

from __future__ import annotations

import numpy as np

from dojo.demos import Shown, demo


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

    same = [score(a, a + 3) for a in (0, 10, 1000, 100000)]
    other = [score(0, off) for off in (1, 2, 5)]
    lines = [
        "q·k after RoPE (d = 64), query and key positions 3 apart:",
        "  (0, 3), (10, 13), (1000, 1003), (100000, 100003): " + ", ".join(f"{s:.6f}" for s in same),
        f"  spread {max(same) - min(same):.1e}; keys 1, 2, 5 after the query instead: "
        + ", ".join(f"{s:.4f}" for s in other),
    ]
    return Shown(lines, {"same_offset": same, "other_offsets": other})
