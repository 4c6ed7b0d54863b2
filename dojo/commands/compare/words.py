"""Values, times and sizes in a few words: what the rows, the map notes and the speed table say."""

from __future__ import annotations

import math

from dojo.text.messages import t
from dojo.worker.wire import type_name


def fmt(x: float) -> str:
    if x is None:
        return "—"
    if x == 0:
        return "0"
    if math.isinf(x) or math.isnan(x):
        return str(x)
    return f"{x:.1e}"


def describe(value, limit: int = 70) -> str:
    """A value in a few words: ``array (2, 3) float64 [[0.09 0.24 …]]``."""
    import numpy as np

    if isinstance(value, np.ndarray):
        body = np.array2string(value, precision=3, threshold=6, edgeitems=2, max_line_width=10_000)
        body = " ".join(body.split())
        if len(body) > limit:
            body = body[: limit - 1] + "…"
        return t("compare.value.array", shape=str(value.shape), dtype=str(value.dtype), body=body)
    if isinstance(value, tuple):
        parts = [t("compare.value.array-short", shape=str(v.shape), dtype=str(v.dtype)) if isinstance(v, np.ndarray)
                 else type_name(v) for v in value]
        return t("compare.value.tuple", parts=t("compare.list.sep").join(parts))
    text = repr(value)
    return f"{type_name(value)} {text[:limit]}{'…' if len(text) > limit else ''}"


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def raised_text(outcome, file_name: str | None = None) -> str:
    text = outcome.error_type + (f": {outcome.message}" if outcome.message else "")
    if len(text) > 110:
        text = text[:109] + "…"
    if outcome.line and file_name:
        text = t("compare.raised.line", raised=text, line=outcome.line, file=file_name)
    return text


def human_time(seconds: float | None) -> str:
    if seconds is None:
        return "—"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


def human_bytes(n: int | None) -> str:
    """Bytes in powers of 1024, named as such (KiB, MiB, GiB): the judge's bounds are in MiB."""
    if n is None:
        return "—"
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} GiB"
