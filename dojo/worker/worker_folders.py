"""A worker's temporary folder: made with the judge's process id in its name, and removed even
when the worker locked it.

The worker may write in its folder, and a worker running as root can set the immutable or
append-only attribute on what it made there (``chattr +i``: an ioctl, which the sandbox does not
refuse on a file the worker may write), so that a plain ``rmtree`` leaves the folder behind.
``remove`` clears those two attributes (the judge runs as the same user) as it goes, never
recurses (a worker may nest folders thousands deep), and reports once what it cannot remove.
``sweep`` removes the folders of judges that are gone (one killed before it could clean up), so
nothing piles up. Stdlib only.
"""

from __future__ import annotations

import os
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
    """Remove ``path`` and everything in it, locked or not, however deep; False (said once) if it
    cannot be. Never raises."""
    try:
        if not os.path.lexists(path):
            return True
        _remove_tree(str(path))
        return True
    except (OSError, ValueError) as e:
        if str(path) not in _reported:
            _reported.add(str(path))
            print(f"dojo: could not remove a worker's temporary folder {path} "
                  f"({getattr(e, 'strerror', None) or e}); remove it by hand", file=sys.stderr)
        return False


_FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)


def _remove_tree(path: str) -> None:
    """Remove a folder tree in time linear in its size, without recursion, long paths or more
    than two descriptors at once (a worker may nest folders many thousands deep): go down one
    folder at a time, removing files, and back up through "..", removing each emptied folder.
    Every entry's immutable and append-only attributes are cleared before it is touched."""
    _clear(path)
    fd = os.open(path, _FOLDER)
    above: list[tuple[str, list[str]]] = []  # per level: this folder's name, its parent's folders left
    left = _files_removed(fd)
    try:
        while True:
            if left:
                name = left.pop()
                _clear_at(fd, name)
                child = os.open(name, _FOLDER, dir_fd=fd)
                os.close(fd)
                fd = child
                above.append((name, left))
                left = _files_removed(fd)
                continue
            if not above:
                break
            parent = os.open("..", _FOLDER, dir_fd=fd)
            os.close(fd)
            fd = parent
            name, left = above.pop()
            os.rmdir(name, dir_fd=fd)
    finally:
        os.close(fd)
    os.rmdir(path)


def _files_removed(folder_fd: int) -> list[str]:
    """Remove the files (and links, FIFOs...) of the open folder; the names of its folders."""
    folders = []
    for entry in list(os.scandir(folder_fd)):
        if entry.is_dir(follow_symlinks=False):
            folders.append(entry.name)
        else:
            _clear_at(folder_fd, entry.name)
            os.unlink(entry.name, dir_fd=folder_fd)
    return folders


def _clear_at(folder_fd: int, name: str) -> None:
    """Clear the locks of ``name`` in the folder open as ``folder_fd`` (files and folders only):
    its attributes, and a folder's permissions (a worker may chmod a folder to 000, and a user
    without root's override could then neither list nor empty it; its owner may always chmod it)."""
    try:
        mode = os.lstat(name, dir_fd=folder_fd).st_mode
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
            return  # a link, a FIFO, a device: its own attributes do not keep its folder
        if stat.S_ISDIR(mode) and stat.S_IMODE(mode) & 0o700 != 0o700:
            os.chmod(name, 0o700, dir_fd=folder_fd)  # a folder, not a link: lstat said so
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=folder_fd)
    except OSError:
        return
    _clear_fd(fd)


def _clear(path: str) -> None:
    try:
        if stat.S_ISDIR(os.lstat(path).st_mode) and stat.S_IMODE(os.lstat(path).st_mode) & 0o700 != 0o700:
            os.chmod(path, 0o700)
        fd = os.open(path, _FOLDER)
    except OSError:
        return
    _clear_fd(fd)


def _clear_fd(fd: int) -> None:
    """Clear the immutable and append-only attributes of the open ``fd``, then close it."""
    try:
        import array
        import fcntl

        flags = array.array("i", [0])
        fcntl.ioctl(fd, _GETFLAGS, flags, True)
        if flags[0] & _LOCKS:
            flags[0] &= ~_LOCKS
            fcntl.ioctl(fd, _SETFLAGS, flags)
    except (OSError, ImportError):
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
