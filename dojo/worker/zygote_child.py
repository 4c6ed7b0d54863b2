"""A worker: the code that runs in a child the zygote forks (``dojo/worker/zygote.py``).

``become_worker`` leaves the zygote's session (dying with it), sends what it prints into the
judge's pipe, limits its resources and applies the sandbox (``dojo.worker.sandbox``: Landlock, seccomp),
then ``serve`` imports the kata file and answers calls in ``dojo.worker.wire`` envelopes until the judge
hangs up. Once the sandbox applies, a worker may read only the standard library, NumPy and its
kata file: every module it uses after that (``dojo.worker.wire``, ``dojo.worker.loader``, ``dojo.text.messages`` and this one) is
imported by the zygote before it forks (``zygote.main``), and ``prepare`` works out, once in the
zygote, what a worker may read.
"""

from __future__ import annotations

import copy
import os
import signal
import socket
import sys
import time
from pathlib import Path


#: The standard library's deepcopy as it was before any kata file ran (one that replaces
#: ``copy.deepcopy`` would make the "before" copy of a list argument the list itself).
_deepcopy = copy.deepcopy

#: Modules a kata may not import besides the libraries that would do the kata (loader.FORBIDDEN):
#: the judge's own, and the libraries it runs on.
JUDGE_MODULES = ("tests", "conftest", "dojo", "solutions", "pytest", "_pytest", "hypothesis", "pluggy")


def become_worker(request: dict, fds: list[int], own: tuple) -> None:
    from dojo.worker import sandbox, seccomp

    listener, conn, lifeline, selector = own
    zygote = os.getppid()
    os.setsid()
    sandbox.die_with_parent(parent=zygote)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    selector.close()
    for closing in (listener, conn):
        closing.close()
    os.close(lifeline)
    channel_fd, output_fd = fds
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(output_fd, 1)
    os.dup2(output_fd, 2)
    os.close(devnull)
    os.close(output_fd)
    # Nothing else stays open: not the zygote's listening socket, nor another judge's connection
    # to it (whose requests, with their token, a worker could read and answer).
    os.closerange(3, channel_fd)
    os.closerange(channel_fd + 1, max(channel_fd + 2, os.sysconf("SC_OPEN_MAX")))
    sys.stdout = open(1, "w", encoding="utf-8", errors="replace", closefd=False, buffering=1)
    sys.stderr = open(2, "w", encoding="utf-8", errors="replace", closefd=False, buffering=1)
    channel = socket.socket(fileno=channel_fd)
    tmp = Path(request["tmp"])
    os.environ.clear()
    os.environ.update({"HOME": str(tmp), "TMPDIR": str(tmp), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"})
    import tempfile

    tempfile.tempdir = str(tmp)
    os.chdir(tmp)
    sys.dont_write_bytecode = True
    path = Path(request["path"])
    memory = request.get("memory")
    sandbox.limit_resources(address_space=(_address_space() + int(memory)) if memory else None)
    status = {"landlock": 0, "processes": False}
    if request.get("landlock", True):
        try:
            # a worker whose memory is measured writes nowhere: no file can hold what it computes
            writable = [tmp] if request.get("writable", True) else []
            status["landlock"] = sandbox.restrict_files(read=[*_READABLE, str(path)], write=writable)
        except sandbox.SandboxUnavailable as e:
            status["landlock_error"] = str(e)
    if request.get("seccomp", True):
        try:
            status["processes"] = seccomp.forbid_processes()
        except sandbox.SandboxUnavailable as e:  # a kernel that refuses the filter: say so, go on
            status["seccomp_error"] = str(e)
    sandbox.drop_capabilities()  # a root judge's worker is root without root's powers
    root = str(Path(__file__).resolve().parents[2])
    sys.path[:] = [p for p in sys.path if p and not p.startswith(root)]
    serve(channel, path, request["function"], status)


def _address_space() -> int:
    """The address space this process takes now (NumPy and its libraries loaded)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return 1 << 30


_READABLE: list[str] = []  #: what every worker may read besides its kata file (``prepare``)


def prepare() -> None:
    """In the zygote, once, before any fork: what a worker may read (the same for every worker)."""
    global _READABLE
    _READABLE = _readable_base()


def _holds_packages(folder: Path) -> bool:
    """Whether ``folder`` holds an interpreter's packages below it (pyenv's and conda's lib/
    holds python3.X/site-packages next to libpython): then only the library files themselves
    may be read, never the folder."""
    try:
        return any(child.name.startswith("python") or child.name.endswith("-packages")
                   for child in folder.iterdir())
    except OSError:
        return True


def _readable_base() -> list[str]:
    """What a worker may read besides its kata file: the standard library (not its
    site-packages), NumPy, and the shared libraries already loaded from outside any
    site-packages."""
    import sysconfig

    import numpy

    paths = set()
    for key in ("stdlib", "platstdlib"):
        folder = Path(sysconfig.get_paths()[key])
        if folder.is_dir():
            paths.update(str(p) for p in folder.iterdir() if p.name not in ("site-packages", "dist-packages"))
    numpy_dir = Path(numpy.__file__).resolve().parent
    paths.add(str(numpy_dir))
    libs = numpy_dir.parent / "numpy.libs"
    if libs.is_dir():
        paths.add(str(libs))
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as f:
            for line in f:
                name = line.split(None, 5)[-1].strip()
                if name.startswith("/") and "-packages" not in name and os.path.isfile(name):
                    paths.add(name if _holds_packages(Path(name).parent) else str(Path(name).parent))
    except OSError:
        pass
    return sorted(paths)


class RefusedImport(ImportError):
    """An import the NumPy-only rule refuses. Its text is English (the worker renders nothing in
    another language: its sandbox cannot read those catalogues); ``said`` is the same as a
    message, which the judge renders in the screen's language (``dojo.worker.remote.refusal``)."""

    def __init__(self, said: dict):
        from dojo.text.messages import text

        super().__init__(text(said, "en"))
        self.said = said


class _Refuse:
    """An import hook: the NumPy-only rule, with the message a candidate understands."""

    #: the first forbidden module refused, for the account of a file that cannot be loaded
    refused: str | None = None

    @staticmethod
    def find_spec(name, path=None, target=None):
        from dojo.worker.loader import FORBIDDEN
        from dojo.text.messages import message

        top = name.split(".")[0]
        if top in FORBIDDEN:
            _Refuse.refused = _Refuse.refused or name
            raise RefusedImport(message("kata.refused-import", module=name, forbidden=list(FORBIDDEN[:5])))
        if top in JUDGE_MODULES:
            raise RefusedImport(message("kata.judge-import", module=name))
        return None


def _raised(e: BaseException, path: Path) -> dict:
    import linecache

    line = source = None
    tb = e.__traceback__
    while tb is not None:  # the deepest frame in the kata file (without reading any other source)
        if tb.tb_frame.f_code.co_filename == str(path):
            line = tb.tb_lineno
        tb = tb.tb_next
    if line is not None:
        source = linecache.getline(str(path), line).strip()
    try:  # a plain str, whatever str() returned (a subclass can make slicing it raise)
        text = str.__str__(str(e))[:2000]
    except BaseException:  # noqa: BLE001
        text = "<its message could not be made>"
    module, said = type(e).__module__ if type(type(e).__module__) is str else "", e.said if type(e) is RefusedImport else None
    return {  # its class, not what it says of itself (``__class__`` can claim to be ValueError)
        "status": "raised", "type": type(e).__name__, "module": module, "said": said, "message": text,
        "value_error": issubclass(type(e), ValueError),
        "exception": issubclass(type(e), Exception), "line": line, "source": source,
        "code": getattr(e, "code", None) if isinstance(e, SystemExit) and isinstance(getattr(e, "code", None), (int, str, type(None))) else None,
    }


def serve(channel: socket.socket, path: Path, function: str, status: dict) -> None:
    """Import the kata, say whether it loaded, then answer calls until the judge hangs up."""
    import importlib.util

    from dojo.worker import wire
    from dojo.worker.loader import module_name_for, numpy_only_message
    from dojo.worker.returned import Returned
    from dojo.worker.shared_inputs import attach, mapped_at
    from dojo.text.messages import message as said
    from dojo.text.messages import text as said_text

    # Bound here, before the kata's code runs: replacing the module's functions changes nothing.
    call, next_frame, returned = _call, _next_frame, Returned()
    # What the sandbox holds is said before any of the candidate's code runs, so it cannot be
    # forged by that code.
    wire.send(channel, {"status": "sandboxed", **status})
    sys.meta_path.insert(0, _Refuse())
    try:
        spec = importlib.util.spec_from_file_location(module_name_for(path), path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        fn = getattr(module, function, None)
        if not callable(fn):
            account = said("kata.no-function", file=path.name, function=function)
            wire.send(channel, {"status": "cannot-load", "state": "cannot-import", "line": None,
                                "message": said_text(account, "en"), "said": account})
            return
    except BaseException as e:  # noqa: BLE001 - everything the import raises is the answer
        # Sent in English words and as a message (only ids dojo.worker.workers.LOAD_MESSAGES allows):
        # the judge renders it in the screen's language.
        info = _raised(e, path)
        numpy_only = "NumPy only" in info["message"]
        where = said("kata.cannot-import.at", line=info["line"], source_text=info["source"] or "") if info["line"] else ""
        account = said("kata.cannot-import", file=path.name, type=info["type"], text=info["message"], where=where)
        if numpy_only and _Refuse.refused:  # the rule is the verdict's label: the account says what broke it
            account = numpy_only_message(path.name, _Refuse.refused, info["line"])
        _flush()
        wire.send(channel, {"status": "cannot-load", "state": "numpy-only" if numpy_only else "cannot-import",
                            "message": said_text(account, "en"), "said": account, "line": info["line"]})
        return
    _flush()
    wire.send(channel, {"status": "ready"})
    buffer, fds = bytearray(), []
    while True:
        try:
            request, values = next_frame(channel, buffer, fds)
            shared = attach(request.get("shared"), fds.pop(0) if fds else None)
        except (EOFError, OSError, ValueError, wire.WireError):
            return
        for fd in fds:  # nothing else is kept
            os.close(fd)
        fds.clear()
        op = request.get("op")
        kwargs = {**values.get("args", {}), **shared}
        after = {}
        if op == "call":
            at = mapped_at(shared, request.get("shared"))  # before any of the kata's code runs
            returned = Returned() if request.get("fresh") is True else returned  # a new example
            reply, result = call(fn, kwargs, path, set(shared))
            reply.update({"shared_at": at} if at is not None else {}, earlier_changed=returned.changed())
            returned.keep(result, kwargs)
            after = {k: kwargs[k] for k in reply.get("mutated", ())}
        elif op == "time":
            reply, result = _time(fn, kwargs, float(request.get("budget", 0.5))), None
        elif op == "traced":
            reply, result = _traced(fn, kwargs), None
        else:
            return
        _flush()
        try:
            wire.send(channel, reply, value=result, mutated=after)
        except OSError:
            return


def _next_frame(channel: socket.socket, buffer: bytearray, fds: list):
    """The judge's next request, in few system calls; its descriptors (shared inputs) to ``fds``."""
    from dojo.worker import wire

    while True:
        frame = wire.take(buffer)
        if frame is not None:
            return frame
        chunk, received, _, _ = socket.recv_fds(channel, 1 << 20, 4)
        fds.extend(received)
        if not chunk:
            raise EOFError
        buffer += chunk


class _Bytes:
    """An array as it was: shape, dtype and bytes."""
    __slots__ = ("shape", "dtype", "data")

    def __init__(self, a):
        self.shape, self.dtype, self.data = a.shape, a.dtype.str, a.tobytes()

    def same(self, b) -> bool:
        import numpy as np

        return (type(b) is np.ndarray and b.shape == self.shape and b.dtype.str == self.dtype
                and b.tobytes() == self.data)


def _comparer():
    """``_same``: its recursion goes through this closure, not the module's global name, which
    the kata's code could replace (``sys.modules[...]._same = lambda a, b: True``)."""
    import struct

    def same(a, b) -> bool:
        import numpy as np

        if isinstance(a, np.ndarray):  # the bytes themselves: no NumPy function the code could replace
            return isinstance(b, np.ndarray) and a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()
        if isinstance(a, (list, tuple)):
            return type(a) is type(b) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
        if isinstance(a, dict):
            return type(b) is dict and a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
        if isinstance(a, float):  # by its bits: -0.0 written over 0.0 (or a NaN over another) is a write
            return type(b) is type(a) and struct.pack("<d", a) == struct.pack("<d", b)
        return type(a) is type(b) and a == b

    return same


_same = _comparer()


def _call(fn, kwargs: dict, path: Path, shared: set = frozenset(), *,
          _same=_same, _deepcopy=_deepcopy, _Bytes=_Bytes) -> tuple[dict, object]:
    # (what it compares with is bound here, at import, before any kata file ran: replacing the
    # module's names changes nothing)
    import numpy as np

    # The inputs as they were given, to tell afterwards which ones the call wrote into: an
    # array by its bytes (no NumPy function the code could replace), anything else by a copy.
    # The arrays in shared memory are not among them: the judge compares those itself
    # (dojo.worker.shared_inputs), and what this process reports about them is not read.
    before = {k: (_Bytes(v) if type(v) is np.ndarray else _deepcopy(v))
              for k, v in kwargs.items() if k not in shared}
    start = time.perf_counter()
    try:
        result = fn(**kwargs)
    except BaseException as e:  # noqa: BLE001 - what the candidate's code raises is data here
        return {**_raised(e, path), "seconds": time.perf_counter() - start}, None
    seconds = time.perf_counter() - start
    mutated = [k for k, was in before.items()
               if not (was.same(kwargs[k]) if type(was) is _Bytes else _same(was, kwargs[k]))]
    return {"status": "returned", "mutated": mutated, "seconds": seconds}, result


def _time(fn, kwargs: dict, budget: float) -> dict:
    """The fastest of several calls after a warm-up call (just the warm-up when it is slow): its
    wall time (``best``) and, measured on the same calls, the least CPU time this process spent
    in one call (``best_cpu``: time the machine gave to others does not count)."""
    try:
        start, cpu = time.perf_counter(), time.process_time()
        fn(**_deepcopy(kwargs))
        best, best_cpu = time.perf_counter() - start, time.process_time() - cpu
        spent, calls = best, 0
        if best < 0.25:
            while calls < 50 and (calls < 2 or spent < budget):
                args = _deepcopy(kwargs)
                start, cpu = time.perf_counter(), time.process_time()
                fn(**args)
                took, took_cpu = time.perf_counter() - start, time.process_time() - cpu
                best, best_cpu, spent, calls = min(best, took), min(best_cpu, took_cpu), spent + took, calls + 1
    except BaseException as e:  # noqa: BLE001
        return {"status": "raised", "type": type(e).__name__, "message": str(e)[:500]}
    return {"status": "timed", "best": best, "best_cpu": best_cpu}


def _traced(fn, kwargs: dict) -> dict:
    """Peak bytes allocated during one call, as tracemalloc sees them (NumPy reports to it): for
    the candidate's own eyes in ``dojo compare`` (the judge's memory bound is measured from
    outside, where the code cannot reset it)."""
    import tracemalloc

    try:
        tracemalloc.start()
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        result = fn(**kwargs)
        peak = tracemalloc.get_traced_memory()[1] - base
        del result
    except BaseException as e:  # noqa: BLE001
        return {"status": "raised", "type": type(e).__name__, "message": str(e)[:500]}
    finally:
        tracemalloc.stop()
    return {"status": "traced", "peak": max(0, int(peak))}


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:  # noqa: BLE001 - the candidate may have replaced or closed it
            pass
