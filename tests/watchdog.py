"""A whole-run deadline per kata: the backstop for the judge itself.

The candidate's code runs in a worker whose every call has a CPU limit enforced from outside
(``dojo/worker/workers.py``), so nothing it does can stall the judge. This watchdog is for the judge's
own faults (a stuck oracle, a bug of ours): the judge forks it at the start of a session. The judge
tells it over a pipe which kata and property run; if one kata runs longer than its deadline,
the watchdog writes what was running (to the terminal, and into the ``--dojo-json`` report
when there is one) and kills the judge with SIGKILL, which nothing can catch. When the judge
ends normally, the pipe closes and the watchdog exits.
"""

from __future__ import annotations

import json
import os
import select
import signal
import sys
import time


class Watchdog:
    def __init__(self, deadline: float, report: str | None):
        self.deadline = deadline
        self.report = report
        self.pid = None
        self.write_fd = None

    def start(self) -> None:
        read_fd, write_fd = os.pipe()
        judge = os.getpid()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the watchdog
            code = 0
            try:
                os.close(write_fd)
                # nothing else of the judge's: a lifeline it holds (the zygote's) must close
                # when the judge ends
                os.closerange(3, read_fd)
                os.closerange(read_fd + 1, 1 << 16)
                signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the judge's to handle
                self._watch(read_fd, judge)
            except BaseException:
                code = 1
            finally:
                os._exit(code)
        os.close(read_fd)
        self.pid, self.write_fd = pid, write_fd

    def running(self, kata: str, prop: str) -> None:
        """The judge now runs ``prop`` of ``kata`` (an empty ``kata``: no kata, no deadline)."""
        if self.write_fd is not None:
            try:
                os.write(self.write_fd, f"{kata}\t{prop}\n".encode())
            except OSError:
                pass

    def stop(self) -> None:
        if self.write_fd is not None:
            os.close(self.write_fd)
            self.write_fd = None
            try:
                os.waitpid(self.pid, 0)
            except ChildProcessError:
                pass

    # -- in the watchdog process ---------------------------------------------------------------

    def _watch(self, fd: int, judge: int) -> None:
        buffer = b""
        kata, prop, since = None, None, time.monotonic()
        while True:
            left = self.deadline - (time.monotonic() - since) if kata else None
            if left is not None and left <= 0:
                self._expire(judge, kata, prop)
                return
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 4096)
            if not chunk:
                return  # the judge ended
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                new_kata, _, new_prop = line.decode(errors="replace").partition("\t")
                if new_kata != kata:
                    since = time.monotonic()
                kata, prop = (new_kata or None), new_prop

    def _expire(self, judge: int, kata: str, prop: str) -> None:
        message = (
            f"{kata}: stopped after {self.deadline:g} s while running {prop}: the whole-run "
            f"deadline of a kata. The judge itself did not finish (not your fault: every call "
            f"into your code has its own limit). Run it again; if it happens again, report it."
        )
        try:
            os.kill(judge, signal.SIGKILL)
        except OSError:
            pass
        _kill_children(judge, os.getpid())
        os.write(2, f"\n{message}\n".encode())
        if self.report:
            self._record(kata, prop, {"id": "kata.judge-stopped",
                                      "params": {"seconds": f"{self.deadline:g}", "property": prop}})

    def _record(self, kata: str, prop: str, message: dict) -> None:
        try:
            with open(self.report, encoding="utf-8") as f:
                data = json.load(f)
        except (OSError, ValueError):
            data = {"records": []}
        data.setdefault("records", []).append(
            {"index": 10**6, "kata": kata, "property": prop, "id": prop, "title": prop, "state": "timed-out",
             "status": "incomplete", "message": message, "deadline": True}
        )
        data["complete"] = False
        tmp = f"{self.report}.tmp{os.getpid()}"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(data, f)
        os.replace(tmp, self.report)


def _kill_children(parent: int, spare: int) -> None:
    """SIGKILL every process whose parent is ``parent`` (Linux /proc), except ``spare``."""
    try:
        entries = os.listdir("/proc")
    except OSError:
        return
    for entry in entries:
        if not entry.isdigit() or int(entry) == spare:
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8", errors="replace") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            if int(fields[1]) == parent:
                os.kill(int(entry), signal.SIGKILL)
        except (OSError, ValueError, IndexError):
            pass


def leftover_children() -> list[int]:
    """Processes whose parent is this one (the candidate's, when the judge ends)."""
    found = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return found
    me = os.getpid()
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8", errors="replace") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            if int(fields[1]) == me:
                found.append(int(entry))
        except (OSError, ValueError, IndexError):
            pass
    return found
