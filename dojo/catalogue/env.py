"""Everything the tool touches in the outside world, in one replaceable object.

Tests drive the real entry point as a subprocess and inject through environment variables:
``DOJO_ROOT`` (the repository whose katas/ are judged; without it, the clone the current folder
is in, else the one this package was installed from), ``DOJO_STATE_DIR`` (where state is
kept), ``DOJO_FAKE_CLOCK`` (a file holding the current time in seconds; read on every tick, so a
test moves time by rewriting it) and ``NO_COLOR``.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, TextIO

from dojo.catalogue import registry
from dojo.text import screen


class FileClock:
    """A clock whose time is whatever number the file holds (for tests)."""

    def __init__(self, path: Path):
        self.path = Path(path)

    def __call__(self) -> float:
        try:
            return float(self.path.read_text().strip() or 0)
        except (OSError, ValueError):
            return 0.0


def is_repo(folder: Path) -> bool:
    return (folder / "katas").is_dir() and (folder / "solutions").is_dir() and (folder / "conftest.py").is_file()


def repo_around_cwd() -> Path | None:
    """The nearest folder at or above the current one that holds katas/, solutions/ and
    conftest.py (a clone of this repository), or None."""
    try:
        here = Path.cwd().resolve()
    except OSError:  # the current folder was removed
        return None
    for folder in (here, *here.parents):
        if is_repo(folder):
            return folder
    return None


def find_root() -> Path:
    """The repository whose katas/ are practised: $DOJO_ROOT, else the clone the current folder
    is in, else the checkout this package was installed from (pip install -e)."""
    if os.environ.get("DOJO_ROOT"):
        return Path(os.environ["DOJO_ROOT"]).resolve()
    return repo_around_cwd() or registry.ROOT  # commands that need the files say they are missing


def other_clone() -> Path | None:
    """The clone the current folder is in, when it is not the one this package was installed
    from and it has a ``dojo`` package of its own: ``dojo`` there runs that clone's tool on that
    clone's files (``run_in``), so the registry, the judge and the files always agree. None when
    $DOJO_ROOT says which repository to use, or there is no other clone here."""
    if os.environ.get("DOJO_ROOT"):
        return None
    near = repo_around_cwd()
    if near is None or near == registry.ROOT or not (near / "dojo" / "__init__.py").is_file():
        return None
    return near


def run_in(clone: Path, argv: list[str]) -> None:
    """Replace this process with ``python -m dojo ARGV`` from ``clone``'s own package, on
    ``clone``'s files ($DOJO_ROOT). Returns only if that cannot be started; then this package
    carries on, on the same files (``find_root``)."""
    environ = dict(os.environ, DOJO_ROOT=str(clone))
    environ["PYTHONPATH"] = os.pathsep.join([str(clone)] + [p for p in [environ.get("PYTHONPATH")] if p])
    try:
        os.execve(sys.executable, [sys.executable, "-m", "dojo", *argv], environ)
    except OSError:
        return


@dataclass
class Env:
    root: Path = registry.ROOT
    state_dir: Path = registry.ROOT / ".dojo"
    stdout: TextIO = field(default_factory=lambda: sys.stdout)
    stderr: TextIO = field(default_factory=lambda: sys.stderr)
    stdin: TextIO = field(default_factory=lambda: sys.stdin)
    #: monotonic seconds: timing that a sleep or a clock change cannot bend
    clock: Callable[[], float] = time.monotonic
    #: wall-clock seconds since the epoch: only for timestamps shown to people
    now: Callable[[], float] = time.time
    color: bool = False
    fake_clock: bool = False
    #: warnings already given (``warn_once``): a full disk is said once, not on every tick
    warned: set = field(default_factory=set)

    @classmethod
    def from_os(cls) -> "Env":
        root = find_root()
        state = Path(os.environ.get("DOJO_STATE_DIR") or root / ".dojo")
        env = cls(root=root, state_dir=state)
        fake = os.environ.get("DOJO_FAKE_CLOCK")
        if fake:
            clock = FileClock(Path(fake))
            env.clock = clock
            env.now = lambda: 1_800_000_000.0 + clock()
            env.fake_clock = True
        env.color = (
            not os.environ.get("NO_COLOR")
            and os.environ.get("TERM") != "dumb"
            and hasattr(sys.stdout, "isatty")
            and sys.stdout.isatty()
        )
        return env

    def kata_file(self, kata: registry.Kata) -> Path:
        return self.root / "katas" / f"{kata.module}.py"

    def solution_file(self, kata: registry.Kata) -> Path:
        return self.root / "solutions" / f"{kata.module}.py"

    def test_file(self, kata: registry.Kata) -> Path:
        return self.root / "tests" / f"test_{kata.module}.py"

    def say(self, text: str = "") -> None:
        """Print a line (or lines), fitted to the terminal's width (dojo/text/screen.py)."""
        screen.say(self, text)

    def warn(self, text: str) -> None:
        screen.say(self, text, stream=self.stderr)

    def warn_once(self, text: str) -> None:
        if text not in self.warned:
            self.warned.add(text)
            self.warn(text)
