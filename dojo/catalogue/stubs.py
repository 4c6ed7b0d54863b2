"""A kata's untouched stub, derived from its reference solution.

The stub is the solution's imports, signature and docstring with a body that raises
``NotImplementedError``. Deriving it (rather than keeping a second copy) means the contract a
candidate reads can never drift from the one the model answer implements; the self-check
verifies that katas/ in the repository still holds exactly these stubs (in English).

In another language the stub is the same file with the docstring of that language
(``kata.<module>.stub`` in its catalogue): the code, the signature and the body are the
English stub's. The Chinese docstring records the sha256 of the English one it was written
from (``stub_source``), so a changed English contract fails the catalogue test until its
translation is brought up to date.
"""

from __future__ import annotations

import ast
import hashlib
from pathlib import Path

BODY = '    raise NotImplementedError("write your solution here")\n'


def _parts(solution: Path, function: str) -> tuple[list[str], list[str], ast.FunctionDef, list[str]]:
    source = solution.read_text(encoding="utf-8")
    tree = ast.parse(source)
    lines = source.splitlines()
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == function)
    imports = [
        "\n".join(lines[n.lineno - 1 : n.end_lineno])
        for n in tree.body
        if isinstance(n, (ast.Import, ast.ImportFrom))
        and all(a.name.split(".")[0] == "numpy" for a in n.names)
        or isinstance(n, ast.ImportFrom) and (n.module or "").split(".")[0] == "numpy"
    ]
    return imports, lines, fn, source.splitlines()


def english_docstring(solution: Path, function: str) -> str:
    """The contract as the solution states it (``ast.get_docstring``: indentation removed)."""
    _, _, fn, _ = _parts(solution, function)
    return ast.get_docstring(fn, clean=True) or ""


def docstring_sha(solution: Path, function: str) -> str:
    """What a translation of the stub records as its source: the sha256 of the English docstring."""
    return hashlib.sha256(english_docstring(solution, function).encode("utf-8")).hexdigest()


def stub_source(solution: Path, function: str, language: str | None = "en") -> str:
    """The untouched stub. ``language``: ``"en"`` (the default: the committed stubs), another
    language's code, or None for the language the tool speaks now (``dojo.text.locale``)."""
    imports, lines, fn, _ = _parts(solution, function)
    doc = fn.body[0]
    head = lines[fn.lineno - 1 : doc.lineno - 1]
    docstring = lines[doc.lineno - 1 : doc.end_lineno]
    translated = _translated(solution, function, language)
    if translated is not None:
        docstring = _docstring_lines(translated, doc.col_offset)
    return "\n".join(imports) + "\n\n\n" + "\n".join([*head, *docstring]) + "\n" + BODY


def _translated(solution: Path, function: str, language: str | None) -> str | None:
    from dojo.text import locale

    language = locale.LANGUAGE if language is None else language
    if language == "en":
        return None
    return locale.stub_docstring(Path(solution).stem, language)


def untouched(text: str, solution: Path, function: str) -> str | None:
    """The language of the stub ``text`` is, untouched (None: the candidate has edited it)."""
    from dojo.text.lang import LANGUAGES

    for language in LANGUAGES:
        if language != "en" and _translated(solution, function, language) is None:
            continue
        if text == stub_source(solution, function, language):
            return language
    return None


def source_in(path: Path, function: str, language: str | None = None) -> str:
    """A solution file as it is, its contract's docstring in ``language`` (None: the screen's)
    when there is a translation: ``dojo solution`` in Chinese. The code is untouched."""
    text = Path(path).read_text(encoding="utf-8")
    translated = _translated(path, function, language)
    if translated is None:
        return text
    _, lines, fn, _ = _parts(path, function)
    doc = fn.body[0]
    docstring = _docstring_lines(translated, doc.col_offset)
    return "\n".join([*lines[: doc.lineno - 1], *docstring, *lines[doc.end_lineno:]]) + "\n"


def _docstring_lines(text: str, column: int) -> list[str]:
    """A translated docstring as source lines, indented to ``column``, in triple quotes."""
    indent = " " * column
    body = [indent + ln if ln.strip() else "" for ln in text.strip("\n").split("\n")]
    return [indent + '"""' + body[0].lstrip(), *body[1:], indent + '"""']
