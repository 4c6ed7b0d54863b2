"""Lock down a freshly forked judge worker before it imports a candidate's file.

Stdlib and ctypes only (never NumPy). Off Linux every function is a no-op returning 0, False
or [] (restrict_files raises SandboxUnavailable), so the module imports on macOS. A layer, once
applied, holds for good and is inherited by later threads and children: apply them right
after fork, while the worker has a single thread.

- ``restrict_files`` (Landlock). Handles every filesystem right the running ABI knows; ``read``
  paths get read-file, read-dir, execute beneath them, ``write`` paths every right. Nothing
  else can be opened, created, removed, linked or renamed, even through a directory fd opened
  earlier or an O_PATH fd. Nothing is readable unless passed: the caller lists e.g. the stdlib
  and NumPy folders, ``/dev/null`` under ``write`` (writing it is a write), ``/proc/self`` if
  wanted (``os.urandom`` uses getrandom(2), no file). ABI >= 4: no TCP bind or connect.
  ABI >= 6: no signal (kill, tgkill, SIGIO via F_SETOWN...) to, and no abstract Unix socket
  connect to, a process outside the domain. At every ABI: no ptrace-like access (ptrace,
  process_vm_*, /proc/PID/mem) to processes outside it. Not covered: fds already open (the
  pipe to the judge keeps working), path lookup and stat (names outside can be seen to exist),
  pathname Unix sockets and UDP (seccomp's part: no socket is made or connected).
- ``forbid_processes``: the seccomp filter, in ``dojo/worker/seccomp.py``.
- ``drop_capabilities``: a worker of a judge run as root keeps no capability.
- ``limit_resources`` (setrlimit): address space, core files (0), file size, open files
  (a write past RLIMIT_FSIZE fails with EFBIG: CPython ignores SIGXFSZ).
- ``die_with_parent``, ``become_subreaper``, ``descendants``, ``kill_tree``: process hygiene.
  PR_SET_PDEATHSIG fires when the parent *thread* that forked exits. ``kill_tree`` stops the
  tree level by level before killing it (nothing forks away meanwhile; a subreaper keeps the
  orphans). The walk over threads and children reads /proc (``dojo/worker/procfs.py``).
"""
from __future__ import annotations

import ctypes
import errno
import os
import resource
import signal
import stat
import sys
import time
from pathlib import Path

from dojo.worker import procfs

_LINUX = sys.platform.startswith("linux")

class SandboxUnavailable(RuntimeError):
    """A restriction was asked for and cannot be applied on this machine."""


_libc = None


def _load():
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
        _libc.syscall.restype = ctypes.c_long
        _libc.prctl.restype = ctypes.c_int
    return _libc


def _syscall(nr: int, *args) -> tuple[int, int]:
    """(result, errno) of syscall(nr, *args); ints become c_long, other args pass as they are."""
    _load()
    conv = [ctypes.c_long(a) if isinstance(a, int) else a for a in args]
    ctypes.set_errno(0)
    result = _libc.syscall(ctypes.c_long(nr), *conv)
    return result, ctypes.get_errno()


def _prctl(option: int, arg2: int = 0, arg3=0) -> tuple[int, int]:
    ctypes.set_errno(0)
    arg3 = ctypes.c_ulong(arg3) if isinstance(arg3, int) else arg3
    result = _load().prctl(ctypes.c_int(option), ctypes.c_ulong(arg2), arg3, ctypes.c_ulong(0),
                           ctypes.c_ulong(0))
    return result, ctypes.get_errno()


_PR_SET_PDEATHSIG, _PR_SET_SECCOMP, _PR_SET_CHILD_SUBREAPER, _PR_SET_NO_NEW_PRIVS = 1, 22, 36, 38


def _no_new_privs() -> None:
    result, err = _prctl(_PR_SET_NO_NEW_PRIVS, 1)
    if result != 0:
        raise SandboxUnavailable(f"prctl(PR_SET_NO_NEW_PRIVS) failed: {os.strerror(err)}")


# -- Landlock ---------------------------------------------------------------------------------
_LL_CREATE, _LL_ADD_RULE, _LL_RESTRICT = 444, 445, 446  # same numbers on x86_64 and aarch64
_LL_VERSION = 1 << 0
_LL_RULE_PATH_BENEATH = 1
(_EXECUTE, _WRITE_FILE, _READ_FILE, _READ_DIR) = (1 << 0, 1 << 1, 1 << 2, 1 << 3)
_REFER, _TRUNCATE, _IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
_FILE_RIGHTS = _EXECUTE | _WRITE_FILE | _READ_FILE | _TRUNCATE | _IOCTL_DEV
_READ_RIGHTS = _EXECUTE | _READ_FILE | _READ_DIR
_NET_BIND_TCP, _NET_CONNECT_TCP = 1 << 0, 1 << 1
_SCOPE_ABSTRACT_UNIX_SOCKET, _SCOPE_SIGNAL = 1 << 0, 1 << 1


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def landlock_abi() -> int:
    """The kernel's Landlock ABI version, 0 when unavailable (not Linux, old kernel, disabled,
    seccomp-blocked)."""
    if not _LINUX:
        return 0
    try:
        result, _ = _syscall(_LL_CREATE, None, 0, _LL_VERSION)
    except (OSError, AttributeError):
        return 0
    return max(int(result), 0)


def _handled_fs(abi: int) -> int:
    """ABI 1: EXECUTE .. MAKE_SYM; 2: + REFER; 3: + TRUNCATE; 5: + IOCTL_DEV."""
    return ((1 << 13) - 1 | (_REFER if abi >= 2 else 0) | (_TRUNCATE if abi >= 3 else 0)
            | (_IOCTL_DEV if abi >= 5 else 0))


def restrict_files(read: list[Path | str], write: list[Path | str]) -> int:
    """Set PR_SET_NO_NEW_PRIVS, then apply a Landlock ruleset to the calling thread and the
    threads and children it creates later (so: call it while the process has one thread). See
    the module docstring for what is allowed. Nonexistent paths are skipped. Returns the ABI
    used; raises SandboxUnavailable when Landlock cannot be applied (also off Linux)."""
    abi = landlock_abi()
    if abi <= 0:
        raise SandboxUnavailable(
            "Landlock is unavailable here (needs Linux >= 5.13 with Landlock enabled among the "
            "LSMs, e.g. lsm=landlock,...); the file restriction cannot be applied")
    _no_new_privs()
    handled = _handled_fs(abi)
    attr = _RulesetAttr(handled_access_fs=handled)
    size = 8
    if abi >= 4:
        attr.handled_access_net, size = _NET_BIND_TCP | _NET_CONNECT_TCP, 16
    if abi >= 6:
        attr.scoped, size = _SCOPE_ABSTRACT_UNIX_SOCKET | _SCOPE_SIGNAL, 24
    ruleset, err = _syscall(_LL_CREATE, ctypes.byref(attr), size, 0)
    if ruleset < 0:
        raise SandboxUnavailable(f"landlock_create_ruleset failed: {os.strerror(err)}")
    try:
        for paths, rights in ((read, _READ_RIGHTS), (write, handled)):
            for path in paths:
                try:
                    fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
                except FileNotFoundError:
                    continue
                try:
                    allowed = rights & handled
                    if not stat.S_ISDIR(os.fstat(fd).st_mode):
                        allowed &= _FILE_RIGHTS
                    rule = _PathBeneath(allowed_access=allowed, parent_fd=fd)
                    result, err = _syscall(_LL_ADD_RULE, ruleset, _LL_RULE_PATH_BENEATH,
                                           ctypes.byref(rule), 0)
                    if result != 0:
                        raise SandboxUnavailable(
                            f"landlock_add_rule({path}) failed: {os.strerror(err)}")
                finally:
                    os.close(fd)
        result, err = _syscall(_LL_RESTRICT, ruleset, 0)
        if result != 0:
            raise SandboxUnavailable(f"landlock_restrict_self failed: {os.strerror(err)}")
    finally:
        os.close(ruleset)
    return abi


# -- capabilities -----------------------------------------------------------------------------
_PR_CAPBSET_DROP, _PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL = 24, 47, 4
_CAPSET = {"x86_64": 126, "amd64": 126, "aarch64": 91, "arm64": 91}  # capset(2) by machine
_CAPABILITY_VERSION_3 = 0x20080522


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]


def drop_capabilities() -> bool:
    """Give up every capability, for good: the bounding and ambient sets emptied, then the
    effective, permitted and inheritable ones (capset). A judge run as root has them all, and a
    worker that kept them could make device nodes, poison pages the judge reads, lock files
    against removal... The worker keeps its user, so its own files stay its own. True when
    nothing is left; False off Linux or where the kernel refused."""
    nr = _CAPSET.get(os.uname().machine.lower()) if _LINUX else None
    if nr is None:
        return False
    for cap in range(64):  # up to the last the kernel knows (EINVAL past it); EPERM: none to drop
        result, err = _prctl(_PR_CAPBSET_DROP, cap)
        if result != 0 and err != errno.EPERM:
            break
    _prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL)
    header, data = _CapHeader(_CAPABILITY_VERSION_3, 0), (_CapData * 2)()
    result, _ = _syscall(nr, ctypes.byref(header), ctypes.byref(data))
    return result == 0


# -- resources and process hygiene ------------------------------------------------------------
def limit_resources(address_space: int | None, file_size: int | None = 64 * 2**20,
                    open_files: int | None = 256) -> None:
    """setrlimit: RLIMIT_AS (soft and hard) to ``address_space`` bytes when given, RLIMIT_CORE
    to 0, RLIMIT_FSIZE to ``file_size``, RLIMIT_NOFILE to ``open_files`` (None: unchanged). A
    limit is never raised above its current hard value."""
    if not _LINUX:
        return
    wanted = [(resource.RLIMIT_AS, address_space), (resource.RLIMIT_CORE, 0),
              (resource.RLIMIT_FSIZE, file_size), (resource.RLIMIT_NOFILE, open_files)]
    for which, value in wanted:
        if value is None:
            continue
        _, hard = resource.getrlimit(which)
        if hard != resource.RLIM_INFINITY:
            value = min(value, hard)
        resource.setrlimit(which, (value, value))


def die_with_parent(signal_number: int = signal.SIGKILL, parent: int | None = None) -> None:
    """prctl(PR_SET_PDEATHSIG, signal_number); then, if the parent already died (getppid() is
    no longer ``parent``, or is 1 when ``parent`` is None), os._exit(1) at once."""
    if not _LINUX:
        return
    _prctl(_PR_SET_PDEATHSIG, int(signal_number))
    ppid = os.getppid()
    if ppid != parent if parent is not None else ppid == 1:
        os._exit(1)


def become_subreaper() -> bool:
    """prctl(PR_SET_CHILD_SUBREAPER, 1): orphaned descendants are reparented to this process.
    False where unsupported."""
    if not _LINUX:
        return False
    try:
        return _prctl(_PR_SET_CHILD_SUBREAPER, 1)[0] == 0
    except (OSError, AttributeError):
        return False


def descendants(pid: int) -> list[int]:
    """Every live (not zombie) descendant of pid, parents before children, from /proc/*/stat;
    [] off Linux."""
    if not _LINUX:
        return []
    state: dict[int, bytes] = {}
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        try:
            with open(f"/proc/{name}/stat", "rb") as f:  # the name may hold spaces or ')'
                fields = f.read().rpartition(b")")[2].split()
            state[int(name)] = fields[0]
            children.setdefault(int(fields[1]), []).append(int(name))
        except (OSError, ValueError, IndexError):
            continue
    found, queue = [], list(children.get(pid, ()))
    while queue:
        p = queue.pop(0)
        if state[p] not in (b"Z", b"X"):
            found.append(p)
        queue.extend(children.get(p, ()))
    return found


def _signal(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def kill_tree(pid: int) -> None:
    """SIGSTOP pid, then level by level its descendants: once a level is seen stopped (so its
    children cannot change), its children are read and stopped; then SIGKILL them all and pid.
    Gone processes are ignored; nothing is reaped (the caller waits for its own child). Not
    covered: a tree member that resumes a stopped one (SIGCONT) before the kill may leave
    orphans, which go to the nearest subreaper. Off Linux only pid itself is killed."""
    if not _LINUX:
        _signal(pid, signal.SIGKILL)
        return
    _signal(pid, signal.SIGSTOP)
    found, frontier = [pid], [pid]
    fast = os.path.exists(f"/proc/{os.getpid()}/task/{os.getpid()}/children")
    deadline = time.monotonic() + 5.0
    while frontier and time.monotonic() < deadline:
        if not all(procfs.stopped(p) for p in frontier):
            time.sleep(0.0005)
            continue
        if fast:
            new = [kid for p in frontier for kid in procfs.children(p)]
        else:  # the slower walk over all of /proc
            new = [d for d in descendants(pid) if d not in found]
        for p in new:
            _signal(p, signal.SIGSTOP)
        found += new
        frontier = new
    for p in dict.fromkeys(found[1:] + descendants(pid)):
        _signal(p, signal.SIGKILL)
    _signal(pid, signal.SIGKILL)
