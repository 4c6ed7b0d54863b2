"""The inputs ``dojo compare`` feeds to both implementations: one ``Battery`` per kata.

A battery is data: a list of named cases, each with a builder that makes the keyword arguments
of one call from a seeded generator, plus what to draw (``maps``) and how to time it
(``speed``). Each kata's battery is its own module, ``dojo/catalogue/katas/<module>/battery.py``, exporting
``BATTERY``; adding a kata to ``dojo compare`` means adding that one file. This module holds
the shared vocabulary (``Case``, ``Panel``, ``Speed``, ``Battery``) and small builders.

Every builder is deterministic: case ``name`` of kata ``k`` always gets the generator seeded
with ``crc32(f"{k}:{name}")``, so two runs compare the same numbers.

Case kinds:
- ``edge``: the contract's edge cases (large logits, mixed scales, -inf, masks with a single
  allowed key, n != m, d_k != d_v != d_model, one head, many heads, causal, array-likes);
- ``random``: ordinary generated inputs of assorted shapes;
- ``error``: one input per ValueError class of the contract.

Only the reference decides what is right: a case's kind is a label, not an expectation
(``tests/tool/test_compare.py`` checks that the reference raises on exactly the error cases).

A battery's words are English, where they are written (the English is the id, as a case's name
is, and stays so in the JSON and the PNG). The screen shows them in the tool's language:
``battery_text`` (what the maps show, what the speed run times, what a weight on a blocked cell
means; ``dojo/text/locale/<lang>/battery/<kata>.toml``, keys ``map_what``, ``speed_what``,
``blocked_words``), ``panel_title`` (its ``[panel]`` table, by the English title) and
``dojo.text.locale.case_name`` (a case's name: the kata's ``<lang>/judge.toml`` ``[case]``).
"""

from __future__ import annotations

import importlib
import zlib
from collections.abc import Mapping
from pathlib import Path
from dataclasses import dataclass
from typing import Callable

import numpy as np

KINDS = ("edge", "random", "error")


@dataclass(frozen=True)
class Case:
    """One call. ``max_bytes``: the contract bounds this call's peak memory (resident memory growth, as the kernel counts it), so
    an answer whose values agree but whose peak exceeds it disagrees (e.g. flash attention)."""

    name: str
    build: Callable[[np.random.Generator], dict]
    kind: str = "edge"
    max_bytes: int | None = None


@dataclass(frozen=True)
class Panel:
    """One matrix to draw: its title, and which cells the contract forces to exactly 0.

    The matrix is an output (``index``), or, with ``derive``, computed from the outputs: for
    example the weights exp(s - lse) that a kata returning only ``lse`` implies, or a gradient.
    ``distribution`` says the rows are attention weights (each row sums to 1), so the picture's
    sentences may check that.
    """

    title: str
    index: tuple = (0,)  # where the matrix sits in the kata's outputs: (output number, *leading index)
    blocked: np.ndarray | None = None  # bool, True where the weight must be exactly 0
    derive: Callable[[list], np.ndarray] | None = None  # outputs -> the 2-D matrix to draw
    distribution: bool = True


@dataclass(frozen=True)
class Speed:
    what: str  # the shapes, in words, with n standing for the size
    sizes: tuple[int, int]  # (smaller, realistic); the growth exponent comes from the two
    build: Callable[[int], dict]
    torch: Callable[[object, dict], Callable[[], object]]  # (torch module, kwargs) -> a call


@dataclass(frozen=True)
class Battery:
    kata: str
    outputs: tuple[str, ...]  # what the function returns: one array, or a tuple of arrays
    cases: tuple[Case, ...]
    map_what: str  # the drawn example, in words
    map_inputs: Callable[[], dict]
    panels: Callable[[dict], list[Panel]]
    blocked_words: str  # what a weight on a blocked cell means, e.g. "a future leak"
    speed: Speed
    #: A tolerance of the kata's own (a name in dojo/catalogue/tolerances.py), used alike by the judge, the
    #: diagnosis and compare; None: float64's (rtol 1e-9, atol 1e-12).
    tolerance: str | None = None

    @property
    def single(self) -> bool:
        return len(self.outputs) == 1

    def rng(self, case: Case) -> np.random.Generator:
        return np.random.default_rng(zlib.crc32(f"{self.kata}:{case.name}".encode()))

    def inputs(self, case: Case) -> dict:
        return case.build(self.rng(case))


def normal(rng: np.random.Generator, shape, scale: float = 1.0) -> np.ndarray:
    """Readable entries: N(0, 1) rounded to 2 decimals, times ``scale`` (as the judge draws them)."""
    return np.round(rng.standard_normal(shape), 2) * scale


def fixed(**kwargs) -> Callable[[np.random.Generator], dict]:
    """A builder that ignores the generator."""
    return lambda rng: {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in kwargs.items()}


def scores_far_below(build: Callable[[np.random.Generator], dict], far: float = 1e6) -> Callable[[np.random.Generator], dict]:
    """``build``'s call with large opposite entries in column 0 (q[:, 0] + far, k[j, 0] - far (j + 1)):
    every score q_i·k_j / sqrt(d_k) is about -far² (j + 1) / sqrt(d_k) (-1e12 (j + 1) / sqrt(d_k) by
    default), so a finite fill above that (-1e9 by default; -1e13 at far = 1e10) instead of -inf
    gives the blocked keys all the weight."""

    def far_below(rng):
        kw = build(rng)
        q, k = np.array(kw["q"], dtype=np.float64), np.array(kw["k"], dtype=np.float64)
        q[:, 0] += far
        k[:, 0] -= far * np.arange(1, len(k) + 1)
        return {**kw, "q": q, "k": k}

    return far_below


def projected_scores_far_below(build: Callable[[np.random.Generator], dict], far: float = 1e6) -> Callable[[np.random.Generator], dict]:
    """The same for a call that projects x (n, d_model) with w_q and w_k: x[i, 0] + far (i + 1), w_q's
    row 0 all 1, w_k's all -1, so every head's scores are about -far² (i + 1)(j + 1) sqrt(d_k)."""

    def far_below(rng):
        kw = build(rng)
        x, w_q, w_k = (np.array(kw[a], dtype=np.float64) for a in ("x", "w_q", "w_k"))
        x[:, 0] += far * np.arange(1, len(x) + 1)
        w_q[0], w_k[0] = 1.0, -1.0
        return {**kw, "x": x, "w_q": w_q, "w_k": w_k}

    return far_below


#: One magnitude per row of ``rows_far_below``: a finite fill F for the blocked keys takes a row's
#: weight when it lies above that row's allowed scores, so the rows it takes tell the fills -1e4,
#: -1e5, -1e6, -1e7, -1e9, -1e10, -1e20, -1e30 and -inf apart (the last row is ordinary).
ROW_MAGNITUDES = (3e4, 3e5, 3e6, 3e7, 3e9, 1e14, 1e25, 1e35, 1.0)


def rows_far_below(build: Callable[[np.random.Generator], dict]) -> Callable[[np.random.Generator], dict]:
    """``build``'s call (9 queries, d_k = 2) with every score of query i near -ROW_MAGNITUDES[i]:
    q[i] along column 0 at that magnitude, each key's column 0 a distinct step in -[1, 2)."""

    def far_below(rng):
        kw = build(rng)
        m = len(kw["k"])
        steps = rng.permutation(m) / m + 1.0  # one per key: a row's scores lie apart
        q = np.column_stack([np.array(ROW_MAGNITUDES), np.zeros(len(ROW_MAGNITUDES))]) + 0.01 * kw["q"]
        k = np.column_stack([-steps, np.zeros(m)]) + 0.01 * kw["k"]
        return {**kw, "q": q, "k": k}

    return far_below


def one_allowed_per_row(rng, n, m, density):
    mask = rng.random((n, m)) < density
    mask[np.arange(n), rng.integers(0, m, size=n)] = True
    return mask


def set_entry(a: np.ndarray, index, value) -> np.ndarray:
    a = a.copy()
    a[index] = value
    return a


def torch_weights(torch, q, k, allowed):
    scores = q @ k.transpose(-2, -1) / float(q.shape[-1]) ** 0.5
    if allowed is not None:
        scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1)




def _words(battery: Battery, key: str, english: str, lang: str | None = None) -> str:
    from dojo.text import locale

    lang = lang or locale.LANGUAGE
    if lang == "en":
        return english
    found = locale.part(lang, "battery", battery.kata).get(key)
    return found if isinstance(found, str) and found else english


def battery_text(battery: Battery, field: str, lang: str | None = None) -> str:
    """``map_what``, ``blocked_words`` or ``speed_what`` (``battery.speed.what``) in ``lang``
    (default: the tool's language)."""
    english = battery.speed.what if field == "speed_what" else getattr(battery, field)
    return _words(battery, field, english, lang) if english else english


def panel_title(battery: Battery, title: str, lang: str | None = None) -> str:
    """A panel's title (its English title is its id) in ``lang`` (default: the tool's language)."""
    return _words(battery, f"panel.{title}", title, lang)


def case_name(battery: Battery, name: str) -> str:
    """A case's name in the tool's language (``dojo.text.locale.case_name``)."""
    from dojo.text import locale

    return locale.case_name(battery.kata, name)


class _Batteries(Mapping):
    """kata module -> its ``Battery``, imported on first use (a broken one breaks only itself)."""

    def __init__(self):
        self._loaded: dict[str, Battery] = {}

    def _modules(self) -> list[str]:
        from dojo.catalogue import registry

        return [k.module for k in registry.KATAS if (k.home / "battery.py").is_file()]

    def __getitem__(self, kata: str) -> Battery:
        if kata not in self._loaded:
            if kata not in self._modules():
                raise KeyError(kata)
            self._loaded[kata] = importlib.import_module(f"dojo.catalogue.katas.{kata}.battery").BATTERY
        return self._loaded[kata]

    def __iter__(self):
        return iter(self._modules())

    def __len__(self) -> int:
        return len(self._modules())


#: Every kata's battery, by module name.
BATTERIES = _Batteries()
