"""The one registry of katas (``registry.toml``), read by the tool, the judge and the docs.

Adding a kata means adding four things: ``katas/<module>.py`` (the stub),
``solutions/<module>.py`` (the model answer), ``tests/test_<module>.py`` (the judge) and one
``[[kata]]`` entry in ``registry.toml``. ``check_registry`` refuses a registry that breaks that.
"""

from __future__ import annotations

import difflib
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REGISTRY_FILE = Path(__file__).with_name("registry.toml")
DIFFICULTIES = ("easy", "medium", "hard")


@dataclass(frozen=True)
class Kata:
    module: str
    function: str
    title: str
    difficulty: str
    minutes: int
    hints: tuple[str, ...]
    followups: tuple[str, ...]
    track: str

    @property
    def stub_path(self) -> Path:
        return ROOT / "katas" / f"{self.module}.py"

    @property
    def solution_path(self) -> Path:
        return ROOT / "solutions" / f"{self.module}.py"

    @property
    def test_path(self) -> Path:
        return ROOT / "tests" / f"test_{self.module}.py"


class RegistryError(ValueError):
    """The registry file itself is malformed."""


def _load(path: Path = REGISTRY_FILE) -> tuple[Kata, ...]:
    with open(path, "rb") as f:
        raw = tomllib.load(f)
    katas = []
    for entry in raw.get("kata", []):
        try:
            katas.append(
                Kata(
                    module=entry["module"],
                    function=entry["function"],
                    title=entry["title"],
                    difficulty=entry["difficulty"],
                    minutes=int(entry["minutes"]),
                    hints=tuple(entry["hints"]),
                    followups=tuple(entry["followups"]),
                    track=entry["track"],
                )
            )
        except KeyError as e:
            raise RegistryError(f"{path}: a [[kata]] entry lacks {e}") from None
    return tuple(katas)


KATAS: tuple[Kata, ...] = _load()
BY_MODULE = {k.module: k for k in KATAS}
#: Track names in the order of their first kata.
TRACKS: tuple[str, ...] = tuple(dict.fromkeys(k.track for k in KATAS))


def get(name: str) -> Kata:
    """The kata called ``name``; a ``ValueError`` with suggestions when there is none."""
    if name in BY_MODULE:
        return BY_MODULE[name]
    close = difflib.get_close_matches(name, list(BY_MODULE), n=3, cutoff=0.5)
    hint = f" Did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    raise UnknownKata(
        f"no kata called {name!r}.{hint} Katas: {', '.join(BY_MODULE)}.", suggestions=close
    )


class UnknownKata(ValueError):
    def __init__(self, message: str, suggestions: list[str]):
        super().__init__(message)
        self.suggestions = suggestions


def check_registry(katas: tuple[Kata, ...] = KATAS) -> list[str]:
    """Every problem with the registry, as sentences (an empty list means it is sound)."""
    problems = []
    seen = set()
    for k in katas:
        if k.module in seen:
            problems.append(f"{k.module}: listed twice")
        seen.add(k.module)
        if k.difficulty not in DIFFICULTIES:
            problems.append(f"{k.module}: difficulty {k.difficulty!r} is not one of {DIFFICULTIES}")
        if not k.track.strip():
            problems.append(f"{k.module}: needs a track")
        if k.minutes <= 0:
            problems.append(f"{k.module}: minutes must be positive")
        if not k.hints or any(not h.strip() for h in k.hints):
            problems.append(f"{k.module}: needs hints, none empty")
        if not k.followups or any(not q.strip() for q in k.followups):
            problems.append(f"{k.module}: needs follow-up questions, none empty")
        for what, path in (("stub", k.stub_path), ("solution", k.solution_path), ("tests", k.test_path)):
            if not path.is_file():
                problems.append(f"{k.module}: {what} file {path.relative_to(ROOT)} is missing")
    return problems
