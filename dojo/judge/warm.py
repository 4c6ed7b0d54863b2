"""The warm judge's client: find (or start) this checkout's warm judge (``dojo/judge/judge_server.py``)
and ask it for a verdict: one connection per shard, each a forked pytest child of the server,
bounded by the run's timeout, ended when the client stops. ``start_ahead`` warms it early;
``stop`` ends it (``dojo clean``).
"""

from __future__ import annotations

import os
import json
import select
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from dojo.judge.judge_key import fits, folder, key, lines, private, send, socket_path  # noqa: F401 (lines: re-exported)

ROOT = Path(__file__).resolve().parents[2]
#: Seconds a client waits for a warm judge it started to be ready (the imports) before judging cold.
START_TIMEOUT = 30.0

def _connect(path: Path) -> socket.socket | None:
    if not fits(path):
        return None
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(str(path))
        return conn
    except OSError:
        conn.close()
        return None


def connect(root: Path, start: bool = True, wait: bool = True, k: str | None = None) -> socket.socket | None:
    """A connection to this checkout's warm judge (of key ``k``, computed if not given),
    starting it if need be; None where there is none and cannot be one (then judge cold)."""
    if not hasattr(os, "fork") or not hasattr(socket, "AF_UNIX") or os.environ.get("DOJO_WARM") == "0":
        return None
    k = k or key(root)
    if not private(folder()):
        return None
    path = socket_path(k)
    if not fits(path):  # no socket can be bound there: judge cold at once
        return None
    conn = _connect(path)
    if conn is not None or not start:
        return conn
    started = _launch(k, root)
    if not started or not wait:
        return None
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        conn = _connect(path)
        if conn is not None:
            return conn
        if started is not True and started.poll() is not None:  # it ended without listening
            return None
        time.sleep(0.01)
    return None


def start_ahead(root: Path) -> None:
    """Start the warm judge in the background if it is not running (bare ``dojo``, ``dojo
    show``, ``%load_ext dojo``), so the first verdict is warm too. Never waits, never fails."""
    try:
        conn = connect(root, start=True, wait=False)
        if conn is not None:
            conn.close()
    except Exception:  # noqa: BLE001 - starting ahead is a courtesy
        pass


def _launch(k: str, root: Path):
    """Start a server for key ``k`` unless one is starting already (a lock file says so): its
    process, True when another client is starting it, False when none can start."""
    where = folder()
    try:
        lock = where / f"{k}.starting"
        try:  # one starter at a time; a lock older than START_TIMEOUT is a starter that died
            if time.time() - lock.stat().st_mtime < START_TIMEOUT:
                return True
        except FileNotFoundError:
            pass
        mark = f"{os.getpid()} {os.urandom(8).hex()}"
        lock.write_text(mark)
        log = open(where / f"{k}.log", "wb")
    except OSError:
        return False
    env = {k2: v for k2, v in os.environ.items() if not k2.startswith(("DOJO_ZYGOTE", "DOJO_DIE_WITH"))}
    env["DOJO_JUDGE_LOCK"] = mark  # the server removes this lock, never another starter's
    try:
        return subprocess.Popen(
            [sys.executable, "-m", "dojo.judge.judge_server", k, str(root)], cwd=str(root), env=env,
            stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True, close_fds=True,
        )
    except OSError:
        return False
    finally:
        log.close()


def _servers_of(root: Path) -> set[int]:
    """The warm judges of this checkout: those its ``KEY.json`` files name, and (where there is
    a /proc) every process of this user running ``dojo.judge.judge_server`` for this root, one
    still starting or one whose ``KEY.json`` a copy of this judge overwrote included."""
    root = str(Path(root).resolve())
    found = set()
    for about in folder().glob("*.json") if folder().is_dir() else ():
        try:
            info = json.loads(about.read_text())
            if info.get("root") == root:
                found.add(int(info["pid"]))
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            continue
    try:
        pids = [int(p) for p in os.listdir("/proc") if p.isdigit()]
    except OSError:
        pids = []
    for pid in pids:
        try:
            if os.stat(f"/proc/{pid}").st_uid != os.getuid():
                continue
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
            if b"dojo.judge.judge_server" in argv and len(argv) >= 3 and str(Path(os.fsdecode(argv[-2])).resolve()) == root:
                found.add(pid)
        except OSError:
            continue
    return found


def _is_server(pid: int) -> bool:
    """``pid`` is a warm judge, still running (a zombie waiting for its parent is not)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            if b"dojo.judge.judge_server" not in f.read():
                return False
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except (OSError, IndexError):
        return False


#: Seconds ``stop`` waits for the warm judges it signalled to end (each ends its children first).
STOP_WAIT = 10.0


def stop(root: Path) -> int:
    """End every warm judge of this checkout (``dojo clean``) and wait until they have ended
    (up to ``STOP_WAIT`` seconds); how many were running."""
    stopped = []
    for pid in _servers_of(root):
        if not _is_server(pid):  # that pid is no longer a warm judge
            continue
        try:
            os.kill(pid, signal.SIGTERM)
            stopped.append(pid)
        except OSError:
            continue
    deadline = time.monotonic() + STOP_WAIT
    while any(map(_is_server, stopped)) and time.monotonic() < deadline:
        time.sleep(0.02)
    return len(stopped)


#: Returned when ``stale()`` became true during the run (the file changed: judge it again).
STALE = "stale"


def run(shards: list[list[str]], environ: dict, cwd: Path, log: Path, deadline: float, stale=None) -> str | None:
    """Run one pytest child of the warm judge per shard (its arguments), each writing to
    ``log``. "done" when every child ended, "timeout" past ``deadline`` (``time.monotonic()``),
    ``STALE`` if ``stale()`` became true; None where there is no warm judge, or it went away
    (judge cold instead)."""
    try:
        k = key(cwd)  # once a verdict: it hashes the tool's and the judge's files
        first = connect(cwd, k=k)
    except OSError:
        first = None
    if first is None:
        return None
    log.touch(mode=0o600)
    environ = {k: v for k, v in environ.items() if k != "DOJO_DIE_WITH"}
    conns, pids, exits = [first], {}, {}
    try:
        for i, args in enumerate(shards):
            if i:
                conn = connect(cwd, start=False, k=k)
                if conn is None:
                    return None
                conns.append(conn)
            send(conns[i], {"args": args, "env": environ, "cwd": str(cwd), "log": str(log)})
        outcome = _wait(conns, pids, exits, deadline, stale)
    except OSError:
        return None
    finally:  # also on Ctrl-C: the server kills a child whose client hung up; so do we
        for conn in conns:
            conn.close()
        for conn, pid in pids.items():
            if conn not in exits:
                try:
                    os.killpg(pid, signal.SIGKILL)
                except OSError:
                    pass
    return None if outcome == "lost" else outcome


def _wait(conns, pids: dict, exits: dict, deadline: float, stale) -> str:
    """Read each connection's lines until every child reported its exit."""
    buffers = {c: b"" for c in conns}
    open_ = set(conns)
    last_check = time.monotonic()
    import json

    while len(exits) < len(conns):
        now = time.monotonic()
        if now > deadline:
            return "timeout"
        if stale is not None and now - last_check > 0.05:
            last_check = now
            if stale():
                return STALE
        if not open_:
            return "lost"
        ready, _, _ = select.select(list(open_), [], [], min(0.05, max(0.0, deadline - now)))
        for conn in ready:
            chunk = conn.recv(65536)
            if not chunk:
                open_.discard(conn)
                if conn not in exits:
                    return "lost"
                continue
            buffers[conn] += chunk
            while b"\n" in buffers[conn]:
                line, buffers[conn] = buffers[conn].split(b"\n", 1)
                try:
                    reply = json.loads(line)
                except ValueError:
                    return "lost"
                if isinstance(reply, dict) and isinstance(reply.get("pid"), int):
                    pids[conn] = reply["pid"]
                if isinstance(reply, dict) and "exit" in reply:
                    exits[conn] = reply["exit"]
                    open_.discard(conn)
    return "done"
