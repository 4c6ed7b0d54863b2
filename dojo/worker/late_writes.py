"""Writes into a call's inputs made after the call returned (a thread or a timer the candidate's
code left running, or a reference kept to an earlier call's array and written at a later call):
the shared inputs of earlier calls (``dojo.worker.shared_inputs``) are read again, in the judge's
process, so such a write is the judge's own finding. Once one is found, every later call of that
worker reports it (a replay of the failing example fails too, and says why).

- The last ``LATE_CALLS`` calls are read again after every answer.
- Older calls, up to ``OLDER_CALLS`` of them and ``OLDER_BYTES`` of inputs, are read again in
  turn, ``OLDER_EACH`` after each answer: a write many calls later is found within a few dozen
  answers, for about 8 µs a call more (docs/hostile.md).
- Still unseen: a write after the worker's last call, or into a call that aged out of both.
"""

from __future__ import annotations

from collections import deque

from dojo.worker import wire
from dojo.worker.shared_inputs import SharedInputs

#: How many earlier calls' inputs are read again after each answer.
LATE_CALLS = 8
#: Older calls kept (at most this many, and this many bytes of inputs in all).
OLDER_CALLS = 1024
OLDER_BYTES = 32 << 20
#: Older calls read again after each answer, in turn.
OLDER_EACH = 8


class LateWrites:
    def __init__(self):
        self.earlier: list[SharedInputs] = []
        self.older: deque[SharedInputs] = deque()  # read OLDER_EACH at a time, the oldest first
        self.older_bytes = 0
        self.found: dict = {}  # name -> stand-in, kept: reported after every later call

    def check(self, kwargs: dict) -> dict:
        """After an answer: the inputs of earlier calls written since they answered, as
        stand-ins under the names this call also has (the judge shows them for its failure)."""
        kept = []
        for earlier in self.earlier:
            if self._written(earlier, kwargs):
                earlier.close()
            else:
                kept.append(earlier)
        self.earlier = kept
        for _ in range(min(OLDER_EACH, len(self.older))):
            older = self.older.popleft()
            if self._written(older, kwargs):
                self.older_bytes -= older.size
                older.close()
            else:
                self.older.append(older)  # to the back: read again in its turn
        return {name: said for name, said in self.found.items() if name in kwargs}

    def _written(self, earlier: SharedInputs, kwargs: dict) -> bool:
        changed = earlier.changed()
        for name in changed:
            if name in kwargs and name not in self.found:
                self.found[name] = wire.Foreign(
                    "written-late", "<written after your function had returned (a thread or a timer "
                                    "it left, or a reference it kept to an earlier call's input)>")
        return bool(changed)

    def keep(self, shared: SharedInputs) -> None:
        """Read ``shared`` again after the next few answers, then in turn with the older calls
        while they fit (the one read longest ago closes first), through a mapping: no descriptor is kept."""
        if not shared.keep_mapped():
            shared.close()
            return
        self.earlier.append(shared)
        if len(self.earlier) > LATE_CALLS:
            aged = self.earlier.pop(0)
            self.older.append(aged)
            self.older_bytes += aged.size
            while self.older and (len(self.older) > OLDER_CALLS or self.older_bytes > OLDER_BYTES):
                gone = self.older.popleft()  # the one read longest ago
                self.older_bytes -= gone.size
                gone.close()

    def close(self) -> None:
        for earlier in (*self.earlier, *self.older):
            earlier.close()
        self.earlier, self.older, self.older_bytes, self.found = [], deque(), 0, {}
