"""What a worker prints, as the judge keeps it (``dojo/worker/workers.py``): read from the
worker's output pipe, its control characters spelled out, at most ``PER_CALL`` characters a call
and ``IN_ALL`` a worker; the rest is only counted.

A read takes at most a given number of bytes, so that threads printing without end never keep
the judge away from the limits it checks between reads (stop 53's hostile round flooded the pipe
faster than the judge could spell out what it read, and the call's limits were never checked).
"""

from __future__ import annotations

import os

from dojo.worker import answers

PER_CALL = 10_000
IN_ALL = 200_000
#: Bytes read, at most, of what a worker printed before its answer.
DRAIN = 16 << 20


class Printed:
    def __init__(self):
        self.left = IN_ALL  # for this worker
        self.kept: list[str] = []  # this call's
        self.size = self.dropped = 0

    def read(self, fd: int | None, most: int = 1 << 20) -> None:
        """What is waiting on ``fd``, up to ``most`` bytes; past the room kept, only counted."""
        done = 0
        while fd is not None and done < most:
            try:
                data = os.read(fd, 65536)
            except (BlockingIOError, OSError):
                return
            if not data:
                return
            done += len(data)
            text = data.decode("utf-8", errors="replace")
            room = min(PER_CALL - self.size, self.left)
            if room > 0:
                text = answers.visible(text)
                self.kept.append(text[:room])
                self.size += min(room, len(text))
                self.left -= min(room, len(text))
            self.dropped += max(0, len(text) - max(room, 0))

    def take(self) -> str | None:
        """This call's output (with a note of what was dropped), or None; the next call starts afresh."""
        text = None
        if self.kept or self.dropped:
            note = f"\n[… {self.dropped} more characters of output dropped]\n" if self.dropped else ""
            text = "".join(self.kept) + note
        self.kept, self.size, self.dropped = [], 0, 0
        return text
