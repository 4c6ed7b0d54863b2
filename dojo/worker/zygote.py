"""The process that runs candidates' code: a zygote that forks sandboxed workers.

Started by ``dojo.worker.workers.Zygote`` as a fresh interpreter (never forked from the judge, so it
holds nothing of pytest, Hypothesis, torch or the oracle). It imports NumPy once, with one BLAS
thread, then waits on a Unix socket. Each ``spawn`` request forks a worker that:

1. leaves the zygote's session and dies with it (``PR_SET_PDEATHSIG``);
2. sends what it prints (file descriptors 1 and 2) into a pipe the judge reads and caps;
3. limits its address space, core dumps and file sizes;
4. where Landlock is available, may read only the Python standard library, NumPy and the kata
   file, write only its own temporary folder, and reach no other process; where seccomp is
   available, cannot create processes or run programs;
5. imports the kata file and answers calls (``serve``), values in ``dojo.worker.wire`` envelopes.

Steps 1 to 5 are the worker's own code, in ``dojo/worker/zygote_child.py``; this module is the zygote's
serve loop (``main``): preloading, then spawning, ending and reaping workers on request.

The zygote is a subreaper: a process the candidate's code leaves behind becomes its child and
is killed. When a judge's connection closes (it ended, or was killed in the middle of a call),
the workers it asked for are killed: only that judge measured their time. When the process that
started it ends (its lifeline pipe closes, even on ``kill -9``), the zygote kills every worker and
exits.

Nothing in the judge trusts a worker: it reads only envelopes from it, and measures its time
and memory from outside (``/proc``).
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import socket
import struct
import sys
import time
import traceback

from dojo.worker import zygote_child

_FORGOTTEN: set[int] = set()  #: workers ended without waiting: their status is dropped when reaped


# -- the zygote -----------------------------------------------------------------------------


def run(address: str, token: str, lifeline: int) -> None:
    """``main``, silent when the process that started it is already gone (its pipes closed):
    nothing of the zygote's may reach the user's terminal as a traceback."""
    try:
        main(address, token, lifeline)
    except (BrokenPipeError, ConnectionError, KeyboardInterrupt):
        pass


def main(address: str, token: str, lifeline: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C is the judge's to handle
    import numpy  # noqa: F401 - what every worker needs, imported once

    from dojo.worker import sandbox

    for name in ("math", "itertools", "functools", "collections", "typing", "dataclasses", "warnings",
                 "tempfile", "linecache", "importlib.util", "mmap", "ctypes", "weakref",
                 "dojo.worker.shared_inputs", "dojo.worker.wire", "dojo.worker.loader", "dojo.text.messages",
                 "dojo.worker.returned"):
        __import__(name)
    zygote_child.prepare()  # once, before any fork: what every worker may read
    from dojo.worker import shared_inputs

    shared_inputs._libc()  # the C library's mmap, found before any sandbox applies
    sandbox.become_subreaper()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind("\0" + address[1:] if address.startswith("@") else address)
    listener.listen(16)
    try:
        os.write(1, b"ready\n")
    except OSError:  # the process that started it has already gone (a command that judged nothing)
        return
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 1)
    os.close(null)
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ, "listen")
    selector.register(lifeline, selectors.EVENT_READ, "lifeline")
    workers: dict[int, object] = {}  # pid -> None while alive, then its wait status
    asked: dict[socket.socket, set[int]] = {}  # a judge's connection -> the workers it asked for
    swept = time.monotonic()
    while True:
        if time.monotonic() - swept > 2.0:  # now and then: kill what a worker left behind
            _sweep(workers)
            swept = time.monotonic()
        for key, _ in selector.select(timeout=0.5):
            if key.data == "lifeline":
                _end_all(workers)
                return
            if key.data == "listen":
                conn, _ = listener.accept()
                selector.register(conn, selectors.EVENT_READ, "client")
                continue
            conn = key.fileobj
            try:
                request, fds = _receive_request(conn)
            except (OSError, ValueError, EOFError):  # the judge closed it, or was killed
                selector.unregister(conn)
                conn.close()
                _end_orphans(workers, asked.pop(conn, set()))
                continue
            if request.get("token") != token:
                for fd in fds:
                    os.close(fd)
                selector.unregister(conn)
                conn.close()
                continue
            reply = _handle(request, fds, workers, (listener, conn, lifeline, selector))
            if request.get("op") == "spawn" and "pid" in reply:
                for pids in asked.values():  # a pid the system gave again belongs to this judge now
                    pids.discard(reply["pid"])
                asked.setdefault(conn, set()).add(reply["pid"])
            try:
                _send_reply(conn, reply)
            except OSError:
                pass
        _reap(workers)


#: A worker's exit status when its own code (not the kata's) ran out of memory: past the data
#: limit the memory bounds set (dojo/worker/memory.py), an answer may leave too little for the
#: worker to send its reply.
OUT_OF_MEMORY = 71


def _handle(request: dict, fds: list[int], workers: dict, own: tuple) -> dict:
    op = request.get("op")
    if op == "spawn" and len(fds) == 2:
        pid = os.fork()
        if pid == 0:
            code = 70
            try:
                zygote_child.become_worker(request, fds, own)
                code = 0
            except BaseException as e:  # noqa: BLE001 - the worker's own failure: its exit status says
                if isinstance(e, MemoryError):  # its own code out of memory (dojo.worker.memory)
                    code = OUT_OF_MEMORY
                try:
                    os.write(2, traceback.format_exc().encode())
                except OSError:
                    pass
            finally:
                os._exit(code)
        for fd in fds:
            os.close(fd)
        workers[pid] = None
        return {"pid": pid}
    for fd in fds:
        os.close(fd)
    if op == "end":
        pid = int(request.get("pid", 0))
        if pid not in workers:
            return {"error": "not a worker"}
        from dojo.worker import sandbox

        if workers[pid] is None and request.get("kill", True):
            sandbox.kill_tree(pid)
        if not request.get("wait", True):
            _FORGOTTEN.add(pid)
            return {"status": None}  # reaped later
        end = time.monotonic() + 5.0
        while workers[pid] is None and time.monotonic() < end:
            _reap(workers)
            if workers[pid] is None:
                time.sleep(0.001)
        status = workers.pop(pid)
        _sweep(workers)
        return {"status": status}
    return {"error": f"unknown request {op!r}"}


def _end_orphans(workers: dict, pids: set[int]) -> None:
    """End the workers a judge asked for once its connection has closed: a judge killed in the
    middle of a call (its run gone stale, Ctrl-C) can no longer stop them, and only it measured
    their time, so a hanging call would spin on until the zygote ends."""
    from dojo.worker import sandbox

    for pid in pids:
        if pid in workers and workers[pid] is None:
            sandbox.kill_tree(pid)
            _FORGOTTEN.add(pid)  # nobody will ask how it ended
    _reap(workers)


def _sweep(workers: dict) -> None:
    """Kill every descendant that is not a worker (left behind by one, reparented to us)."""
    from dojo.worker import sandbox

    for pid in sandbox.descendants(os.getpid()):
        if pid not in workers:
            sandbox.kill_tree(pid)
    _reap(workers)


def _reap(workers: dict) -> None:
    """Collect every ended child (a worker's status is kept until the judge asks for it)."""
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        if pid in workers:
            workers[pid] = _describe(status)
        for old in [p for p, v in workers.items() if v is not None and p in _FORGOTTEN]:
            workers.pop(old)
            _FORGOTTEN.discard(old)


def _describe(status: int) -> dict:
    if os.WIFSIGNALED(status):
        return {"signal": os.WTERMSIG(status)}
    return {"exit": os.WEXITSTATUS(status)}


def _end_all(workers: dict) -> None:
    from dojo.worker import sandbox

    _reap(workers)
    alive = [pid for pid, status in workers.items() if status is None]  # never a reaped pid
    for pid in dict.fromkeys(alive + sandbox.descendants(os.getpid())):
        sandbox.kill_tree(pid)
    _reap(workers)


def _receive_request(conn: socket.socket) -> tuple[dict, list[int]]:
    data, fds, _, _ = socket.recv_fds(conn, 65536, 4)
    if not data:
        raise EOFError
    (size,) = struct.unpack_from("<I", data)
    while len(data) < 4 + size:
        more = conn.recv(4 + size - len(data))
        if not more:
            raise EOFError
        data += more
    return json.loads(data[4:4 + size]), list(fds)


def _send_reply(conn: socket.socket, reply: dict) -> None:
    body = json.dumps(reply).encode()
    conn.sendall(struct.pack("<I", len(body)) + body)


if __name__ == "__main__":
    main(sys.argv[1], os.environ.pop("DOJO_ZYGOTE_TOKEN"), int(sys.argv[2]))
