"""A child process started from the kernel: the judge, ``dojo compare``.

Started with ``subprocess`` (a fresh interpreter: fork + exec at once), never forked from the
kernel, which has threads. While it runs, ``tick`` is called a few times a second (the
progress line). Kernel → Interrupt raises KeyboardInterrupt here: the child and everything it
started (the judge's shards, the zygote and its workers) are stopped and killed as a tree
(``dojo.worker.sandbox.kill_tree``), waited for, and the interrupt goes on up to the cell.
"""

from __future__ import annotations

import contextlib
import glob
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

#: How often the progress line is refreshed while a child runs, in seconds.
TICK = 0.25


@contextlib.contextmanager
def interrupt_deferred():
    """Kernel → Interrupt held back while the block runs (say, ``subprocess.Popen``, which forks
    and then waits for the exec: a KeyboardInterrupt there loses the child's pid, and the child
    runs on unseen); yields a list that is non-empty if one came, for the caller to raise after.
    Outside the main thread (no signal handlers there) nothing is held back."""
    came: list[int] = []
    try:
        previous = signal.signal(signal.SIGINT, lambda *_: came.append(1))
    except ValueError:  # not the main thread
        yield came
        return
    try:
        yield came
    finally:
        signal.signal(signal.SIGINT, previous)


class Run:
    """One child: ``python -m <module> <args>`` in the repository, its output in a file.

    ``scratch`` is a folder of its own, its ``TMPDIR``: the judge's reports land there, so the
    progress line can count the properties judged so far (``progress``)."""

    def __init__(self, root: Path, module: str, args: list[str], language: str):
        self.root = Path(root)
        self.argv = [sys.executable, "-m", module, *args]
        self.language = language
        self._scratch = tempfile.TemporaryDirectory(prefix="dojo-nb-")
        self.scratch = Path(self._scratch.name)
        self.proc: subprocess.Popen | None = None
        self.started = 0.0

    def environ(self) -> dict:
        environ = dict(os.environ)
        environ.update({"TMPDIR": str(self.scratch), "DOJO_LANG": self.language, "NO_COLOR": "1",
                        "PYTHONUNBUFFERED": "1", "DOJO_FRONT": "notebook"})
        environ.pop("DOJO_COLUMNS", None)  # a notebook is not a terminal: the judge's fixed widths
        environ.pop("MPLBACKEND", None)  # the kernel's inline backend means nothing to a child
        return environ

    def run(self, tick: Callable[["Run"], None] | None = None) -> tuple[int, str]:
        """Run to the end: (exit code, what it printed). KeyboardInterrupt ends the whole tree
        first, then is raised again."""
        log = self.scratch / "output.txt"
        with open(log, "wb") as out:
            self.started = time.monotonic()
            with interrupt_deferred() as interrupted:  # an interrupt inside Popen would lose the child
                self.proc = subprocess.Popen(self.argv, cwd=self.root, env=self.environ(), stdin=subprocess.DEVNULL,
                                             stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
            try:
                if interrupted:
                    raise KeyboardInterrupt
                while True:
                    try:
                        code = self.proc.wait(timeout=TICK)
                        break
                    except subprocess.TimeoutExpired:
                        if tick is not None:
                            tick(self)
            finally:
                self.end()
        return code, log.read_text(encoding="utf-8", errors="replace")

    def seconds(self) -> float:
        return time.monotonic() - self.started

    def progress(self) -> tuple[int, int]:
        """(properties judged so far, properties the judge's shards said they would run), from
        the reports the judge rewrites after every property."""
        done = expected = 0
        for path in glob.glob(str(self.scratch / "dojo-*" / "verdict*.json")):
            try:
                data = json.loads(Path(path).read_text(encoding="utf-8"))
                done += len(data.get("records") or [])
                expected += sum(int(n) for n in (data.get("expected") or {}).values())
            except (OSError, ValueError, TypeError, AttributeError):
                continue
        return done, expected

    def end(self) -> None:
        """Nothing of this run left running: a child still running is stopped and killed with
        everything below it, and waited for."""
        p = self.proc
        if p is not None and p.poll() is None:
            from dojo.worker.sandbox import kill_tree

            kill_tree(p.pid)
            p.wait()

    def close(self) -> None:
        self.end()
        self._scratch.cleanup()

    def __enter__(self) -> "Run":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
