"""Where a warm judge (dojo/judge/judge_server.py) listens, under which key, and the lines its
clients and it exchange: shared by the server and its client (dojo/judge/warm.py).

The key hashes the tool's files, the interpreter and the installed libraries, and the judge's
files (conftest.py, tests/*.py, tests/plugin/*.py) by content: an edited judge or a new
Hypothesis gets a new warm judge, never a stale one; copies of one judge (the suite's
sandboxes) share one.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _tool_part() -> str:
    """The tool's side of the key: this package's files, the interpreter, the libraries."""
    h = hashlib.sha1()
    h.update(f"{os.getuid()} {sys.executable} {sys.version}".encode())
    package = ROOT / "dojo"
    for path in [*sorted(package.rglob("*.py")), *sorted(package.rglob("*.toml"))]:
        try:
            h.update(str(path.relative_to(package)).encode() + b"\0" + path.read_bytes() + b"\0")
        except OSError:
            h.update(b"missing\0")
    for site in sorted({p for p in sys.path if p.endswith("-packages")}):
        try:  # a pip install changes the site folder (new dist-info folders)
            h.update(f"{site} {os.stat(site).st_mtime_ns}".encode())
        except OSError:
            pass
    return h.hexdigest()


def _judge_part(root: Path) -> str:
    """The checkout's side: the judge's files (conftest.py, tests/*.py, tests/plugin/*.py), by
    content, so that copies of one judge (the suite's sandboxes) share a warm process."""
    h = hashlib.sha1()
    for path in [root / "conftest.py", *sorted((root / "tests").glob("*.py")),
                 *sorted((root / "tests" / "plugin").glob("*.py"))]:
        try:
            h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
        except OSError:
            h.update(b"missing\0")
    return h.hexdigest()


def key(root: Path) -> str:
    """What a warm judge's verdicts depend on: the judge's files and the tool and libraries
    that run them; an edit to any of them (or a pip install) means another warm judge."""
    return hashlib.sha1(f"{_tool_part()} {_judge_part(root)}".encode()).hexdigest()[:20]


#: A socket's path holds at most 108 bytes (``sun_path``); a key's socket needs this much room.
SOCKET_PATH_MAX = 100


def folder() -> Path:
    """The user's own folder for warm judges' sockets: ``$XDG_RUNTIME_DIR/dojo-judge-UID``,
    else under the temporary folder, else ``/tmp/dojo-judge-UID``: the first where a socket's
    path fits (a long ``TMPDIR``, as macOS and test runners give, would not), 0700. Every
    state folder of one checkout shares its warm judge (the request carries the client's
    environment, ``DOJO_STATE_DIR`` with it)."""
    import tempfile

    name = f"dojo-judge-{os.getuid()}"
    bases = [os.environ.get("XDG_RUNTIME_DIR"), tempfile.gettempdir(), "/tmp"]
    for base in filter(None, bases):
        where = Path(base) / name
        if fits(where / f"{'0' * 20}.sock"):
            return where
    return Path("/tmp") / name


def fits(path: Path) -> bool:
    """Whether ``path`` is short enough to bind a socket to."""
    return len(os.fsencode(path)) <= SOCKET_PATH_MAX


def private(where: Path) -> bool:
    """``where`` exists (made if need be), is a real folder of this user, and only theirs."""
    try:
        where.mkdir(mode=0o700, exist_ok=True)
        st = os.lstat(where)
    except OSError:
        return False
    import stat

    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o077


def socket_path(k: str) -> Path:
    return folder() / f"{k}.sock"


def send(conn: socket.socket, message: dict) -> None:
    conn.sendall(json.dumps(message).encode() + b"\n")


def lines(conn: socket.socket):
    """The JSON lines a connection sends, until it closes."""
    buffer = b""
    while True:
        chunk = conn.recv(65536)
        if not chunk:
            return
        buffer += chunk
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            try:
                yield json.loads(line)
            except ValueError:
                return
