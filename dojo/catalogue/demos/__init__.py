"""Live demonstrations behind the follow-up answers: each computes its numbers with NumPy.

A demonstration is a function registered under a name (``@demo("name")``) that the registry's
follow-ups refer to (``demo = "name"``). It returns a ``Shown``: the lines to print, and a
structured ``result`` of the numbers it measured. No figure is typed in by hand: the lines
are formatted from the result, and tests/tool/test_followups.py checks each claim against the
result. Stated inputs (a model's sizes, a GPU's peak rates) are named as such in the lines.
NumPy only: no torch, no network.

Each kata's demonstrations are its own module, ``dojo/catalogue/demos/<module>.py`` (the kata's module
name, as in katas/); a follow-up of any kata may show any demonstration by its name. Adding
demonstrations for a kata means adding that one file: every module of this package is imported
when the package is, and its ``@demo`` functions fill ``DEMOS``. This module holds what they
share: ``Shown``, ``demo``, ``run`` and small helpers (``size``, ``softmax``, ``kv_cache_bytes``).
"""

from __future__ import annotations

import importlib
import pkgutil
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


def kv_cache_bytes(layers: int, kv_heads: int, head_dim: int, tokens: int, bytes_per: int) -> int:
    return 2 * layers * kv_heads * head_dim * tokens * bytes_per  # 2: a key and a value


# Every module of the package: each registers its demonstrations (after the names above exist).
for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")
