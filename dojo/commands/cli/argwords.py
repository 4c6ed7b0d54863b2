"""argparse's own words in the tool's language.

argparse binds ``_`` and ``ngettext`` at import (``from gettext import gettext as _, ngettext``)
and calls them with its English msgids ("usage: ", "the following arguments are required: %s").
``install`` points them, in a language other than English, at ``translate``: the msgid's id in
``dojo/text/locale/en/argparse.toml`` (whose values are argparse's msgids), then that id's text in
the language; a msgid the catalogue does not know stays as it is. In English argparse keeps
gettext's own functions.
"""

from __future__ import annotations

import argparse
import gettext

from dojo.text import locale
from dojo.text.screen import cell_len

_ORIGINAL = (gettext.gettext, gettext.ngettext)


class Cells(str):
    """A string whose ``len`` is the cells it takes: argparse indents the usage's continuation
    lines by ``len("usage: ")``, and "用法：" is 3 characters but 6 cells."""

    def __len__(self) -> int:
        return cell_len(self)


def _ids(lang: str = "en") -> dict[str, str]:
    return {text: id for id, text in locale.general(lang).items() if id.startswith("argparse.")}


def translate(msgid: str) -> str:
    id = _ids().get(msgid)
    found = locale.lookup(id) if id is not None else None
    if not isinstance(found, str):
        return msgid
    return Cells(found) if msgid == "usage: " else found


def ntranslate(singular: str, plural: str, n: int) -> str:
    return translate(singular if n == 1 else plural)


def install(language: str) -> None:
    """argparse's words in ``language`` (English: gettext's, as argparse has them)."""
    if language == "en":
        argparse._, argparse.ngettext = _ORIGINAL
    else:
        argparse._, argparse.ngettext = translate, ntranslate


def words(msgid: str) -> str:
    """One of argparse's msgids in the tool's language (for a text of argparse's we pass
    ourselves, like the --version help, or an error we print as argparse would)."""
    return argparse._(msgid)
