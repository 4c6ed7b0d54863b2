"""Live demonstrations behind the follow-up answers: each computes its numbers with NumPy.

A demonstration is a function registered under a name (``@demo("name")``) that the registry's
follow-ups refer to (``demo = "name"``). It returns a ``Shown``: the lines to print, and a
structured ``result`` of the numbers it measured. No figure is typed in by hand: the lines
are formatted from the result, and tests/tool/test_followups.py checks each claim against the
result. Stated inputs (a model's sizes, a GPU's peak rates) are named as such in the lines.
NumPy only: no torch, no network.

Each kata's demonstrations are its own module, ``dojo/catalogue/katas/<module>/demos.py``; a
follow-up of any kata may show any demonstration by its name. Adding demonstrations for a kata
means adding that one file: every kata's ``demos.py`` is imported when this module is, and its
``@demo`` functions fill ``DEMOS``. This module holds what they
share: ``Shown``, ``demo``, ``run`` and small helpers (``size``, ``softmax``, ``peak_bytes``, ``kv_cache_bytes``).
"""

from __future__ import annotations

import importlib
import tracemalloc
from dataclasses import dataclass, field
from typing import Callable

import numpy as np


@dataclass
class Shown:
    lines: list[str]
    result: dict = field(default_factory=dict)


DEMOS: dict[str, Callable[[], Shown]] = {}


def demo(name: str):
    def register(func: Callable[[], Shown]) -> Callable[[], Shown]:
        DEMOS[name] = func
        return func
    return register


def run(name: str) -> Shown:
    return DEMOS[name]()


def size(nbytes: float) -> str:
    """Bytes in binary units: 16.0 GiB, 512.0 KiB."""
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(nbytes) < 1024 or unit == "TiB":
            return f"{nbytes:.0f} {unit}" if unit == "B" else f"{nbytes:.1f} {unit}"
        nbytes /= 1024
    raise AssertionError("unreachable")


def softmax(x: np.ndarray, axis: int = -1) -> np.ndarray:
    e = np.exp(x - x.max(axis=axis, keepdims=True))  # same shape as x
    return e / e.sum(axis=axis, keepdims=True)


def peak_bytes(func) -> tuple[object, int]:
    """func's result and the most memory it held at once (leaves a running trace running)."""
    already = tracemalloc.is_tracing()
    if not already:
        tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        value = func()
        return value, tracemalloc.get_traced_memory()[1] - before
    finally:
        if not already:
            tracemalloc.stop()


def kv_cache_bytes(layers: int, kv_heads: int, head_dim: int, tokens: int, bytes_per: int) -> int:
    return 2 * layers * kv_heads * head_dim * tokens * bytes_per  # 2: a key and a value


# Every kata's demos.py registers its demonstrations (after the names above exist).
def _import_every_kata() -> None:
    from dojo.catalogue import katas

    for module in katas.modules():
        if (katas.home(module) / "demos.py").is_file():
            importlib.import_module(f"dojo.catalogue.katas.{module}.demos")


_import_every_kata()
