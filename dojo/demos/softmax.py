"""The demonstrations behind the follow-ups of softmax:
overflow without the max shift, log-softmax, float16."""

from __future__ import annotations

import numpy as np

from dojo.demos import Shown, demo, softmax


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
        f"logits {x.tolist()} in float64:",
        f"  exp(x) / sum(exp(x))          -> {np.array2string(naive, precision=4)}   (exp(1000) overflows)",
        f"  exp(x - max) / sum(...)       -> {np.array2string(shifted, precision=4)}",
        f"  the same after x - 1000 by hand -> {np.array2string(small, precision=4)}",
        f"  largest difference between the two shifted results: {np.abs(shifted - small).max():.1e}",
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
        f"logits {x.tolist()}:",
        f"  log(softmax(x))        -> {via_softmax.tolist()}   (softmax underflowed to 0, log(0) = -inf)",
        f"  x - logsumexp(x)       -> {direct.tolist()}",
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
        f"float16: largest finite {float(np.finfo(f16).max):.0f}; exp(12) = {float(np.exp(np.float32(12))):.0f} in float32",
        f"  naive softmax of {logits.tolist()} in float16 -> {naive.tolist()}",
        f"  shifted by the max, in float16            -> {np.array2string(shifted.astype(np.float64), precision=4)}",
        f"  a running sum of 4096 ones: float16 {float(running16):.0f}, float32 {float(running32):.0f}",
        "    (float16 stops growing at 2048: 2048 + 1 rounds to 2048)",
        f"  exp(-18) in float16 = {float(tiny)}   (underflow: below the smallest subnormal, {float(np.finfo(f16).smallest_subnormal):.1e})",
    ]
    return Shown(lines, {"naive_finite": bool(np.isfinite(naive).all()),
                         "shifted_finite": bool(np.isfinite(shifted).all()),
                         "sum16": float(running16), "sum32": float(running32), "count": 4096,
                         "exp_minus_18": float(tiny)})
