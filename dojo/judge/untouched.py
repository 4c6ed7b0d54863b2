"""A kata file that is still its untouched stub: its verdict at once, without the judge.

The stub's body raises ``NotImplementedError``, so the judge's verdict on it is known before
it runs: "not started". Running it anyway cost 1–2 s a kata (the judge starts a worker, loads
the file and calls it once), so ``dojo check`` on a fresh clone took 9 s to say "not started"
22 times, and the first ``dojo test`` of a kata took 2 s to say it once. A file is taken as the
stub only when its bytes are exactly a stub ``dojo reset`` would write, in any language
(``dojo.catalogue.stubs.untouched``): one changed byte and the judge runs as always. The record
is the one the judge's plugin writes for a stub (tests/plugin/report.py, tests/plugin/selector.py).
"""

from __future__ import annotations

from pathlib import Path

from dojo.catalogue import registry
from dojo.catalogue.env import Env
from dojo.judge.verdict import Verdict
from dojo.text import safe_read
from dojo.text.messages import message

#: A stub is a few kilobytes; a larger file is never one, and is not read here.
LARGEST_STUB = 64 * 1024


def stub_verdict(env: Env, kata: registry.Kata, impl_dir: Path) -> Verdict | None:
    """The judge's verdict on ``impl_dir/<kata>.py`` when it is the untouched stub; else None
    (the judge decides). Reads nothing that could block: a FIFO or a device is left to the judge."""
    from dojo.catalogue.stubs import BODY, untouched

    path = Path(impl_dir) / f"{kata.module}.py"
    try:
        data = safe_read.read_bytes(path, limit=LARGEST_STUB)
        if data is None or not data.endswith(BODY.encode("utf-8")):
            return None
        if untouched(data.decode("utf-8"), env.solution_file(kata), kata.function) is None:
            return None
    except (OSError, ValueError, SyntaxError, StopIteration):  # unreadable, too large, not UTF-8
        return None
    try:
        shown = str(path.resolve().relative_to(Path(env.root).resolve()))
    except ValueError:
        shown = str(path)
    name = f"{kata.module}: not-started"
    record = {"index": 0, "kata": kata.module, "property": name, "id": name, "title": "not-started",
              "state": "not-started", "status": "error",
              "message": message("kata.not-started", function=kata.function, file=shown),
              "node": f"tests/test_{kata.module}.py::{name}", "seconds": 0.0, "output": "", "file_level": True}
    return Verdict(kata.module, "not-started", records=[record])
