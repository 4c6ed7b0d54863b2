"""The demonstrations behind the follow-ups of paged attention: the memory a contiguous
reservation wastes against pages, and the waste of several page sizes."""

from __future__ import annotations

import numpy as np

from dojo.catalogue.demos import Shown, demo
from dojo.text.messages import t


def _say(slug: str, **params) -> str:
    """One line of a demonstration, in the tool's language (``kata.paged_attention.demo.<slug>``)."""
    return t(f"kata.paged_attention.demo.{slug}", **params)


def _lengths(requests: int = 256, prompt: int = 512, max_new: int = 2048, seed: int = 0) -> np.ndarray:
    """Tokens each request ends up holding: a fixed prompt plus an output length drawn log-uniform."""
    rng = np.random.default_rng(seed)
    return prompt + np.exp(rng.uniform(np.log(16), np.log(max_new), size=requests)).astype(np.int64)


def _paged_slots(lengths: np.ndarray, page_size: int) -> int:
    """Slots allocated when each request holds whole pages of ``page_size`` tokens."""
    return int((-(-lengths // page_size) * page_size).sum())


@demo("paged_waste")
def paged_waste() -> Shown:
    requests, prompt, max_new, page_size = 256, 512, 2048, 16
    lengths = _lengths(requests, prompt, max_new)
    used = int(lengths.sum())
    reserved = requests * (prompt + max_new)  # a contiguous cache sized for the longest output
    paged = _paged_slots(lengths, page_size)
    lines = [
        _say("waste-setup", requests=requests, prompt=prompt, max_new=max_new),
        _say("waste-used", used=f"{used:,}"),
        _say("waste-contiguous", slots=f"{reserved:,}", waste=f"{100 * (reserved - used) / reserved:.0f}"),
        _say("waste-paged", page_size=page_size, slots=f"{paged:,}", waste=f"{100 * (paged - used) / paged:.1f}"),
        _say("waste-batch", factor=f"{reserved / paged:.1f}"),
    ]
    return Shown(lines, {"used": used, "reserved": reserved, "paged": paged, "page_size": page_size,
                         "requests": requests})


@demo("paged_page_size")
def paged_page_size() -> Shown:
    lengths = _lengths()
    used = int(lengths.sum())
    rows = []
    for page_size in (1, 16, 256, 2048):
        slots = _paged_slots(lengths, page_size)
        rows.append({"page_size": page_size, "waste": (slots - used) / slots, "table": int((-(-lengths // page_size)).max())})
    lines = [_say("size-setup", requests=len(lengths), used=f"{used:,}"), _say("size-header")]
    for r in rows:
        lines.append(_say("size-row", page_size=f"{r['page_size']:>9}", waste=f"{100 * r['waste']:9.1f}",
                          table=f"{r['table']:>12}"))
    return Shown(lines, {"used": used, "rows": rows})
