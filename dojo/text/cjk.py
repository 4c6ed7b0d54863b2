"""Line breaking for text that mixes Chinese and Latin, measured in terminal cells (standard
library only: the registry and the kata's worker use it, and neither loads rich).

Chinese does not separate words by spaces: a line may break between any two wide characters,
except before closing punctuation (，。：） …) or after opening punctuation (（「 …). Latin words,
code and numbers are never broken; a space is a break too. ``cells`` counts a wide character
as 2, as a terminal shows it.
"""

from __future__ import annotations

import unicodedata

#: May not start a line (they close what is before them).
NO_START = frozenset("，。、：；！？）」』》】〕…,.;:!?)]}%·")
#: May not end a line (they open what follows). An ASCII bracket is part of its word already:
#: ``exp(-inf)`` never breaks.
NO_END = frozenset("（「『《【〔")


def wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in "WF"


def cells(text: str) -> int:
    """Terminal cells of ``text`` (no colour codes)."""
    if text.isascii():
        return len(text)
    return sum(0 if unicodedata.combining(c) else 2 if wide(c) else 1 for c in text)


def has_wide(text: str) -> bool:
    return not text.isascii() and any(wide(c) for c in text)


def _a_path(plain: str, at: int) -> bool:
    """A "." at ``at`` that starts a word (".dojo/…" after a space or after "："), not one that ends
    the word before it ("softmax.")."""
    return (plain[at] == "." and at + 1 < len(plain) and plain[at + 1] not in " ."
            and (plain[at - 1] == " " or wide(plain[at - 1])))


def units(plain: str) -> list[int]:
    """Where an unbreakable piece of ``plain`` starts: a word (with the spaces after it), or one
    wide character; closing punctuation joins the piece before it, opening the piece after."""
    starts = []
    i, n = 0, len(plain)
    while i < n:
        ch = plain[i]
        start = i
        if ch == " ":
            while i < n and plain[i] == " ":
                i += 1
            if not starts:
                starts.append(start)
            continue
        if wide(ch) or ch in NO_END:
            i += 1
        else:
            while i < n and plain[i] != " " and not wide(plain[i]) and plain[i] not in NO_END:
                i += 1
        if start > 0 and (plain[start] in NO_START or plain[start - 1] in NO_END) and not _a_path(plain, start):
            continue  # glued to the piece before it
        starts.append(start)
    return starts or [0]


def offsets(plain: str, width: int) -> list[int]:
    """The indices where lines after the first start, to fit ``plain`` in ``width`` cells (a
    word wider than that takes a line of its own and runs on)."""
    starts = units(plain) + [len(plain)]
    breaks, used = [], 0
    for a, b in zip(starts, starts[1:]):
        piece = plain[a:b]
        need = cells(piece.rstrip(" "))
        if used and used + need > width:
            breaks.append(a)
            used = 0
        used += cells(piece)
    return breaks


def wrap(text: str, width: int) -> list[str]:
    """``text`` (one paragraph) as lines of at most ``width`` cells, trailing spaces removed."""
    cuts = [0, *offsets(text, max(1, width)), len(text)]
    return [text[a:b].rstrip(" ") for a, b in zip(cuts, cuts[1:]) if text[a:b].strip()]


def join_lines(text: str) -> str:
    """The lines of a paragraph as one: a line break between two wide characters is dropped (a
    space there would show in Chinese), any other becomes one space."""
    out = ""
    for ln in (ln.strip() for ln in text.split("\n")):
        if not ln:
            continue
        if out and not (wide(out[-1]) and wide(ln[0])):
            out += " "
        out += ln
    return out


def longest(text: str) -> int:
    """The cells of the widest piece of ``text`` that a line cannot break (``units``): the
    narrowest a column holding it can be."""
    if text.isascii():
        return max((len(w) for w in text.split()), default=0)
    starts = units(text) + [len(text)]
    return max((cells(text[a:b].strip(" ")) for a, b in zip(starts, starts[1:])), default=0)
