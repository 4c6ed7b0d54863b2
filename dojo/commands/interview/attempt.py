"""One problem being played: its kata, its attempt file, its clock, and what the interview
has seen of the file *before the deadline* (the only content that can be graded).

Attempt folders are ``<state>/attempts/<stamp>-<kata>/``: the file the candidate edits
(``<kata>.py``), ``.last-seen.py`` (the file as last seen before the deadline, kept for
--resume), ``.start.py`` when the file did not start as the bare stub (a loop stage), and
``final/<kata>.py``, the frozen copy that is graded.
"""

from __future__ import annotations

import hashlib
import time
from pathlib import Path

from dojo.catalogue import registry
from dojo.catalogue.env import Env
from dojo.commands.interview.state import Problem, inside
from dojo.state.state import CannotWrite, atomic_write_bytes
from dojo.catalogue.stubs import stub_source, untouched


def sha(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha1(data).hexdigest()


def read_bytes(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def write_bytes(path: Path, data: bytes, env: Env | None = None) -> None:
    atomic_write_bytes(path, data, env)


def soft_write(env: Env, path: Path, data: bytes) -> bool:
    """A write the interview can do without: on failure say so once and carry on."""
    try:
        atomic_write_bytes(path, data, env)
    except CannotWrite as e:
        env.warn_once(f"dojo: {e.strerror}.")
        return False
    return True


def stub(env: Env, kata: registry.Kata) -> bytes:
    """The kata's untouched stub in the tool's language (its docstring translated when the
    catalogue has it)."""
    return stub_source(env.solution_file(kata), kata.function, language=None).encode("utf-8")


def new_folder(env: Env, kata: registry.Kata) -> Path:
    """A fresh ``attempts/<stamp>-<kata>`` folder name (not created)."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(env.now()))
    folder = env.state_dir / "attempts" / f"{stamp}-{kata.module}"
    n = 1
    while folder.exists():
        folder = env.state_dir / "attempts" / f"{stamp}-{n}-{kata.module}"
        n += 1
    return folder


def create(env: Env, kata: registry.Kata, limit_s: float, start: bytes | None = None,
           clock_s: float = 0.0) -> Problem:
    """Lay out a new attempt folder (its file starts as ``start``, by default the stub) and
    return its problem, the clock standing at ``clock_s``."""
    folder = new_folder(env, kata)
    first = start if start is not None else stub(env, kata)
    write_bytes(folder / f"{kata.module}.py", first, env)
    soft_write(env, folder / ".last-seen.py", first)
    if start is not None:
        soft_write(env, folder / ".start.py", start)
    now = env.now()
    return Problem(
        id=folder.name, kata=kata.module, folder=str(folder.relative_to(env.state_dir)),
        limit_s=float(limit_s), started_at=now, elapsed_s=clock_s, tick_wall=now, stage_start_s=clock_s,
        seen=sha(first), start=sha(start) if start is not None else None,
    )


class Attempt:
    """The running problem as the live loop, the judge and the report see it."""

    def __init__(self, env: Env, problem: Problem):
        self.env = env
        self.problem = problem
        self.kata = registry.get(problem.kata)
        self.path = self.file(env, problem)
        self.folder = self.path.parent
        self.start_bytes = self._start_bytes()
        # What the interview last saw before the deadline (kept on disk for --resume).
        self.seen_bytes = read_bytes(self.folder / ".last-seen.py")
        if self.seen_bytes is None or sha(self.seen_bytes) != problem.seen:
            self.seen_bytes = read_bytes(self.path) or self.start_bytes
            problem.seen = sha(self.seen_bytes)
        self.base, self.t0 = problem.elapsed_s, env.clock()
        self.stopped_at: float | None = None  # a scripted clock stands still at its answer

    @staticmethod
    def file(env: Env, problem: Problem) -> Path:
        inside(env, problem.folder)  # never a path outside the state folder
        return env.state_dir / problem.folder / f"{problem.kata}.py"

    def _start_bytes(self) -> bytes:
        if self.problem.start is not None:
            kept = read_bytes(self.folder / ".start.py")
            if kept is not None and sha(kept) == self.problem.start:
                return kept
        return stub(self.env, self.kata)

    def elapsed(self) -> float:
        """Interview time now (monotonic since the problem was taken up)."""
        if self.stopped_at is not None:
            return self.stopped_at
        return self.base + max(0.0, self.env.clock() - self.t0)

    def untouched(self, data: bytes | None) -> bool:
        """Whether ``data`` is what the file started as: a loop stage's carried file, or the
        untouched stub in any language (the language may have changed since it was laid out)."""
        if data is None or data == self.start_bytes:
            return data is not None
        if self.problem.start is not None:
            return False
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return False
        return untouched(text, self.env.solution_file(self.kata), self.kata.function) is not None

    def observe(self) -> bool:
        """Read the attempt file; True when it holds something not seen before the deadline."""
        data = read_bytes(self.path)
        if data is None or self.elapsed() >= self.problem.limit_s:
            return False  # read at or after the deadline: it does not count
        digest = sha(data)
        if digest == self.problem.seen:
            return False
        self.seen_bytes = data
        self.problem.seen = digest
        soft_write(self.env, self.folder / ".last-seen.py", data)
        return True
