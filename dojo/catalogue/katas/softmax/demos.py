"""The demonstrations behind the follow-ups of softmax:
overflow without the max shift, log-softmax, float16."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.demos import Shown, demo, softmax
from dojo.text.messages import t


def _say(slug: str, **params) -> str:
    """One line of a demonstration, in the tool's language (``kata.softmax.demo.<slug>``)."""
    return t(f"kata.softmax.demo.{slug}", **params)


def naive_softmax(x: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(x)
        return e / e.sum(axis=-1, keepdims=True)


@demo("softmax_overflow")
def softmax_overflow() -> Shown:
    x = np.array([1000.0, 1001.0, 1002.0])
    naive = naive_softmax(x)
    shifted = softmax(x)
    small = softmax(x - 1000.0)  # the same logits, shifted by hand
    lines = [
        _say("overflow-logits", logits=x.tolist()),
        _say("overflow-naive", naive=np.array2string(naive, precision=4)),
        _say("overflow-shifted", shifted=np.array2string(shifted, precision=4)),
        _say("overflow-by-hand", by_hand=np.array2string(small, precision=4)),
        _say("overflow-difference", difference=f"{np.abs(shifted - small).max():.1e}"),
    ]
    return Shown(lines, {"naive_finite": bool(np.isfinite(naive).all()), "shifted": shifted,
                         "shifted_by_hand": small})


@demo("log_softmax")
def log_softmax_demo() -> Shown:
    x = np.array([0.0, -800.0])
    with np.errstate(divide="ignore"):
        via_softmax = np.log(softmax(x))
    m = x.max()
    direct = x - (m + np.log(np.exp(x - m).sum()))  # x - logsumexp(x)
    lines = [
        _say("log-logits", logits=x.tolist()),
        _say("log-via-softmax", via_softmax=via_softmax.tolist()),
        _say("log-direct", direct=direct.tolist()),
    ]
    return Shown(lines, {"via_softmax": via_softmax, "direct": direct, "logits": x})


@demo("float16_softmax")
def float16_softmax() -> Shown:
    f16 = np.float16
    logits = np.array([0.0, 5.0, 12.0], dtype=f16)
    with np.errstate(over="ignore", invalid="ignore"):
        naive = np.exp(logits) / np.exp(logits).sum()
    shifted = np.exp(logits - logits.max())
    shifted = shifted / shifted.sum()
    running16 = np.cumsum(np.ones(4096, dtype=f16), dtype=f16)[-1]
    running32 = np.cumsum(np.ones(4096, dtype=np.float32), dtype=np.float32)[-1]
    tiny = np.exp(f16(-18.0))
    lines = [
        _say("f16-limits", largest=f"{float(np.finfo(f16).max):.0f}", exp_twelve=f"{float(np.exp(np.float32(12))):.0f}"),
        _say("f16-naive", logits=logits.tolist(), naive=naive.tolist()),
        _say("f16-shifted", shifted=np.array2string(shifted.astype(np.float64), precision=4)),
        _say("f16-running-sum", count=4096, sum_sixteen=f"{float(running16):.0f}",
             sum_thirty_two=f"{float(running32):.0f}"),
        _say("f16-stops"),
        _say("f16-underflow", tiny=float(tiny),
             subnormal=f"{float(np.finfo(f16).smallest_subnormal):.1e}"),
    ]
    return Shown(lines, {"naive_finite": bool(np.isfinite(naive).all()),
                         "shifted_finite": bool(np.isfinite(shifted).all()),
                         "sum16": float(running16), "sum32": float(running32), "count": 4096,
                         "exp_minus_18": float(tiny)})
