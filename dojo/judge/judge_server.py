"""The warm judge: one long-lived process per checkout that has imported pytest, Hypothesis,
NumPy, torch and the judge's modules, and forks a fresh pytest child for each verdict.

A verdict then costs what the properties cost (softmax: about 0.6 s on a quiet machine), not
the imports (about 3 s, torch alone 2 s). The candidate's code still runs only in the sandboxed worker: the
children here are the judge, exactly as a fresh ``python -m pytest`` would be.

- **Keyed.** The server's key hashes the judge's own files (conftest.py, tests/*.py, dojo/),
  the Python executable and the installed libraries (each site folder's change time): an
  edited judge or a new Hypothesis gets a new server, never a stale one. It checks its key
  every few seconds and ends once it no longer matches.
- **Private.** It listens on a Unix socket in the user's own 0700 folder
  (``$XDG_RUNTIME_DIR/dojo-judge`` or ``/tmp/dojo-judge-UID``; the socket 0600), and serves
  only connections from its own user (SO_PEERCRED).
- **Self-ending.** It ends after ``IDLE`` seconds without a request, and its children and
  zygote die with it (PR_SET_PDEATHSIG); a child whose client hangs up is killed at once.
- **Prepared.** After a verdict it forks, for each shard it served, a child that gets as far as
  it can without the candidate's file and waits; the next request like it opens that child's
  gate instead of forking afresh (``dojo/judge/primed.py``; ``DOJO_JUDGE_PREPARE=0`` turns it off).
- **Optional.** Where it cannot start (no fork, no Unix sockets, no private folder for it),
  ``dojo.judge.runner`` judges cold, in fresh processes, and says nothing about it.

The protocol: one JSON line from the client (``args``, ``env``), then lines from the server:
``{"pid": N}`` when the child started, ``{"exit": code}`` when it ended.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import struct
import sys
import time
from pathlib import Path

from dojo.judge import primed, warm_up
from dojo.judge.judge_key import _tool_part, folder, lines, send, socket_path

ROOT = Path(__file__).resolve().parents[2]
#: Seconds without a request after which the server ends.
IDLE = float(os.environ.get("DOJO_JUDGE_IDLE") or 900)
#: How often the server checks that its key still matches its files.
KEY_CHECK = 2.0
#: Prepare a child for the next verdict like the last (dojo/judge/primed.py); 0 turns it off.
PREPARE = os.environ.get("DOJO_JUDGE_PREPARE", "1") != "0"
#: Set by SIGTERM (`dojo clean`). Its handler also raises SystemExit, to end at once, but
#: Python ignores (prints) an exception raised while a finalizer runs (``__del__``, a
#: generator closed by the garbage collector): the loop checks this too, so that a SIGTERM
#: arriving then still ends the server, within one turn of the loop.
_stopping = False


def _on_sigterm(*_) -> None:
    global _stopping
    _stopping = True
    sys.exit(0)


def _peer_uid(conn: socket.socket) -> int | None:
    try:
        creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
        return struct.unpack("3i", creds)[1]
    except (OSError, AttributeError):
        return None


def _forget_judge(root: Path) -> None:
    """Unload the judge's own modules imported from ``root`` (conftest, tests.*), so the
    child's pytest imports those of the checkout it was asked to judge."""
    for name in [n for n in sys.modules if n in ("conftest", "tests") or n.startswith("tests.")]:
        del sys.modules[name]
    while str(root) in sys.path:
        sys.path.remove(str(root))


def _child(conn: socket.socket | None, listener: socket.socket, request: dict, server_root: Path,
           others: list[int], gate: socket.socket | None = None) -> None:
    """In the forked child: become a fresh pytest run of the request's arguments; with ``gate``,
    one prepared ahead of its request, that waits for it just before the kata's file is checked
    (dojo/judge/primed.py). ``others``: the server's descriptors that are not this child's."""
    code = 3
    try:
        os.setpgid(0, 0)
        from dojo.worker import sandbox

        sandbox.die_with_parent()
        for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGCHLD):
            signal.signal(sig, signal.SIG_DFL)
        # As in any Python process: a write to a peer that is gone (a worker that died as it
        # answered) raises BrokenPipeError, and the judge says how the worker ended. With
        # SIGPIPE's default the whole run died, and the verdict was "no report".
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the client's to handle
        listener.close()
        if conn is not None:
            conn.close()
        for fd in others:  # other clients' connections, other prepared children's gates
            try:
                os.close(fd)
            except OSError:
                pass
        if gate is None:
            out = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW, 0o600)
        else:  # nothing to say before the gate opens; then the request's log
            out = os.open(os.devnull, os.O_WRONLY)
        os.dup2(out, 1)
        os.dup2(out, 2)
        os.close(out)
        os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
        os.chdir(request["cwd"])
        if Path(request["cwd"]).resolve() != server_root:  # a copy of this judge elsewhere
            _forget_judge(server_root)
        env = primed.child_env(request["env"])
        os.environ.clear()
        os.environ.update(env)
        import tempfile

        tempfile.tempdir = None  # the client's TMPDIR, not the one this server started in (gone, maybe)
        sys.dont_write_bytecode = False
        import pytest

        args = [str(a) for a in request["args"]] + list(primed.WARM_ARGS)
        plugins = [primed.Gate(gate)] if gate is not None else []
        profile = os.environ.get("DOJO_PROFILE_TO")  # where a verdict's time goes (docs/benchmarks.md)
        if profile:
            import cProfile

            profiler = cProfile.Profile()
            code = int(profiler.runcall(pytest.main, args, plugins=plugins))
            profiler.dump_stats(f"{profile}.{os.getpid()}")
        else:
            code = int(pytest.main(args, plugins=plugins))
    except BaseException:  # noqa: BLE001 - the exit status says it
        import traceback

        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


class _Server:
    def __init__(self, k: str, root: Path):
        self.key, self.root = k, root
        self.tool = _tool_part()
        self.path = socket_path(k)
        self.jobs: dict[int, socket.socket] = {}  # child pid -> its client's connection
        self.requests: dict[int, dict] = {}  # child pid -> the request it serves
        self.to_prepare: list[dict] = []  # requests served: prepare a child for the next like it
        self.ready = primed.Ready()
        self.served = self.warm_later = False
        self.last = time.monotonic()

    def listen(self) -> socket.socket:
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        tmp = self.path.with_suffix(f".{os.getpid()}.tmp")
        old = os.umask(0o177)
        try:
            listener.bind(str(tmp))
        finally:
            os.umask(old)
        os.chmod(tmp, 0o600)
        listener.listen(16)
        os.replace(tmp, self.path)  # atomically: a client never sees a socket that is not ready
        self.inode = os.stat(self.path).st_ino
        return listener

    def run(self) -> None:
        import selectors

        from dojo.worker import sandbox
        from dojo.worker.workers import Zygote

        sandbox.become_subreaper()
        Zygote._mine = Zygote.start(export=True)
        Zygote._mine.wait_ready()
        warm_up.first(self.root)
        listener = self.listen()
        about = folder() / f"{self.key}.json"
        about.write_text(json.dumps({"pid": os.getpid(), "root": str(self.root)}))
        _unlock(self.key)
        sel = selectors.DefaultSelector()
        sel.register(listener, selectors.EVENT_READ, "accept")
        next_check = time.monotonic() + KEY_CHECK
        retiring = False
        try:
            while not _stopping:
                for sel_key, _ in sel.select(timeout=0.005 if self.jobs else 0.5):
                    if sel_key.data == "accept":
                        self.accept(listener, sel)
                    else:  # a client hung up, or sent more: end its child
                        self.hang_up(sel_key.data, sel)
                self.reap(sel)
                if not self.jobs and self.served:  # while the user reads the verdict
                    if not self.warm_later:
                        self.warm_later = True
                        warm_up.later()
                    while self.to_prepare and not _stopping and not retiring:
                        self.prepare(self.to_prepare.pop(0), listener)
                now = time.monotonic()
                if not self.jobs and (retiring or now - self.last > IDLE):
                    return
                if now > next_check:
                    next_check = now + KEY_CHECK
                    if _tool_part() != self.tool:
                        return  # the tool changed: a new server serves
                    if not retiring and not self.still_listening():
                        # The socket went, or a server started beside this one replaced it (a
                        # copy of this judge's): take no more requests, end once these are served.
                        retiring = True
                        sel.unregister(listener)
                        listener.close()
        finally:
            try:  # its own socket only: a newer server may have replaced it
                if os.stat(self.path).st_ino == self.inode:
                    self.path.unlink()
            except OSError:
                pass
            for pid in list(self.jobs):
                _kill_group(pid)
            self.ready.close()
            try:
                if json.loads(about.read_text()).get("pid") == os.getpid():
                    about.unlink()
            except (OSError, ValueError, AttributeError):
                pass
            Zygote._mine.close()

    def still_listening(self) -> bool:
        """The socket clients connect to is still this server's."""
        try:
            return os.stat(self.path).st_ino == self.inode
        except OSError:
            return False

    def accept(self, listener: socket.socket, sel) -> None:
        import selectors

        conn, _ = listener.accept()
        if _peer_uid(conn) != os.getuid():
            conn.close()
            return
        conn.settimeout(5.0)
        try:
            request = next(lines(conn), None)
        except OSError:
            request = None
        if not isinstance(request, dict) or not _valid(request):
            conn.close()
            return
        self.last = time.monotonic()
        self.ready.asked(request)
        pid = self.ready.take(request)
        if pid is None:
            pid = os.fork()
            if pid == 0:
                _child(conn, listener, request, self.root, self._fds())
            try:
                os.setpgid(pid, pid)
            except OSError:
                pass
        self.jobs[pid] = conn
        self.requests[pid] = request
        try:
            send(conn, {"pid": pid})
        except OSError:
            pass
        conn.setblocking(False)
        sel.register(conn, selectors.EVENT_READ, pid)

    def _fds(self) -> list[int]:
        return [c.fileno() for c in self.jobs.values()] + self.ready.fds()

    def prepare(self, request: dict, listener: socket.socket) -> None:
        """A child for the next request like this one, waiting at its gate (dojo/judge/primed.py)."""
        if self.ready.has(request):
            return
        mine, its = socket.socketpair()
        try:
            pid = os.fork()
        except OSError:
            mine.close()
            its.close()
            return
        if pid == 0:
            mine.close()
            _child(None, listener, request, self.root, self._fds(), gate=its)
        its.close()
        try:
            os.setpgid(pid, pid)
        except OSError:
            pass
        self.ready.add(request, pid, mine)

    def hang_up(self, pid: int, sel) -> None:
        _kill_group(pid)

    def reap(self, sel) -> None:
        for pid in list(self.jobs):
            try:
                done, status = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                done, status = pid, 0
            if not done:
                continue
            conn = self.jobs.pop(pid)
            self.served = True
            request = self.requests.pop(pid, None)
            if (PREPARE and request is not None and os.waitstatus_to_exitcode(status) in (0, 1)
                    and self.ready.repeated(request)):
                self.to_prepare.append(request)  # a verdict came: the next is likely the same
            _kill_group(pid)  # whatever the run left behind
            sel.unregister(conn)
            try:
                conn.setblocking(True)
                send(conn, {"exit": os.waitstatus_to_exitcode(status)})
            except (OSError, ValueError):
                pass
            conn.close()
            self.last = time.monotonic()
        try:  # orphans reparented to this subreaper, prepared children that ended
            while (ended := os.waitpid(-1, os.WNOHANG)[0]):
                self.ready.forget(ended)
        except ChildProcessError:
            pass


def _valid(request: dict) -> bool:
    return (isinstance(request.get("args"), list) and all(isinstance(a, str) for a in request["args"])
            and isinstance(request.get("env"), dict)
            and all(isinstance(k, str) and isinstance(v, str) for k, v in request["env"].items())
            and isinstance(request.get("cwd"), str) and isinstance(request.get("log"), str))


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass


def _unlock(k: str) -> None:
    """Remove the lock its starter wrote (dojo/judge/warm.py), not one a later starter wrote."""
    lock = folder() / f"{k}.starting"
    try:
        if lock.read_text() == os.environ.get("DOJO_JUDGE_LOCK"):
            lock.unlink()
    except OSError:
        pass


def main(argv: list[str]) -> int:
    k, root = argv[0], Path(argv[1]).resolve()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _on_sigterm)  # `dojo clean`: end cleanly
    try:
        _Server(k, root).run()
    except SystemExit:  # SIGTERM (`dojo clean`): a clean end, like an idle one
        pass
    finally:
        _unlock(k)
    (folder() / f"{k}.log").unlink(missing_ok=True)  # kept only when it ended with an error
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
