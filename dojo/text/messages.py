"""Every sentence the judge says, by id: a verdict stores ``{"id": ..., "params": {...}}`` and a
screen turns it into text here, in the tool's language (``dojo.text.locale``: the catalogues in
``dojo/text/locale/<lang>/``, the language chosen by ``dojo.text.lang``).

A message is data, so a stored verdict (the history, an interview record, ``dojo test --json``)
reads in whatever language renders it later. Parameters are plain JSON values, arrays (see
``array_param``), or messages themselves. A parameter named ``text`` or ending in ``_text``
holds a sentence written where it is used (a property's own reason, the candidate's exception
message, a worker's account of a death): those are shown as they are.

Placeholders are ``{name}``. A multi-line array continues under the column its placeholder
starts at, so it lines up under its label ("  got:      [[1. 2.]\n             [3. 4.]]").
"""

from __future__ import annotations

import re

from dojo.text import locale as _locale

#: The English messages (``dojo/text/locale/en/*.toml``), read once: the kata's worker renders
#: messages after its sandbox is up, when it can no longer read the catalogue files.
ENGLISH: dict[str, str] = _locale.general("en")
#: Extra catalogues a test can add (a pseudo-language): ``dojo.text.locale.EXTRA``.
CATALOGUES = _locale.EXTRA


_PLACEHOLDER = re.compile(r"\{([A-Za-z_]+)\}")


def message(id: str, **params) -> dict:
    """A message as data. Unknown ids are a bug in the judge: caught here, where it is written."""
    if id not in ENGLISH and not _locale.has(id):
        raise KeyError(f"no message {id!r} in dojo/text/locale/en/")
    return {"id": id, "params": params}


def is_message(value) -> bool:
    return isinstance(value, dict) and isinstance(value.get("id"), str) and isinstance(value.get("params", {}), dict)


def array_param(a, indent: int = 0, precision: int = 6) -> dict:
    """An array as message data: its shape, dtype, a compact printout (NumPy's, at most 60
    entries, ``precision`` digits) and, when small, its values (non-finite ones as "nan",
    "inf", "-inf")."""
    import numpy as np

    from dojo.text.screen import array_width

    a = np.asarray(a)
    # its rows start about 14 cells in: "  " + "  expected: " (a verdict's failure)
    text = np.array2string(a, precision=precision, threshold=60, edgeitems=3, max_line_width=array_width(90, 14))
    data = {"array": text, "shape": list(a.shape), "dtype": str(a.dtype)}
    if a.size <= 256 and a.dtype.kind in "biuf":
        data["values"] = _json_values(a.tolist())
    return data


def _json_values(v):
    if isinstance(v, list):
        return [_json_values(x) for x in v]
    if isinstance(v, float) and v != v:
        return "nan"
    if isinstance(v, float) and v in (float("inf"), float("-inf")):
        return "inf" if v > 0 else "-inf"
    return v


def text(msg, language: str | None = None, glue: bool = False) -> str:
    """A message (or a stored plain string, from before messages had ids) as text. ``glue``:
    an array's "(shape …, dtype)" is joined by no-break spaces, so a terminal moves it to the
    next line whole (``dojo.text.screen.NBSP``; printed as plain spaces)."""
    language = language or _locale.LANGUAGE
    if msg is None:
        return ""
    if isinstance(msg, str):
        return msg
    if not is_message(msg):
        return str(msg)
    template = _locale.lookup(msg["id"], language) or ENGLISH.get(msg["id"]) or _locale.lookup(msg["id"], "en")
    params = msg.get("params") or {}
    if template is None:  # an id from a newer tool: say what can be said
        return " ".join(_value(v, language, glue) for v in params.values()) or msg["id"]
    out = []
    for line in template.split("\n"):
        out.append(_fill(line, params, language, glue))
    return "\n".join(out)


def _fill(line: str, params: dict, language: str, glue: bool = False) -> str:
    pieces, at = [], 0
    column = 0
    # In Chinese no space separates two Chinese words: a template's space beside a value (there
    # for an identifier, "{what} 不对") goes when the value itself is Chinese ("沿 axis 0 每个切片的和").
    zh = language == "zh"
    for m in _PLACEHOLDER.finditer(line):
        literal = line[at:m.start()]
        if zh and pieces and literal.startswith(" ") and _wide(pieces[-1][-1:]) and _wide(literal[1:2]):
            literal = literal[1:]
        pieces.append(literal)
        column = _column_after(pieces)
        raw = params.get(m.group(1), "")
        value = _value(raw, language, glue)
        if "\n" in value and _is_array(raw):  # an array lines up under its first row
            first, *rest = value.split("\n")  # a blank line between blocks stays empty
            value = "\n".join([first, *(" " * column + ln if ln.strip() else "" for ln in rest)])
        if zh and pieces[-1].endswith(" ") and _wide(pieces[-1][-2:-1]) and _wide(value[:1]):
            pieces[-1] = pieces[-1][:-1]
        pieces.append(value)
        at = m.end()
    literal = line[at:]
    if zh and pieces and literal.startswith(" ") and _wide(pieces[-1][-1:]) and _wide(literal[1:2]):
        literal = literal[1:]
    pieces.append(literal)
    return "".join(pieces)


def _wide(ch: str) -> bool:
    """A Chinese character or full-width punctuation (two cells on a terminal)."""
    import unicodedata

    return bool(ch) and unicodedata.east_asian_width(ch) in "WF"


def _column_after(pieces: list[str]) -> int:
    """The terminal column after ``pieces``: cells, not characters (a Chinese label is wide).
    Counted with the standard library: this runs in the kata's worker too, whose sandbox cannot
    read rich (and loading rich costs ~80 ms)."""
    import unicodedata

    joined = "".join(pieces)
    tail = joined[joined.rfind("\n") + 1:]
    if tail.isascii():
        return len(tail)
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
               for c in tail)


def _is_array(value) -> bool:
    return isinstance(value, dict) and "array" in value and "shape" in value


def _value(value, language: str | None = None, glue: bool = False) -> str:
    if is_message(value):
        return text(value, language, glue)
    if isinstance(value, dict) and "array" in value and "shape" in value:
        shape = text({"id": "array.shape", "params": {"shape": str(tuple(value["shape"])), "dtype": value["dtype"]}},
                     language)
        return f"{value['array']}   " + (shape.replace(" ", "\u00a0") if glue else shape)
    if isinstance(value, list) and all(isinstance(v, int) for v in value):
        return str(value)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):  # names: "torch, jax" / "torch、jax"
        return text({"id": "list.separator", "params": {}}, language).join(value)
    if isinstance(value, float):
        return repr(value)
    return "" if value is None else str(value)


def listed(items) -> str:
    """Names in a row, in the language's way: "softmax, rope" / "softmax、rope"."""
    return t("list.separator").join(str(i) for i in items)


def t(id: str, **params) -> str:
    """The text of message ``id`` in the current language: ``text(message(id, **params))``."""
    return text(message(id, **params))
