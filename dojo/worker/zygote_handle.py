"""The judge's handle on the zygote (``dojo/worker/zygote.py``): start it in a fresh interpreter, ask it
for a worker, end one, close it. One per judge; processes forked from the judge share it, and a
command can start it early and hand it on in the environment (``ZYGOTE_ENV``).
"""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from dojo.worker import wire

ROOT = Path(__file__).resolve().parents[2]
ZYGOTE_ENV = "DOJO_ZYGOTE"
#: Threads of the BLAS libraries NumPy may use: one, so two threads spinning on each other
#: cannot turn a quick call into a slow one on a busy machine.
ONE_THREAD = {name: "1" for name in (
    "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS")}


class Zygote:
    """A handle on the zygote process (one per judge; shared by processes forked from it)."""

    _mine: "Zygote | None" = None

    def __init__(self, address: str, token: str, proc=None, lifeline: int | None = None):
        self.address, self.token, self.proc, self.lifeline = address, token, proc, lifeline
        self.owner = os.getpid()  # the process that started it, and alone may end it
        self._conn: tuple[int, socket.socket] | None = None

    @classmethod
    def shared(cls) -> "Zygote":
        """The zygote named in the environment (started by a parent), or a new one of this process."""
        if cls._mine is not None:
            return cls._mine
        named = os.environ.get(ZYGOTE_ENV, "")
        if " " in named:
            address, token = named.split(" ", 1)
            cls._mine = cls(address, token)
        else:
            cls._mine = cls.start()
        return cls._mine

    @classmethod
    def start(cls, export: bool = False) -> "Zygote":
        token = secrets.token_hex(16)
        if sys.platform.startswith("linux"):  # an abstract socket: no path length limit, no file
            address = f"@dojo-zygote-{os.getpid()}-{secrets.token_hex(6)}"
        else:
            address = os.path.join(tempfile.mkdtemp(prefix="dojo-zygote-"), "socket")
        read_end, write_end = os.pipe()
        env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "LC_ALL", "SYSTEMROOT", "TMPDIR")}
        env.update(ONE_THREAD, DOJO_ZYGOTE_TOKEN=token)
        boot = f"import sys; sys.path.insert(0, {str(ROOT)!r}); from dojo.worker import zygote; " \
               f"zygote.run(sys.argv[1], zygote.os.environ.pop('DOJO_ZYGOTE_TOKEN'), int(sys.argv[2]))"
        proc = subprocess.Popen(
            [sys.executable, "-I", "-c", boot, address, str(read_end)], pass_fds=(read_end,), env=env,
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, start_new_session=True, close_fds=True,
        )
        os.close(read_end)
        zygote = cls(address, token, proc, write_end)
        if export:
            os.environ[ZYGOTE_ENV] = f"{address} {token}"
        return zygote

    def wait_ready(self) -> None:
        """Wait (once) until the zygote listens."""
        if self.proc is not None and self.proc.stdout is not None:
            ready = self.proc.stdout.readline()
            if ready.strip() != b"ready":
                raise RuntimeError(f"the worker process could not start (exit status {self.proc.poll()})")
            self.proc.stdout.close()
            self.proc.stdout = None

    def _connection(self) -> socket.socket:
        if self._conn is not None and self._conn[0] == os.getpid():
            return self._conn[1]
        self.wait_ready()
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        deadline = time.monotonic() + 60.0
        while True:  # a zygote started by a parent may still be importing NumPy
            try:
                conn.connect(sockaddr(self.address))
                break
            except (FileNotFoundError, ConnectionRefusedError):
                if time.monotonic() > deadline:
                    raise RuntimeError("the process that runs the candidates' code did not start") from None
                time.sleep(0.005)
        self._conn = (os.getpid(), conn)
        return conn

    def _ask(self, request: dict, fds: tuple = ()) -> dict:
        import json
        import struct

        conn = self._connection()
        body = json.dumps({**request, "token": self.token}).encode()
        socket.send_fds(conn, [struct.pack("<I", len(body)) + body], list(fds))
        head = wire._exactly(conn, 4)
        (size,) = struct.unpack("<I", head)
        return json.loads(wire._exactly(conn, size))

    def spawn(self, path: Path, function: str, tmp: Path, memory: int,
              writable: bool = True) -> tuple[int, socket.socket, int]:
        mine, theirs = socket.socketpair()
        out_read, out_write = os.pipe()
        try:
            reply = self._ask({"op": "spawn", "path": str(path), "function": function, "tmp": str(tmp),
                               "memory": memory, "writable": writable}, (theirs.fileno(), out_write))
        finally:
            theirs.close()
            os.close(out_write)
        os.set_blocking(out_read, False)
        mine.setblocking(False)
        return int(reply["pid"]), mine, out_read

    def end(self, pid: int, kill: bool = True, wait: bool = True) -> dict | None:
        """End worker ``pid``; with ``wait``, wait until it is gone and return how it ended."""
        try:
            return self._ask({"op": "end", "pid": pid, "kill": kill, "wait": wait}).get("status")
        except (OSError, EOFError, ValueError):
            return None

    def close(self) -> None:
        """End the zygote and every worker (in the process that started it; elsewhere, only
        this process's connection)."""
        if self._conn is not None and self._conn[0] == os.getpid():
            self._conn[1].close()
            self._conn = None
        if os.getpid() != self.owner:
            return
        if self.lifeline is not None:
            os.close(self.lifeline)
            self.lifeline = None
            if self.proc is not None:
                try:
                    self.proc.wait(10)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
        if Zygote._mine is self:
            Zygote._mine = None


def sockaddr(address: str) -> str:
    """A Unix socket address as the socket module takes it: "@name" is Linux's abstract name."""
    return "\0" + address[1:] if address.startswith("@") else address
