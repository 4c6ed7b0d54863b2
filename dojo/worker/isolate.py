"""Call a candidate's function in a worker process, one bounded call at a time (``dojo compare``).

``Isolated`` holds a sandboxed worker (``dojo.worker.workers``) that imports the file and answers
requests as envelopes (``dojo.worker.wire``: never a pickle). Every request has a limit on the worker's
CPU time; a worker that overruns it is killed, and the next request gets a fresh worker. So a
file that hangs, exits, crashes the interpreter or prints cannot hang, break or reach the tool.

An ``Outcome`` is what one call did: ``returned`` (with the value), ``raised`` (with the
exception's type, message and the line of the candidate's file it came from), ``timeout``,
``crashed`` or ``cannot-load``. The reference is called in-process through ``call_here``,
which produces the same ``Outcome``.
"""

from __future__ import annotations

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
    #: ``message`` as message data (``dojo.text.messages``), where the tool wrote it: a hang's or a
    #: crash's account, a file that cannot be loaded. ``message`` stays its English words.
    said: dict | None = None

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

    from dojo.worker.remote import InputModified

    before = {k: v.copy() for k, v in kwargs.items() if isinstance(v, np.ndarray)}
    start = time.perf_counter()
    try:
        with np.errstate(all="ignore"):
            value = fn(**kwargs)
    except InputModified as e:  # a worker's report: what it returned, and the inputs it wrote into
        return Outcome("returned", value=e.value, mutated=list(e.after), seconds=time.perf_counter() - start)
    except catch as e:  # noqa: BLE001 - everything the candidate's code raises is data here
        text = str(e).strip()
        line = getattr(e, "line", None) if hasattr(e, "type_name") else None
        return Outcome(
            "raised", error_type=getattr(e, "type_name", type(e).__name__), message=text.splitlines()[0] if text else "",
            value_error=isinstance(e, ValueError),
            line=line if line is not None or not path else _frame_line(e.__traceback__, path),
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
    """How much memory one call of ``fn`` needs, measured by the kernel in a fresh worker process
    (``dojo.worker.memory``): the measure the judge applies to a candidate's code.
    ``fn`` must be a function defined in a file."""
    import inspect

    with Isolated(Path(inspect.getsourcefile(fn)), fn.__name__) as worker:
        got = worker.ask(("memory", kwargs), 30.0)
    if isinstance(got, Outcome):
        raise RuntimeError(f"{fn.__name__}() could not be measured: {got.status} {got.message}")
    return got


class Isolated:
    """The candidate's ``function`` from ``path``, in a sandboxed worker (``dojo.worker.workers``).

    Every request has a limit on the worker's CPU time; a worker that overruns it, dies or sends
    anything but an envelope is ended, and the next request gets a fresh worker. Nothing the
    worker sends is unpickled: values arrive as ``dojo.worker.wire`` envelopes."""

    def __init__(self, path: Path, function: str, load_timeout: float = 11.0):
        from dojo.worker.workers import Limits, Worker

        self.path = Path(path)
        self.function = function
        self.worker = Worker(self.path, function, Limits(load_cpu=load_timeout), on_output=lambda text: None)
        self.problem: Outcome | None = None  # set when the file cannot be loaded at all

    def close(self) -> None:
        self.worker.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def load(self) -> Outcome | None:
        """Start the worker now; the problem if the file cannot be loaded."""
        if self.problem is None:
            from dojo.worker.loader import KataProblem, check_source

            try:
                check_source(self.path)  # a syntax error or a forbidden import, found without running it
            except KataProblem as e:
                self.problem = Outcome("cannot-load", error_type=e.state, message=str(e), line=e.line, said=e.said)
                return self.problem
            problem = self.worker.start()
            if problem is not None:
                self.problem = Outcome("cannot-load", error_type=problem.get("state", "cannot-import"),
                                       message=problem.get("message", ""), line=problem.get("line"),
                                       said=problem.get("said"))
        return self.problem

    def call(self, kwargs: dict, timeout: float) -> Outcome:
        if self.load() is not None:
            return self.problem
        return _outcome(self.worker.call(kwargs, cpu=timeout), timeout)

    def ask(self, request: tuple, timeout: float):
        """A timing or memory request: its number, or an Outcome saying why there is none.
        ("time", kwargs, budget): the fastest call's wall and CPU time; ("memory", kwargs):
        resident memory growth during a call, read from outside; ("traced", kwargs):
        tracemalloc's peak, in the worker."""
        if self.load() is not None:
            return self.problem
        if request[0] == "time":  # {"wall": seconds, "cpu": seconds}: the least of each over the calls
            reply = self.worker.best_time(request[1], request[2], cpu=timeout)
            if reply.status == "returned" and "best_cpu" in reply.info:
                return {"wall": reply.info["best"], "cpu": reply.info["best_cpu"]}
            return _outcome(reply, timeout)
        if request[0] == "traced":
            reply = self.worker.traced_memory(request[1], cpu=timeout)
            return reply.info["peak"] if reply.status == "returned" and "peak" in reply.info else _outcome(reply, timeout)
        reply, peak = self.worker.peak_memory(request[1], cpu=timeout)
        return peak if reply.status == "returned" and peak is not None else _outcome(reply, timeout)


def _outcome(reply, timeout: float) -> Outcome:
    info = reply.info
    if reply.status == "returned" and info.get("status") == "returned":
        return Outcome("returned", value=reply.value, mutated=list(reply.mutated), seconds=info.get("seconds", 0.0))
    if reply.status == "raised" or info.get("status") == "raised":
        text = str(info.get("message", "")).strip()
        return Outcome("raised", error_type=info.get("type", "Exception"), message=text.splitlines()[0] if text else "",
                       value_error=bool(info.get("value_error")), line=info.get("line"),
                       seconds=info.get("seconds", 0.0))
    if reply.status == "hung":
        return Outcome("timeout", message=reply.how, seconds=timeout, said=reply.said)
    if not reply.how:
        from dojo.text.messages import message, text

        said = message("worker.end.silent")
        return Outcome("crashed", message=text(said, "en"), said=said)
    return Outcome("crashed", message=reply.how, said=reply.said)
