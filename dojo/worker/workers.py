"""The judge's side of the process boundary: start workers, call them, watch them from outside.

A ``Worker`` is one sandboxed process holding the candidate's module (``dojo/worker/zygote.py`` forks
it, ``dojo/worker/zygote_child.py`` runs in it; the judge's handle on the zygote is
``dojo/worker/zygote_handle.py``). A call sends the arguments as an envelope (``dojo/worker/wire.py``) and
waits, reading three things the candidate's code cannot forge because they come from the kernel
(``/proc``):

- **CPU time.** A call may use ``Limits.cpu`` seconds of CPU; past that it is stopped. A busy
  machine slows the wall clock, not this.
- **Waiting.** A call that is not runnable (sleeping, blocked, stopped) and uses next to no CPU for
  ``Limits.idle`` seconds is stopped: ``time.sleep``, a lock, a blocking read; so is one seen
  asleep for ``Limits.asleep`` seconds in all, in short naps between bursts of work (a busy
  machine keeps a process runnable, never asleep: this counts no time the machine took).
- **Wall clock**, only as a generous backstop (``Limits.wall``).

What the worker prints arrives on a pipe and is kept up to 10 000 characters a call and 200 000
a worker (``dojo/worker/printed.py``). A worker that dies (exit, signal, crash) or sends anything that
is not a well-formed envelope is described, discarded, and the next call gets a fresh one.

Where ``/proc`` is missing (macOS), CPU time cannot be read from outside: the limits then
count wall-clock time.
"""

from __future__ import annotations

import os
import random
import select
import signal
import socket
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from dojo.worker import answers, loader, printed, procfs, wire, worker_folders
from dojo.worker.late_writes import LateWrites
from dojo.worker.printed import Printed
from dojo.worker.reloads import Reloads
from dojo.worker.shared_inputs import SharedInputs
from dojo.text.messages import message
from dojo.text.messages import text as message_text
from dojo.worker.zygote_handle import Zygote

#: How often (at most) a worker's CPU time is read between quick calls, in seconds.
MARK_EVERY = 0.02
#: CPU seconds a call's limit grows by for each MiB of the answer it has begun to send: copying a
#: frame into the socket is the worker's time too (a 256 MiB frame took 0.35 s quiet, and past the
#: 2 s limit on a busy CI machine before its header could be read, stop 56). At most 8 s more.
SENDING_CPU_PER_MIB = 1 / 32
CHECK_MAPS = 0.125  #: share of calls after which the mapping of the inputs is checked (0.25 ms a look)


@dataclass
class Limits:
    cpu: float = 2.0  # CPU seconds one call may take
    idle: float = 5.0  # seconds one call may wait without computing
    asleep: float = 10.0  # seconds one call may spend asleep in all (naps between bursts)
    wall: float = 120.0  # the backstop, in wall-clock seconds
    load_cpu: float = 10.0  # importing the kata file
    memory: int = 2 * 2**30  # address space a worker may add to what NumPy already takes


@dataclass
class Reply:
    """What one request did: ``returned``, ``raised``, ``died``, ``hung`` or ``broken``."""

    status: str
    info: dict = field(default_factory=dict)
    value: object = None
    mutated: dict = field(default_factory=dict)  # argument -> its value after the call
    cpu: float = 0.0
    how: str = ""  # for died, hung and broken: what happened, in English words (``said`` rendered)
    kind: str = ""  # for hung: cpu, idle or wall
    said: dict | None = None  # for died, hung and broken: what happened, as a message (dojo.text.messages)
    asleep: float = 0.0  # seconds the worker was seen asleep during the request (``_await``)


def _reply(status: str, said: dict, **fields) -> Reply:
    """A reply that says what happened: as a message, and in English words (``how``)."""
    return Reply(status, how=message_text(said, "en"), said=said, **fields)


# -- one worker -------------------------------------------------------------------------------


class Worker:
    """The candidate's ``function`` from ``path`` in a sandboxed worker; a fresh one after any end."""

    def __init__(self, path: Path, function: str, limits: Limits | None = None,
                 zygote: Zygote | None = None, on_output=None):
        self.path, self.function = Path(path).resolve(), function
        self.limits = limits or Limits()
        self.zygote = zygote
        self.on_output = on_output or _print_through
        self.pid = None
        self.sandbox: dict = {}
        self.problem: dict | None = None  # set when the file cannot be loaded at all
        self._sock = self._out = None
        self._buffer = bytearray()
        self._cpu_mark = None
        self._cpu_mark_at = 0.0
        self._tmp = None
        self.writable = True  # whether the next worker started may write its own folder
        self._printed = Printed()
        self._maps, self._remapped = random.Random(), False  # its own: Hypothesis seeds the global one
        self._late = LateWrites()  # a write into a call's inputs after it returned still counts
        self._reloads = Reloads()  # re-imports after the file's own code ended its worker

    @property
    def folder(self) -> str | None:
        """The running worker's own temporary folder (the one place it may write)."""
        return self._tmp

    # -- lifecycle --------------------------------------------------------------------------
    def start(self) -> dict | None:
        """Start a worker now (if none runs); the load problem, if the file cannot be loaded."""
        if self.problem is not None or self.pid is not None:
            return self.problem
        if (said := self._reloads.exhausted(self.path.name)) is not None:
            self.problem = _problem("timed-out", said)
            return self.problem
        self.zygote = self.zygote or Zygote.shared()
        self._tmp = worker_folders.make()
        try:
            self.pid, self._sock, self._out = self.zygote.spawn(self.path, self.function, Path(self._tmp),
                                                                self.limits.memory, self.writable)
        except (OSError, EOFError, ValueError, RuntimeError, KeyError) as e:
            # The zygote is gone: only code that could signal it (no Landlock here) kills it.
            self.problem = _problem("cannot-import", message("kata.zygote-gone", file=self.path.name,
                                                             error=type(e).__name__))
            self.close()
            return self.problem
        importing, began = message("worker.importing", file=self.path.name), time.monotonic()
        reply = self._await(self.limits.load_cpu, what=importing)
        if reply.status == "returned" and reply.info.get("status") == "sandboxed":
            # said before any of the candidate's code ran: what the sandbox really holds
            self.sandbox = {k: v for k, v in reply.info.items() if k != "status"}
            reply = self._await(self.limits.load_cpu, what=importing)
        self._read_output()
        self._flush_output()
        self._reloads.loaded(began)
        if reply.status == "returned" and reply.info.get("status") == "ready":
            return None
        info = reply.info if reply.status == "returned" else {}
        state, said = info.get("state"), info.get("message")
        if reply.status != "returned":
            # a hang's account already names what hung ("importing x.py was still computing …")
            how = reply.said if reply.status == "hung" else \
                message("worker.import-failed", file=self.path.name, how=reply.said)
            self.problem = _problem("timed-out" if reply.status == "hung" else "cannot-import", how)
        elif info.get("status") != "cannot-load" or state not in ("cannot-import", "numpy-only") \
                or not isinstance(said, str):  # the candidate's code can forge what its process sends
            self.problem = _problem("cannot-import", message("kata.malformed-load", file=self.path.name))
        else:
            line = info.get("line")
            self.problem = {"status": "cannot-load", "state": state, "message": said[:4000],
                            "line": line if isinstance(line, int) else None}
            account = loader.load_message(info.get("said"))
            if account is not None:
                self.problem["said"] = account
        self.close()
        return self.problem

    def close(self, wait: bool = False) -> dict | None:
        """End the worker (if one runs); with ``wait``, how it ended."""
        status = None
        if self.pid is not None:
            status = self.zygote.end(self.pid, kill=True, wait=wait)
            self.pid = None
        if self._sock is not None:
            self._sock.close()
        if self._out is not None:
            os.close(self._out)
        self._sock = self._out = None
        self._buffer, self._cpu_mark, self._cpu_mark_at = bytearray(), None, 0.0
        self._late.close()
        if self._tmp is not None:
            worker_folders.remove(self._tmp)  # locked by the worker or not
            self._tmp = None
        return status

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- requests ---------------------------------------------------------------------------
    def call(self, kwargs: dict, cpu: float | None = None, fresh: bool = False) -> Reply:
        """One call; ``fresh``: the first of an example (no earlier result to check, ``returned``)."""
        return self._request({"op": "call", "fresh": fresh}, kwargs, cpu)

    def best_time(self, kwargs: dict, budget: float, cpu: float | None = None) -> Reply:
        """The worker's own timing (the fastest of several calls): only for the candidate's eyes."""
        return self._request({"op": "time", "budget": budget}, kwargs, cpu)

    def traced_memory(self, kwargs: dict, cpu: float | None = None) -> Reply:
        """tracemalloc's peak during one call, as the worker reports it (for the candidate's
        eyes only: the code could reset it)."""
        return self._request({"op": "traced"}, kwargs, cpu)

    def peak_memory(self, kwargs: dict, cpu: float | None = None) -> tuple[Reply, int | None]:
        """How much memory a call needs, read from outside in a fresh worker (``dojo.worker.memory``)."""
        from dojo.worker import memory

        return memory.peak(self, kwargs, cpu)

    def _request(self, request: dict, kwargs: dict, cpu: float | None) -> Reply:
        if self.start() is not None:
            return Reply("broken", info=self.problem, how=self.problem.get("message", ""),
                         said=self.problem.get("said") or message("text", text=self.problem.get("message", "")))
        # The arrays go in memory this process reads back after the call: whether the call
        # wrote into them is found here (dojo.worker.shared_inputs), not taken from the worker.
        shared = SharedInputs(kwargs)
        keep = False  # whether to read this call's inputs again after later answers
        try:
            try:
                self._send(wire.frame({**request, "shared": shared.layout}, args=shared.rest),
                           fd=shared.fd)
            except OSError:
                return self._died()
            reply = self._await(cpu if cpu is not None else self.limits.cpu,
                                what=message("worker.your-function", function=self.function))
            if reply.status == "returned" and request["op"] == "call":
                # the worker's word only for arguments that exist and are not shared arrays
                reply.mutated = {**{k: v for k, v in reply.mutated.items() if k in shared.rest},
                                 **shared.changed()}
                if self._remapped or self._maps.random() < CHECK_MAPS:  # after its answer: unpredictable
                    remapped = shared.remapped(self.pid, reply.info.get("shared_at"))  # mapped where it said
                    self._remapped = self._remapped or bool(remapped)  # caught once: every call now
                    reply.mutated.update(remapped)
                late = self._late.check(kwargs)
                if late and not reply.mutated:
                    reply.mutated = late
                keep = not reply.mutated  # a write found now is reported now, never again
        finally:
            if keep and shared.fd is not None and self.pid is not None:
                self._late.keep(shared)
            else:
                shared.close()
        self._flush_output()
        return reply

    def _send(self, data: bytes, fd: int | None = None) -> None:
        """All of ``data`` on the (non-blocking) socket, ``fd`` with its first bytes; a worker
        that reads nothing for ``Limits.wall`` seconds counts as gone."""
        view, deadline = memoryview(data), time.monotonic() + self.limits.wall
        while view:
            try:
                if fd is not None:
                    view = view[socket.send_fds(self._sock, [view], [fd]):]
                    fd = None
                else:
                    view = view[self._sock.send(view):]
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise TimeoutError("the worker reads nothing") from None
                select.select([], [self._sock], [], 0.05)

    # -- waiting, from outside --------------------------------------------------------------
    def _await(self, cpu_limit: float, what: dict) -> Reply:
        # CPU time is read from /proc at most every MARK_EVERY seconds: a quick call costs no
        # read, and the next read counts its time.
        if self._cpu_mark is None:
            self._cpu_mark, self._cpu_mark_at = procfs.cpu(self.pid), time.monotonic()
        start_cpu = self._cpu_mark
        started = last = time.monotonic()
        idle = asleep = 0.0
        window_start, window_cpu, window_runnable, window_samples = last, start_cpu, 0, 0
        if self._buffer:  # a frame that arrived with the previous one
            try:
                frame = wire.take(self._buffer)
            except wire.WireError as e:
                return self._broken(message("worker.not-an-answer", error=str(e)))
            if frame is not None:
                return self._reply(*frame, cpu=0.0)
        try:
            while True:
                ready, _, _ = select.select([self._sock, self._out], [], [], 0.05)
                if self._out in ready:
                    self._read_output()
                if self._sock in ready:
                    try:
                        chunk = self._sock.recv(1 << 20)
                    except BlockingIOError:
                        chunk = None
                    except OSError:
                        chunk = b""
                    if chunk == b"":
                        return self._died()
                    if chunk:
                        self._buffer += chunk
                    reading = time.process_time()  # the judge's own time reading it: the answer's doing
                    try:
                        frame = wire.take(self._buffer)
                    except wire.WireError as e:
                        return self._broken(message("worker.not-an-answer", error=str(e)))
                    if frame is not None:
                        self._read_output(printed.DRAIN)  # what it printed before it answered
                        spent = time.process_time() - reading
                        if time.monotonic() - self._cpu_mark_at > MARK_EVERY:
                            now_cpu = procfs.cpu(self.pid)
                            spent += (now_cpu or 0.0) - (self._cpu_mark or 0.0)
                            self._cpu_mark, self._cpu_mark_at = now_cpu, time.monotonic()
                        reply = self._reply(*frame, cpu=spent)
                        reply.asleep = asleep
                        return reply
                    # a frame still coming: the limits are checked all the same (a frame sent a
                    # byte at a time never arrives, and the call is not computing)
                now = time.monotonic()
                used, state = procfs.cpu_and_state(self.pid)
                if used is None:  # no /proc: wall-clock time stands in for CPU time
                    used, state = now - started + (start_cpu or 0.0), "R"
                sending = wire.announced(self._buffer) / 2**20 * SENDING_CPU_PER_MIB
                if used - (start_cpu or 0.0) > cpu_limit + sending:
                    return self._hung("cpu", used - (start_cpu or 0.0), cpu_limit, what)
                if now - started > self.limits.wall:
                    return self._hung("wall", now - started, self.limits.wall, what)
                window_samples += 1
                window_runnable += state == "R"
                if state in ("S", "D", "T", "t"):  # asleep, blocked or stopped since the last look, as far as we know
                    asleep += now - last
                    if asleep >= self.limits.asleep:
                        return self._hung("asleep", asleep, self.limits.asleep, what)
                if now - window_start >= 1.0:
                    share = (used - window_cpu) / (now - window_start)
                    waiting = share < 0.05 and window_runnable < 0.2 * window_samples
                    idle = idle + (now - window_start) if waiting else 0.0
                    window_start, window_cpu, window_runnable, window_samples = now, used, 0, 0
                    if idle >= self.limits.idle:
                        return self._hung("idle", idle, self.limits.idle, what)
                last = now
        except BaseException:
            self.close()  # interrupted (Ctrl-C, the judge's own alarm): the worker is mid-call
            raise

    def _reply(self, answer: dict, values: dict, cpu: float) -> Reply:
        wrong = answers.problem(answer, values)  # every field checked for its type before use
        if wrong is not None:
            return self._broken(message("worker.not-an-answer", error=wrong))
        answer = answers.made_visible(answer)  # no escape sequence of the candidate's reaches a screen
        if isinstance(answer.get("type"), str):  # a class's name is one line (it may hold newlines)
            answer["type"] = answers.name_visible(answer["type"])
        if answer.get("status") == "returned":
            mutated = values.get("mutated") or {}
            return Reply("returned", info=answer, value=values.get("value"),
                         mutated=mutated if isinstance(mutated, dict) else {}, cpu=cpu)
        if answer.get("status") in ("raised", "ready", "sandboxed", "cannot-load", "timed", "traced"):
            status = "raised" if answer["status"] == "raised" else "returned"
            return Reply(status, info=answer, cpu=cpu)
        return self._broken(message("worker.unknown-answer"))

    def _died(self) -> Reply:
        self._read_output()
        status = self.close(wait=True)
        return _reply("died", answers.end_message(status), info={"end": status})

    def _broken(self, said: dict) -> Reply:
        self.close()
        return _reply("broken", said)

    def _hung(self, kind: str, spent: float, limit: float, what: dict) -> Reply:
        self._read_output()
        self.close()
        said = message(f"worker.hung.{kind}", what=what, limit=f"{limit:g}", spent=f"{spent:.0f}") \
            if kind in ("idle", "asleep") else message(f"worker.hung.{kind}", what=what, limit=f"{limit:g}")
        return _reply("hung", said, kind=kind, cpu=spent if kind == "cpu" else 0.0)

    # -- output -----------------------------------------------------------------------------
    def _read_output(self, most: int = 1 << 20) -> None:
        self._printed.read(self._out, most)

    def _flush_output(self) -> None:
        # No read here: the worker writes what it prints before it replies, and _await read it
        # with the answer.
        text = self._printed.take()
        if text is not None:
            self.on_output(text)


def _problem(state: str, said: dict) -> dict:
    """A file that cannot be loaded: its state and account (``message`` in English words, ``said``
    the message)."""
    return {"status": "cannot-load", "state": state, "line": None, "message": message_text(said, "en"),
            "said": said}


def _print_through(text: str) -> None:
    sys.stdout.write(text)
