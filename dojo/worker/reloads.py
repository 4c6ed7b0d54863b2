"""Imports of the kata file that the candidate's own code makes the judge repeat.

A call that ends its worker (an exit, a crash, a limit) gets a fresh worker for the next call,
and the fresh worker imports the kata file again. That costs milliseconds (NumPy is already
imported in the zygote), so a crash on every call is cheap to judge. A file that is also slow to
import (it sleeps, or computes, at import) made every call cost seconds: a fourth hostile round
(stop 51) ran plain pytest for 141 s, until the judge's own backstop blamed the judge. So the
judge counts the re-imports slower than ``SLOW`` seconds, as measured from outside (the wall
clock: a correct file is imported once per worker and never re-imported, so no correct answer is
ever counted); after ``ALLOWED`` of them it starts no more workers for the file, and every call
from then on fails at once with what happened.
"""

from __future__ import annotations

import time

from dojo.text.messages import message

#: A re-import slower than this many seconds counts: a kata file takes milliseconds, tens of
#: them on a busy machine.
SLOW = 1.0
#: Slow re-imports after which no more workers are started for the file.
ALLOWED = 4


class Reloads:
    """A worker's imports of one kata file: how many, and the slow re-imports among them."""

    def __init__(self) -> None:
        self.loads = 0
        self.slow = 0
        self.seconds = 0.0

    def loaded(self, began: float) -> None:
        """An import that began at ``began`` (``time.monotonic()``) has ended."""
        took = time.monotonic() - began
        if self.loads and took > SLOW:
            self.slow += 1
            self.seconds += took
        self.loads += 1

    def exhausted(self, file: str) -> dict | None:
        """The account of why no more workers start, once the slow re-imports are used up."""
        if self.slow < ALLOWED:
            return None
        return message("worker.slow-reimports", file=file, count=self.slow, seconds=f"{self.seconds:.0f}")
