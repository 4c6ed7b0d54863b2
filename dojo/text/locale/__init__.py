"""The tool's words in each language: one catalogue per language, keyed by message id.

A catalogue is a folder of TOML files (``dojo/text/locale/<lang>/``), the same file names in every
language:

- ``<lang>/<domain>.toml``: general messages, flat, ``"id" = "text"`` (``messages.toml`` the
  judge's, ``cli.toml`` the commands', ``interview.toml``, ``compare.toml`` …). An id lives in
  exactly one of them.

A kata's own words live in its folder, ``dojo/catalogue/katas/<module>/<lang>/`` (``KATAS``):

- ``kata.toml``: found as ``kata.<module>.<key>`` (Chinese: its title, hints, follow-ups, the
  stub's docstring; every language: the words of its demonstrations).
- ``judge.toml``: what the kata's judge says, as ``judge.<module>.<key>``
  (``property.<test>``: a ✓/✗ line, ``because.<id>``: why an input must raise,
  ``bug.<stem>``: a known bug's description, ``case.<name>``: a compare battery case's name).
- ``battery.toml``: its compare battery's words (``dojo.catalogue.batteries``).

English texts that live with their code are not copied into the English catalogue: a kata's
title, hints and follow-ups (its ``kata.toml``), a property's title (its test's docstring),
a known bug's description (its file's docstring), the stub (derived from the solution). The
functions below take them from there and look the other languages up by id; the catalogue
test (``tests/tool/test_catalogues.py``) holds both sides to the same ids and placeholders.

Placeholders are ``{name}``; a translation has exactly the placeholders of the English.
``LANGUAGE`` is the language screens render in: ``dojo`` and ``conftest.py`` set it once, from
``dojo.text.lang.choose``.
"""

from __future__ import annotations

import functools
import json
import os
import sys
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: Every kata's folder (data only: this layer reads the files, it imports nothing above it).
KATAS = HERE.parents[1] / "catalogue" / "katas"
#: The file of each kind of a kata's words, in its folder's <lang>/.
KINDS = {"katas": "kata", "judge": "judge", "battery": "battery"}
#: The language every screen renders in (``set_language``).
LANGUAGE = "en"
#: Where the words are read: "terminal", or "notebook" (the magics, and the processes they
#: start, set ``DOJO_FRONT=notebook``). A general message ``ID@notebook`` replaces ``ID`` there:
#: a notebook says ``%kata submit`` where a terminal says "s submits".
FRONT = "notebook" if os.environ.get("DOJO_FRONT") == "notebook" else "terminal"
#: Catalogues added at run time (a test's pseudo-language): language -> {id: text}.
EXTRA: dict[str, dict] = {}


def set_language(language: str) -> None:
    global LANGUAGE
    LANGUAGE = language


def language() -> str:
    return LANGUAGE


def set_front(front: str) -> None:
    global FRONT
    FRONT = front


def command(name: str, kata: str, *rest: str) -> str:
    """A command as the front says it: ``dojo hint softmax``, or ``%kata hint softmax``."""
    head = "%kata" if FRONT == "notebook" else "dojo"
    return " ".join((head, name, kata, *rest))


def flatten(table: dict, prefix: str = "") -> dict:
    """``{"a": {"b": "x"}}`` as ``{"a.b": "x"}`` (lists and arrays of tables stay as they are)."""
    out = {}
    for key, value in table.items():
        if isinstance(value, dict):
            out.update(flatten(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def _read(path: Path) -> dict:
    """A catalogue file, flattened. Parsing TOML costs ~3 ms per 15 KB, and a Chinese screen
    reads a dozen files: the result is kept as JSON in ``__pycache__`` beside the file (as
    Python keeps its bytecode; not when bytecode is not written), keyed by the file's size and
    modification time, and read back in a tenth of the time."""
    try:
        stat = path.stat()
    except OSError:  # none in this language, or a sandboxed worker that may not read it
        return {}
    key = f"{stat.st_mtime_ns}:{stat.st_size}\n"
    cache = path.parent / "__pycache__" / f"{path.name}.json"
    try:
        with open(cache, encoding="utf-8") as f:
            if f.readline() == key:
                return json.load(f)
    except (OSError, ValueError):
        pass
    try:
        with open(path, "rb") as f:
            data = flatten(tomllib.load(f))
    except OSError:
        return {}
    except tomllib.TOMLDecodeError as e:
        raise ValueError(f"{path}: not valid TOML: {e}") from None
    if not sys.dont_write_bytecode:
        try:
            cache.parent.mkdir(exist_ok=True)
            tmp = cache.with_name(f".{cache.name}.{os.getpid()}")
            tmp.write_text(key + json.dumps(data, ensure_ascii=False), encoding="utf-8")
            os.replace(tmp, cache)
        except OSError:
            pass
    return data


@functools.cache
def general(lang: str) -> dict:
    """Every general message of ``lang``: the TOML files directly in its folder, merged."""
    out: dict = {}
    for path in sorted((HERE / lang).glob("*.toml")):
        for key, value in _read(path).items():
            if key in out:
                raise ValueError(f"{path}: message {key!r} is also in another file of {lang}")
            out[key] = value
    return out


@functools.cache
def part(lang: str, folder: str, module: str) -> dict:
    """One kata's words of one kind (``folder``: katas, judge or battery), from
    ``dojo/catalogue/katas/<module>/<lang>/<kind>.toml`` ({} when there is none)."""
    return _read(KATAS / module / lang / f"{KINDS[folder]}.toml")


def lookup(id: str, lang: str | None = None):
    """The text (or list, for a kata's hints and follow-ups) of ``id`` in ``lang``, or None."""
    lang = lang or LANGUAGE
    if lang in EXTRA:
        return EXTRA[lang].get(id)
    head, _, rest = id.partition(".")
    if head in ("kata", "judge"):
        module, _, key = rest.partition(".")
        found = part(lang, "katas" if head == "kata" else "judge", module).get(key)
        if found is not None:
            return found
    # a general message whose id starts the same way ("kata.not-started")
    messages = general(lang)
    if FRONT == "notebook" and f"{id}@notebook" in messages:
        return messages[f"{id}@notebook"]
    return messages.get(id)


def has(id: str) -> bool:
    """Whether ``id`` is an English message (a message with an unknown id is a bug where it is written)."""
    return lookup(id, "en") is not None


# -- a kata's texts: English from where they live, other languages by id ----------------------


def _localised(id: str, english, lang: str | None):
    lang = lang or LANGUAGE
    if lang == "en":
        return english
    found = lookup(id, lang)
    return english if found is None else found


def kata_title(kata, lang: str | None = None) -> str:
    return _localised(f"kata.{kata.module}.title", kata.title, lang)


def track_name(track: str, lang: str | None = None) -> str:
    """A track's name (the registry's English name is its id)."""
    lang = lang or LANGUAGE
    if lang == "en":
        return track
    return general(lang).get(f"track.{track}") or track


def kata_hints(kata, lang: str | None = None) -> tuple[str, ...]:
    found = _localised(f"kata.{kata.module}.hints", None, lang)
    return tuple(found) if found and len(found) == len(kata.hints) else kata.hints


def kata_followups(kata, lang: str | None = None) -> tuple:
    """The follow-ups with their questions and answers in ``lang`` (the demo stays)."""
    from dataclasses import replace

    found = _localised(f"kata.{kata.module}.followup", None, lang)
    if not found or len(found) != len(kata.followup_answers):
        return kata.followup_answers
    return tuple(replace(f, question=t.get("question", f.question), answer=t.get("answer", f.answer))
                 for f, t in zip(kata.followup_answers, found))


def property_title(module: str, test: str, english: str, lang: str | None = None) -> str:
    """A property's ✓/✗ line: its test's docstring in English, ``judge.<module>.property.<test>``."""
    return _localised(f"judge.{module}.property.{test}", english, lang)


def bug_description(module: str, stem: str, english: str, lang: str | None = None) -> str:
    """A known bug's description: its file's first docstring line in English."""
    return _localised(f"judge.{module}.bug.{stem}", english, lang)


def stub_docstring(module: str, lang: str | None = None) -> str | None:
    """The stub's docstring in ``lang`` (None: English, derived from the solution)."""
    lang = lang or LANGUAGE
    return None if lang == "en" else lookup(f"kata.{module}.stub", lang)


def case_name(module: str, name: str, lang: str | None = None) -> str:
    """A ``dojo compare`` battery case's name (``dojo/catalogue/katas/<module>/battery.py``; the English name is
    its id, kept in stored verdicts): ``judge.<module>.case.<English name>``."""
    return _localised(f"judge.{module}.case.{name}", name, lang)
