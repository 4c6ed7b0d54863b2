"""The demonstrations behind the follow-ups of ALiBi: why it extrapolates, where order comes
from without a position embedding, and what the geometric slopes give each head."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.demos import Shown, demo, softmax
from dojo.text.messages import t


def _say(slug: str, **params) -> str:
    """One line of a demonstration, in the tool's language (``kata.alibi_attention.demo.<slug>``)."""
    return t(f"kata.alibi_attention.demo.{slug}", **params)


def slopes(h: int) -> np.ndarray:
    """Press et al.'s slopes for h heads (the kata's rule)."""
    if h & (h - 1) == 0:
        return 2.0 ** (-8.0 * np.arange(1, h + 1) / h)
    c = 1 << (h.bit_length() - 1)
    return np.concatenate([slopes(c), slopes(2 * c)[0::2][: h - c]])


def last_row_weights(scores: np.ndarray, slope: float) -> np.ndarray:
    """The newest query's ALiBi weights over m keys with content scores ``scores`` (m,)."""
    m = scores.shape[0]
    return softmax(scores - slope * (m - 1 - np.arange(m)))


@demo("alibi_extrapolation")
def alibi_extrapolation() -> Shown:
    train, long = 1024, 4096
    rng = np.random.default_rng(14)
    content = rng.standard_normal(long)  # the content scores q·k/sqrt(d) of the newest query, ~N(0, 1)
    rows = []
    for s in slopes(8):
        short_w = last_row_weights(content[-train:], s)  # the same newest 1024 keys, trained length
        long_w = last_row_weights(content, s)  # four times the context
        beyond = float(long_w[:-train].sum())  # the weight on keys further back than in training
        change = float(np.abs(long_w[-train:] - short_w).max())
        rows.append({"slope": float(s), "beyond": beyond, "change": change})
    lines = [_say("extrapolation-setup", train=train, long=long)]
    lines += [_say("extrapolation-row", slope=f"1/{round(1 / r['slope'])}".rjust(5), beyond=f"{r['beyond']:9.2e}",
                   change=f"{r['change']:9.2e}", train=train) for r in rows]
    lines.append(_say("extrapolation-end"))
    return Shown(lines, {"train": train, "long": long, "rows": rows})


@demo("alibi_shift_invariance")
def alibi_shift_invariance() -> Shown:
    rng = np.random.default_rng(3)
    n, m, s = 4, 9, 0.25
    content = rng.standard_normal((n, m))
    p = np.arange(m - n, m)[:, None]  # query positions, bottom-right
    j = np.arange(m)[None, :]
    future = j > p

    def weights(bias, masked=True):
        scores = content + bias
        return softmax(np.where(future, -np.inf, scores) if masked else scores)

    reference = weights(-s * (p - j))
    key_only = weights(s * j)  # -s (p_i - j) + s p_i: a constant per row
    row_index = weights(-s * (np.arange(n)[:, None] - j))  # counted from the row index i instead of p_i
    shifted = softmax(np.where(future, -np.inf, content - s * ((p + 1000) - (j + 1000))))  # every position + 1000
    no_mask_future = float(weights(s * j, masked=False)[0][future[0]].sum())
    result = {
        "key_only": float(np.abs(key_only - reference).max()),
        "row_index": float(np.abs(row_index - reference).max()),
        "shifted": float(np.abs(shifted - reference).max()),
        "no_mask_future": no_mask_future, "slope": s, "n": n, "m": m,
    }
    lines = [
        _say("shift-setup", n=n, m=m, slope=s),
        _say("shift-key-only", diff=f"{result['key_only']:.1e}"),
        _say("shift-row-index", diff=f"{result['row_index']:.1e}"),
        _say("shift-positions", diff=f"{result['shifted']:.1e}"),
        _say("shift-no-mask", mass=f"{no_mask_future:.3f}"),
    ]
    return Shown(lines, result)


@demo("alibi_head_windows")
def alibi_head_windows() -> Shown:
    m, share = 8192, 0.9
    rows = []
    for head, s in enumerate(slopes(8)):
        w = last_row_weights(np.zeros(m), s)[::-1]  # content alike: the bias alone; nearest key first
        window = int(np.searchsorted(np.cumsum(w), share) + 1)  # the nearest keys holding 90% of the weight
        rows.append({"head": head, "slope": float(s), "window": window})
    six = sorted(float(x) for x in slopes(6))
    lines = [_say("windows-setup", share=f"{share:.0%}", m=m)]
    lines += [_say("windows-row", head=r["head"], slope=f"1/{round(1 / r['slope'])}".rjust(5),
                   window=f"{r['window']:5d}") for r in rows]
    lines.append(_say("windows-six", slopes=", ".join(f"1/{round(1 / x)}" for x in six)))
    return Shown(lines, {"rows": rows, "six": six, "share": share})
