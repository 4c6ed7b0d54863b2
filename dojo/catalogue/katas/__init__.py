"""Every kata's own folder of what the tool teaches with: ``dojo/catalogue/katas/<module>/``.

A kata lives in four places: its stub ``katas/<module>.py``, its model answer
``solutions/<module>.py``, its judge ``tests/test_<module>.py`` with its self-check folder
``tests/katas/<module>/`` (``wrong/``, ``right/``, a tool test), and this folder:

- ``kata.toml``: its catalogue entry (number, title, track, hints, follow-ups; README.md here);
- ``battery.py``: its ``dojo compare`` battery (``BATTERY``, ``dojo.catalogue.batteries``);
- ``demos.py``: the live demonstrations behind its follow-ups (``dojo.catalogue.demos``);
- ``<lang>/judge.toml``, ``<lang>/kata.toml``, ``<lang>/battery.toml``: its words in each
  language (what its judge says; its demonstrations' words, and in other languages its title,
  hints and follow-ups; its battery's words), read by ``dojo.text.locale``.

Nothing else names a kata: every list of katas is read from these folders.
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent


def home(module: str) -> Path:
    """The folder of one kata (whether or not it exists)."""
    return HERE / module


def modules() -> list[str]:
    """The module names of every kata folder that holds a ``kata.toml`` (in name order)."""
    return sorted(p.parent.name for p in HERE.glob("*/kata.toml"))
