"""Reading a process from outside, through ``/proc`` (Linux): what the candidate's code cannot
forge. Stdlib only (never NumPy): the zygote imports it, through ``dojo.worker.sandbox``, before NumPy.

- the judge's measures of a worker (``dojo/worker/workers.py``): CPU time and run state
  (``cpu_and_state``, ``cpu``), resident memory and its high-water mark (``rss``,
  ``status_field``);
- the process tree ``sandbox.kill_tree`` walks: a process's threads (``tasks``), whether all of
  them are stopped (``stopped``), its children (``children``).
"""

from __future__ import annotations

import os

_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def cpu_and_state(pid: int | None) -> tuple[float | None, str]:
    if pid is None:
        return None, "?"
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None, "?"
    state = fields[0].decode()
    if state in ("Z", "X"):  # the main thread has ended and others run on: what they are doing
        state = _threads_state(pid) or state
    return (int(fields[11]) + int(fields[12])) / _TICK, state


def _threads_state(pid: int) -> str | None:
    """The state of a process whose main thread has ended (a raw ``exit`` of that thread alone
    leaves the process running, its leader a zombie, neither asleep nor running as its own
    ``stat`` says): "R" if any thread runs, else "S" or "D" if any waits; None if none is left."""
    states = set()
    for tid in tasks(pid):
        try:
            with open(f"/proc/{pid}/task/{tid}/stat", "rb") as f:
                states.add(f.read().rpartition(b")")[2].split()[0].decode())
        except (OSError, IndexError):
            continue
    for state in ("R", "D", "S"):
        if state in states:
            return state
    return None


def cpu(pid: int | None) -> float | None:
    return cpu_and_state(pid)[0]


def _status_number(pid: int, name: str) -> int | None:
    """The number after ``name:`` in ``/proc/PID/status``, as written (memory fields are in kB)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith(name + ":"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return None


def status_field(pid: int, name: str) -> int | None:
    """A memory field of ``/proc/PID/status`` (VmRSS, RssAnon, ...), in bytes."""
    kib = _status_number(pid, name)
    return None if kib is None else kib * 1024


def parent(pid: int) -> int | None:
    return _status_number(pid, "PPid")


def anonymous_beyond_parent(pid: int) -> int | None:
    """A process's anonymous resident memory beyond its parent's: for a worker forked from the
    zygote (whose pages it shares and counts too), what it allocated since, such as the arrays a
    kata file builds when it is imported."""
    mine, up = status_field(pid, "RssAnon"), parent(pid)
    theirs = status_field(up, "RssAnon") if up else None
    return None if mine is None or theirs is None else mine - theirs


def resident_under(pid: int, folder: str) -> int | None:
    """Resident memory of ``pid``'s mappings of files under ``folder`` (its own temporary folder:
    a file there can hold an array as well as anonymous memory can)."""
    total, inside = 0, False
    try:
        with open(f"/proc/{pid}/smaps", encoding="utf-8", errors="replace") as f:
            for line in f:
                head = line.split(None, 1)[0]
                if head.endswith(":"):  # a field of the mapping above ("Rss:", "Size:", "VmFlags:")
                    if inside and head == "Rss:":
                        total += int(line.split()[1]) * 1024
                    continue
                fields = line.split(None, 5)  # a mapping's first line: range perms offset dev inode path
                inside = len(fields) == 6 and fields[5].strip().startswith(folder)
    except (OSError, ValueError, IndexError):
        return None
    return total


def rss(pid: int, reset: bool = False) -> int | None:
    """Resident memory now; ``reset`` first sets the high-water mark to it (Linux 4.0+)."""
    if reset:
        try:
            with open(f"/proc/{pid}/clear_refs", "w") as f:
                f.write("5")
        except OSError:
            return None
    return status_field(pid, "VmRSS")


def written(pid: int) -> int | None:
    """Bytes ``pid`` has passed to write(2) and its kin so far (``wchar`` of /proc/PID/io): to files,
    memory files and pipes alike, whether the data is kept or not."""
    try:
        with open(f"/proc/{pid}/io", encoding="ascii") as f:
            for line in f:
                if line.startswith("wchar:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return None


def tasks(pid: int) -> list[str]:
    try:
        return os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []  # gone


def stopped(pid: int) -> bool:
    """Every thread of pid is stopped (or dead): it cannot fork any more."""
    for tid in tasks(pid):
        try:
            with open(f"/proc/{pid}/task/{tid}/stat", "rb") as f:
                state = f.read().rpartition(b")")[2].split()[0]
        except (OSError, IndexError):
            continue
        if state not in (b"T", b"t", b"Z", b"X"):
            return False
    return True


def children(pid: int) -> list[int]:
    """pid's children, from /proc/PID/task/*/children (CONFIG_PROC_CHILDREN)."""
    kids: list[int] = []
    for tid in tasks(pid):
        try:
            with open(f"/proc/{pid}/task/{tid}/children", "rb") as f:
                kids += [int(k) for k in f.read().split()]
        except OSError:
            continue
    return kids
