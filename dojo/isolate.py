"""Call a candidate's function in a child process, one bounded call at a time.

``Isolated`` forks a worker (or spawns one where fork is missing) that loads the file with
``dojo.loader.load_kata`` and then answers requests over a pipe. Every request has a deadline;
a worker that overruns it is killed, and the next request gets a fresh worker. So a file that
hangs, exits, crashes the interpreter or prints to the terminal cannot hang or break the tool.

An ``Outcome`` is what one call did: ``returned`` (with the value), ``raised`` (with the
exception's type, message and the line of the candidate's file it came from), ``timeout``,
``crashed`` or ``cannot-load``. The reference is called in-process through ``call_here``,
which produces the same ``Outcome``.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Outcome:
    status: str  # returned | raised | timeout | crashed | cannot-load | unpicklable | skipped
    value: object = None
    error_type: str = ""
    message: str = ""
    value_error: bool = False
    line: int | None = None
    mutated: list = field(default_factory=list)
    seconds: float = 0.0

    @property
    def returned(self) -> bool:
        return self.status == "returned"


def _frame_line(tb, path: Path) -> int | None:
    line = None
    for frame in traceback.extract_tb(tb):
        try:
            if Path(frame.filename).resolve() == path:
                line = frame.lineno
        except OSError:
            pass
    return line


def call_here(fn, kwargs: dict, path: Path | None = None, catch=Exception) -> Outcome:
    """Call ``fn(**kwargs)`` in this process and describe what happened.

    The worker passes ``catch=BaseException`` so that a ``SystemExit`` from the candidate's code
    is reported like any other exception."""
    import numpy as np

    before = {k: v.copy() for k, v in kwargs.items() if isinstance(v, np.ndarray)}
    start = time.perf_counter()
    try:
        with np.errstate(all="ignore"):
            value = fn(**kwargs)
    except catch as e:  # noqa: BLE001 - everything the candidate's code raises is data here
        text = str(e).strip()
        return Outcome(
            "raised", error_type=type(e).__name__, message=text.splitlines()[0] if text else "",
            value_error=isinstance(e, ValueError), line=_frame_line(e.__traceback__, path) if path else None,
            seconds=time.perf_counter() - start,
        )
    seconds = time.perf_counter() - start
    mutated = [k for k, v in before.items() if not np.array_equal(kwargs[k], v, equal_nan=True)]
    return Outcome("returned", value=value, mutated=mutated, seconds=seconds)


def measure(fn, kwargs: dict, budget: float, max_calls: int = 50, slow: float = 0.25) -> float:
    """The fastest of several calls after a warm-up call (just the warm-up when it took ``slow`` s)."""
    start = time.perf_counter()
    fn(**kwargs)
    best = time.perf_counter() - start
    if best >= slow:
        return best
    best = float("inf")
    spent = 0.0
    calls = 0
    while calls < max_calls and (calls < 2 or spent < budget):
        start = time.perf_counter()
        fn(**kwargs)
        took = time.perf_counter() - start
        best = min(best, took)
        spent += took
        calls += 1
    return best


def peak_memory(fn, kwargs: dict) -> int:
    """Peak bytes allocated (Python and NumPy, as tracemalloc sees them) during one call."""
    import tracemalloc

    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        result = fn(**kwargs)
        peak = tracemalloc.get_traced_memory()[1]
        del result
    finally:
        tracemalloc.stop()
    return max(0, peak - base)


# -- the worker (runs in the child) ---------------------------------------------------------


def _serve(conn, other_end, path: str, function: str) -> None:
    if other_end is not None:
        other_end.close()
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)  # the candidate's prints must not reach the terminal
    os.dup2(devnull, 2)
    from dojo.loader import KataProblem, KataTimeout, load_kata

    target = Path(path).resolve()
    try:
        fn = load_kata(target, function)
    except KataProblem as e:
        conn.send(("cannot-load", e.state, str(e), e.line))
        return
    except KataTimeout as e:
        conn.send(("cannot-load", "timed-out", str(e), None))
        return
    conn.send(("ready",))
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):
            return
        kind = request[0]
        try:
            if kind == "call":
                outcome = call_here(fn, request[1], target, catch=BaseException)
                try:
                    conn.send(("outcome", outcome))
                except Exception as e:  # noqa: BLE001 - a return value that cannot be pickled
                    value = outcome.value
                    conn.send(("outcome", Outcome(
                        "unpicklable", error_type=type(value).__name__,
                        message=f"{repr(value)[:120]} ({type(e).__name__}: {e})",
                        seconds=outcome.seconds,
                    )))
            elif kind == "time":
                _, kwargs, budget = request
                conn.send(("time", measure(fn, kwargs, budget)))
            elif kind == "memory":
                conn.send(("memory", peak_memory(fn, request[1])))
            elif kind == "stop":
                return
        except BaseException as e:  # noqa: BLE001 - e.g. SystemExit from the candidate's code
            conn.send(("failed", f"{type(e).__name__}: {e}"))


class Isolated:
    """The candidate's ``function`` from ``path``, behind a process boundary."""

    def __init__(self, path: Path, function: str, load_timeout: float = 11.0):
        self.path = Path(path)
        self.function = function
        self.load_timeout = load_timeout
        self.proc = None
        self.conn = None
        self.problem: Outcome | None = None  # set when the file cannot be loaded at all
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        self.ctx = multiprocessing.get_context(method)

    # -- lifecycle --------------------------------------------------------------------------
    def _start(self) -> bool:
        if self.problem is not None:
            return False
        if self.proc is not None:
            return True
        parent, child = self.ctx.Pipe()
        self.proc = self.ctx.Process(
            target=_serve, args=(child, parent, str(self.path), self.function), daemon=True
        )
        self.proc.start()
        child.close()
        self.conn = parent
        reply = self._receive(self.load_timeout)
        if reply is None:
            self.problem = Outcome("cannot-load", error_type="timed-out",
                                   message=f"importing {self.path.name} did not finish within {self.load_timeout:g} s")
            self.close()
            return False
        if reply[0] == "crashed":
            self.problem = Outcome("cannot-load", error_type="crashed",
                                   message=f"importing {self.path.name} ended the process ({reply[1]})")
            self.close()
            return False
        if reply[0] == "cannot-load":
            _, state, message, line = reply
            self.problem = Outcome("cannot-load", error_type=state, message=message, line=line)
            self.close()
            return False
        return True

    def _receive(self, timeout: float):
        """The worker's next message; ("crashed", how) if it died; None on timeout (worker killed)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                self.close()
                return None
            try:
                if self.conn.poll(min(left, 0.05)):
                    return self.conn.recv()
            except (EOFError, OSError, pickle.UnpicklingError):
                return ("crashed", self._death())
            if not self.proc.is_alive():
                try:
                    if self.conn.poll(0):
                        return self.conn.recv()
                except (EOFError, OSError):
                    pass
                return ("crashed", self._death())

    def _death(self) -> str:
        self.proc.join(1.0)
        code = self.proc.exitcode
        self.close()
        if code is None:
            return "it stopped answering"
        if code < 0:
            import signal

            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            return f"killed by {name}"
        return f"exit code {code}"

    def close(self) -> None:
        if self.proc is not None:
            if self.proc.is_alive():
                self.proc.kill()
            self.proc.join(2.0)
            self.proc = None
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- requests ---------------------------------------------------------------------------
    def load(self) -> Outcome | None:
        """Start the worker now; the problem if the file cannot be loaded."""
        self._start()
        return self.problem

    def call(self, kwargs: dict, timeout: float) -> Outcome:
        if not self._start():
            return self.problem
        start = time.monotonic()
        self.conn.send(("call", kwargs))
        reply = self._receive(timeout)
        if reply is None:
            return Outcome("timeout", seconds=timeout)
        if reply[0] == "crashed":
            return Outcome("crashed", message=reply[1], seconds=time.monotonic() - start)
        if reply[0] == "failed":
            return Outcome("crashed", message=reply[1], seconds=time.monotonic() - start)
        return reply[1]

    def ask(self, request: tuple, timeout: float):
        """A timing or memory request: its number, or an Outcome saying why there is none."""
        if not self._start():
            return self.problem
        self.conn.send(request)
        reply = self._receive(timeout)
        if reply is None:
            return Outcome("timeout", seconds=timeout)
        if reply[0] in ("crashed", "failed"):
            return Outcome("crashed", message=reply[1])
        return reply[1]

