"""The registry of katas, read by the tool, the judge and the docs: one ``kata.toml`` in each
kata's folder, ``dojo/catalogue/katas/<module>/`` (its format: README.md there), in the order
of their ``number``.

Adding a kata means adding its four places: ``katas/<module>.py`` (the stub),
``solutions/<module>.py`` (the model answer), ``tests/test_<module>.py`` with
``tests/katas/<module>/`` (the judge and its self-check) and ``dojo/catalogue/katas/<module>/``
(what the tool teaches with). ``check_registry`` refuses a registry that breaks that.

A kata is one function (``function``), never more: the stub, the judge, the worker, the diagnosis
and ``dojo compare`` call that one name (README, "One kata, one function").

Each entry ends with its follow-up questions, one ``[[kata.followup]]`` table each: the question,
its model answer (3 to 8 lines once re-wrapped at 95 columns) and optionally the name of a
demonstration in ``dojo/catalogue/katas/<kata>/demos.py`` that computes the answer's numbers live.
"""

from __future__ import annotations

import difflib
import textwrap
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KATAS_FOLDER = Path(__file__).with_name("katas")
DIFFICULTIES = ("easy", "medium", "hard")
#: A model answer, re-wrapped at ANSWER_WIDTH columns, takes ANSWER_LINES lines (both ends
#: included). That is how `dojo followups --answers` shows it, behind a 5-column indent.
ANSWER_LINES = (3, 8)
ANSWER_WIDTH = 95
FOLLOWUP_KEYS = ("question", "answer", "demo")


@dataclass(frozen=True)
class Followup:
    """An interviewer's follow-up question, its model answer and, optionally, the name of a
    demonstration in ``dojo.catalogue.demos`` that computes the answer's numbers live."""

    question: str
    answer: str
    demo: str | None = None

    def answer_lines(self, width: int = ANSWER_WIDTH) -> list[str]:
        """The answer as shown: its words re-wrapped at ``width`` cells (the file's line breaks
        are only for editing; a Chinese answer counts a character as 2 cells, ``dojo.text.cjk``)."""
        from dojo.text import cjk

        joined = cjk.join_lines(self.answer)
        if cjk.has_wide(joined):  # Chinese: measured in cells, broken between characters
            return cjk.wrap(joined, width)
        return textwrap.wrap(joined, width)


@dataclass(frozen=True)
class Kata:
    module: str
    function: str
    title: str
    difficulty: str
    minutes: int
    hints: tuple[str, ...]
    followup_answers: tuple[Followup, ...]
    track: str
    next: str | None = None  #: the natural next question in an interview loop (a kata's module)

    @property
    def followups(self) -> tuple[str, ...]:
        """The follow-up questions alone, in order."""
        return tuple(f.question for f in self.followup_answers)

    @property
    def stub_path(self) -> Path:
        return ROOT / "katas" / f"{self.module}.py"

    @property
    def solution_path(self) -> Path:
        return ROOT / "solutions" / f"{self.module}.py"

    @property
    def test_path(self) -> Path:
        return ROOT / "tests" / f"test_{self.module}.py"

    @property
    def home(self) -> Path:
        """Its folder of what the tool teaches with: entry, battery, demonstrations, words."""
        return KATAS_FOLDER / self.module

    @property
    def checks(self) -> Path:
        """Its judge's self-check folder: ``wrong/`` and ``right/`` files, its tool test."""
        return ROOT / "tests" / "katas" / self.module

    def implementations(self, kind: str) -> list[Path]:
        """Its known ``"wrong"`` or ``"right"`` files, in name order."""
        return sorted((self.checks / kind).glob("*.py"))


class RegistryError(ValueError):
    """The registry file itself is malformed."""


def _followup(path: Path, module: str, entry) -> Followup:
    if not isinstance(entry, dict):
        raise RegistryError(f"{path}: {module}: a follow-up must be a [[kata.followup]] table")
    unknown = sorted(set(entry) - set(FOLLOWUP_KEYS))
    if unknown:
        raise RegistryError(
            f"{path}: {module}: a follow-up has unknown keys {unknown} (it takes {FOLLOWUP_KEYS}; "
            "keys of the kata itself must come before its [[kata.followup]] tables)"
        )
    for key in FOLLOWUP_KEYS:
        if key in entry and not isinstance(entry[key], str):
            raise RegistryError(f"{path}: {module}: a follow-up's {key} must be a string")
    return Followup(question=entry.get("question", ""), answer=entry.get("answer", ""), demo=entry.get("demo"))


def _entries(folder: Path = KATAS_FOLDER) -> list[tuple[Path, dict]]:
    """Every kata folder's ``kata.toml``, parsed, in the order of their numbers (a file that
    does not parse, or lacks a whole-number ``number``, is a RegistryError naming it)."""
    found = []
    for path in sorted(folder.glob("*/kata.toml")):
        try:
            with open(path, "rb") as f:
                entry = tomllib.load(f)
        except tomllib.TOMLDecodeError as e:
            raise RegistryError(f"{path}: {e}") from None
        number = entry.get("number")
        if not isinstance(number, int) or isinstance(number, bool):
            raise RegistryError(f"{path}: needs `number = N` (its place in the order of katas)")
        if entry.get("module") != path.parent.name:
            raise RegistryError(f"{path}: module = {entry.get('module')!r}, but its folder is {path.parent.name!r}")
        found.append((path, entry))
    found.sort(key=lambda pe: pe[1]["number"])
    numbers = [e["number"] for _, e in found]
    if numbers != list(range(1, len(found) + 1)):
        raise RegistryError(f"{folder}: kata numbers must be 1 to {len(found)}, each once; they are {numbers}")
    return found


def _load(folder: Path = KATAS_FOLDER) -> tuple[Kata, ...]:
    return tuple(k for path, entry in _entries(folder) for k in parse({"kata": [entry]}, path))


def parse(raw: dict, path: Path = KATAS_FOLDER) -> tuple[Kata, ...]:
    """Katas from the registry's parsed TOML (``path`` only names it in errors)."""
    katas = []
    for entry in raw.get("kata", []):
        if "followups" in entry:
            raise RegistryError(
                f"{path}: {entry.get('module', '?')}: `followups = [...]` is the old shape; write each "
                "follow-up as a [[kata.followup]] table with a question and an answer"
            )
        followups = tuple(_followup(path, entry.get("module", "?"), f) for f in entry.get("followup", ()))
        try:
            katas.append(
                Kata(
                    module=entry["module"],
                    function=entry["function"],
                    title=entry["title"],
                    difficulty=entry["difficulty"],
                    minutes=int(entry["minutes"]),
                    hints=tuple(entry["hints"]),
                    followup_answers=followups,
                    track=entry["track"],
                    next=entry.get("next"),
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
    """Every problem with the registry, as sentences (an empty list means it is sound).

    Follow-ups are checked by ``followup_problems``: an answer counts its lines as shown, its
    words re-wrapped at ANSWER_WIDTH (95) columns, and must take 3 to 8 of them."""
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
        problems += followup_problems(k)
        problems += chain_problems(k, katas)
        for what, path in (("stub", k.stub_path), ("solution", k.solution_path), ("tests", k.test_path),
                           ("self-check folder", k.checks)):
            if not (path.is_dir() if path == k.checks else path.is_file()):
                problems.append(f"{k.module}: {what} file {path.relative_to(ROOT)} is missing")
    return problems


def chain(start: Kata, katas: tuple[Kata, ...] | None = None) -> list[Kata]:
    """The stages of an interview loop from ``start``: it, its ``next``, that one's ``next``…
    (stopping before a kata seen already, or a ``next`` that names no kata)."""
    by_module = {k.module: k for k in (katas if katas is not None else KATAS)}
    stages = [start]
    while stages[-1].next in by_module and by_module[stages[-1].next] not in stages:
        stages.append(by_module[stages[-1].next])
    return stages


def chain_problems(kata: Kata, katas: tuple[Kata, ...]) -> list[str]:
    """A ``next`` that names no kata, or a chain that comes back to a kata it passed."""
    if kata.next is None:
        return []
    modules = {k.module for k in katas}
    if not isinstance(kata.next, str) or kata.next not in modules:
        return [f"{kata.module}: next = {kata.next!r} is not a kata"]
    stages = chain(kata, katas)
    last = stages[-1]
    if last.next is not None and last.next in modules:
        return [f"{kata.module}: its chain of next questions comes back to {last.next} (a loop never ends)"]
    return []


def followup_problems(kata: Kata) -> list[str]:
    """What is wrong with a kata's follow-ups: none at all, an empty question, an answer that is
    missing or, re-wrapped at ANSWER_WIDTH columns, shorter or longer than ANSWER_LINES lines,
    or a demo name that ``dojo.catalogue.demos`` does not define."""
    from dojo.catalogue.demos import DEMOS

    if not kata.followup_answers:
        return [f"{kata.module}: needs follow-up questions"]
    low, high = ANSWER_LINES
    problems = []
    for i, f in enumerate(kata.followup_answers, 1):
        where = f"{kata.module}: follow-up {i}"
        if not f.question.strip():
            problems.append(f"{where} has an empty question")
        lines = len(f.answer_lines())
        if not lines:
            problems.append(f"{where} has no answer")
        elif not low <= lines <= high:
            problems.append(f"{where}: its answer takes {lines} lines at {ANSWER_WIDTH} columns, not {low} to {high}")
        if f.demo is not None and f.demo not in DEMOS:
            problems.append(f"{where}: no demonstration called {f.demo!r} in dojo/catalogue/katas/<kata>/demos.py")
    return problems
