"""Writes into a call's inputs made after the call returned (a thread or a timer the candidate's
code left running): the shared inputs of the last few calls (``dojo.worker.shared_inputs``) are
read again after each later answer, in the judge's process, so such a write is the judge's own
finding. Once one is found, every later call of that worker reports it (a replay of the failing
example fails too, and says why).
"""

from __future__ import annotations

from dojo.worker import wire
from dojo.worker.shared_inputs import SharedInputs

#: How many earlier calls' inputs are read again after each answer.
LATE_CALLS = 8


class LateWrites:
    def __init__(self):
        self.earlier: list[SharedInputs] = []
        self.found: dict = {}  # name -> stand-in, kept: reported after every later call

    def check(self, kwargs: dict) -> dict:
        """After an answer: the inputs of earlier calls written since they answered, as
        stand-ins under the names this call also has (the judge shows them for its failure)."""
        kept = []
        for earlier in self.earlier:
            changed = earlier.changed()
            for name in changed:
                if name in kwargs and name not in self.found:
                    self.found[name] = wire.Foreign(
                        "written-late", "<written after your function had returned (a "
                                        "thread or a timer it left kept writing into it)>")
            if changed:
                earlier.close()
            else:
                kept.append(earlier)
        self.earlier = kept
        return {name: said for name, said in self.found.items() if name in kwargs}

    def keep(self, shared: SharedInputs) -> None:
        """Read ``shared`` again after the next few answers (it closes with the oldest), through
        a mapping: no descriptor is kept for it."""
        if not shared.keep_mapped():
            shared.close()
            return
        self.earlier.append(shared)
        if len(self.earlier) > LATE_CALLS:
            self.earlier.pop(0).close()

    def close(self) -> None:
        for earlier in self.earlier:
            earlier.close()
        self.earlier, self.found = [], {}
