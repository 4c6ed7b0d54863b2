"""Which language the tool speaks: English (``en``, the default) or Chinese (``zh``).

The first of these that is set wins (``choose``):

1. ``dojo --lang zh|en`` (the command line; ``pytest`` has no flag);
2. the environment variable ``DOJO_LANG``;
3. the choice saved by ``dojo lang zh|en`` (``.dojo/language``);
4. the locale: ``LC_ALL``, then ``LC_MESSAGES``, then ``LANG`` (the first one set and not empty,
   as POSIX reads them); ``zh`` or ``zh_*`` means Chinese, anything else English.

A value that is not a language the tool has (``DOJO_LANG=fr``) is a usage error on the command
line and in the environment (``LanguageError``); a saved file that cannot be read, or holds
something else, is ignored (the tool survives a corrupt state file).
"""

from __future__ import annotations

import os
from pathlib import Path

LANGUAGES = ("en", "zh")
DEFAULT = "en"
SAVED_FILE = "language"  # in the state folder (.dojo/ by default)


class LanguageError(ValueError):
    """A language the tool does not have."""


def normalise(value: str, where: str) -> str:
    """``value`` as one of LANGUAGES (``zh_CN``, ``ZH``, ``zh-Hans`` are all ``zh``)."""
    v = value.strip().lower().replace("-", "_")
    for lang in LANGUAGES:
        if v == lang or v.startswith(lang + "_"):
            return lang
    raise LanguageError(f"{where}: {value!r} is not a language dojo has; choose one of {', '.join(LANGUAGES)}")


def from_locale(environ=None) -> str | None:
    """``zh`` when the locale says Chinese, ``en`` when it says anything else, None when unset."""
    environ = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name)
        if value:
            return "zh" if value.lower().replace("-", "_").split(".")[0].split("_")[0] == "zh" else "en"
    return None


def saved(state_dir: Path | None) -> str | None:
    """The choice ``dojo lang`` saved, or None (no file, unreadable, or not a language)."""
    if state_dir is None:
        return None
    try:
        from dojo.text import safe_read  # never blocks: a FIFO or a device there is ignored

        value = (safe_read.read_text(Path(state_dir) / SAVED_FILE, limit=4096) or "").strip()
        return normalise(value, "saved")
    except (OSError, ValueError, LanguageError):
        return None


def save(state_dir: Path, language: str) -> Path:
    """Save ``language`` as the choice of ``dojo lang`` (written whole, then renamed)."""
    language = normalise(language, "dojo lang")
    path = Path(state_dir) / SAVED_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(language + "\n", encoding="utf-8")
    os.replace(tmp, path)
    return path


def choose(flag: str | None = None, environ=None, state_dir: Path | None = None) -> str:
    """The language, by the order in the module's docstring."""
    environ = os.environ if environ is None else environ
    if flag:
        return normalise(flag, "--lang")
    if environ.get("DOJO_LANG"):
        return normalise(environ["DOJO_LANG"], "DOJO_LANG")
    return saved(state_dir) or from_locale(environ) or DEFAULT


def source(flag: str | None = None, environ=None, state_dir: Path | None = None) -> str:
    """Which of the four set the language (for ``dojo lang`` without an argument)."""
    environ = os.environ if environ is None else environ
    if flag:
        return "flag"
    if environ.get("DOJO_LANG"):
        return "env"
    if saved(state_dir):
        return "saved"
    if from_locale(environ):
        return "locale"
    return "default"
