"""A worker's temporary folder: made with the judge's process id in its name, and removed even
when the worker locked it.

The worker may write in its folder, and a worker running as root can set the immutable or
append-only attribute on what it made there (``chattr +i``: an ioctl, which the sandbox does not
refuse on a file the worker may write), so that a plain ``rmtree`` leaves the folder behind.
``remove`` clears those two attributes (the judge runs as the same user) and tries again; what
still cannot be removed is reported once. ``sweep`` removes the folders of judges that are gone
(one killed before it could clean up), so nothing piles up. Stdlib only.
"""

from __future__ import annotations

import os
import shutil
import stat
import sys
import tempfile
from pathlib import Path

PREFIX = "dojo-worker-"
#: ``FS_IOC_GETFLAGS`` / ``FS_IOC_SETFLAGS`` (linux/fs.h, 64-bit) and the flags cleared.
_GETFLAGS, _SETFLAGS = 0x80086601, 0x40086602
_LOCKS = 0x00000010 | 0x00000020  # FS_IMMUTABLE_FL | FS_APPEND_FL

_reported: set[str] = set()
_swept: list[bool] = []


def make() -> str:
    """A new folder for one worker (after sweeping, once per process, what gone judges left)."""
    if not _swept:
        _swept.append(True)
        sweep()
    return tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-")


def remove(path: str | os.PathLike) -> bool:
    """Remove ``path`` and everything in it, locked or not; False (said once) if it cannot be."""
    shutil.rmtree(path, ignore_errors=True)
    if not os.path.lexists(path):
        return True
    _unlock(Path(path))
    try:
        shutil.rmtree(path)
        return True
    except OSError as e:
        if str(path) not in _reported:
            _reported.add(str(path))
            print(f"dojo: could not remove a worker's temporary folder {path} ({e.strerror or e}); "
                  "remove it by hand", file=sys.stderr)
        return False


def _unlock(root: Path) -> None:
    """Clear the immutable and append-only attributes of ``root`` and of all below it (never
    following a symbolic link, never opening anything but files and folders)."""
    _clear(root)
    for folder, dirs, files in os.walk(root):
        for name in (*dirs, *files):
            _clear(Path(folder) / name)


def _clear(path: Path) -> None:
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        return  # a link, a FIFO, a device: its own attributes do not keep its folder
    try:
        import array
        import fcntl

        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except (OSError, ImportError):
        return
    try:
        flags = array.array("i", [0])
        fcntl.ioctl(fd, _GETFLAGS, flags, True)
        if flags[0] & _LOCKS:
            flags[0] &= ~_LOCKS
            fcntl.ioctl(fd, _SETFLAGS, flags)
    except OSError:
        pass
    finally:
        os.close(fd)


def sweep() -> None:
    """Remove this user's worker folders whose judge process is gone."""
    try:
        entries = list(Path(tempfile.gettempdir()).glob(PREFIX + "*-*"))
    except OSError:
        return
    for entry in entries:
        pid = entry.name[len(PREFIX):].split("-", 1)[0]
        try:
            mine = entry.lstat().st_uid == os.getuid() and stat.S_ISDIR(entry.lstat().st_mode)
        except OSError:
            continue
        if mine and pid.isdigit() and not _alive(int(pid)):
            remove(entry)


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, ended but not yet reaped, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except (OSError, IndexError):
        return True  # no /proc (macOS): kill() said it exists
