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
- ``forbid_processes`` (seccomp-BPF, x86_64 and aarch64; elsewhere nothing is installed).
  EPERM for fork, vfork, execve, execveat, clone without CLONE_THREAD (threads stay allowed),
  ptrace, process_vm_readv/writev, pidfd_getfd, process_madvise, pidfd_send_signal (whatever
  the target: it is an fd, which a filter cannot see), socket, socketpair, connect, bind,
  listen, accept, accept4 and io_uring_setup (the channel it was given is all the network a
  worker has), memfd_create, memfd_secret, shmget and shmat, and mmap of shared anonymous
  memory (no memory the judge's counts cannot see, and no SysV segment left behind), setpriority
  and ioprio_set, prlimit64 and sched_set{param,scheduler,affinity,attr} on any process but
  itself (by its pid or 0: never the judge's or the zygote's), and for kill, tkill, tgkill,
  rt_sigqueueinfo, rt_tgsigqueueinfo whose first argument (its low 32 bits, the pid_t the
  kernel reads) is not the pid read at install time: kill(0, -1 or -pgid) is refused,
  tgkill(own pid, tid) reaches own threads only, tkill only the main thread. clone3 gets ENOSYS
  (its flags are in memory a filter cannot read; glibc falls back to clone). A foreign
  architecture (i386 int 0x80, AArch32) or an x32 syscall number kills the process. Not
  covered: SIGIO/F_SETOWN, unshare, setns, kcmp, /proc/PID/mem (Landlock's part).
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
import platform
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


# -- seccomp ----------------------------------------------------------------------------------
_AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}
_X32_SYSCALL_BIT = 0x40000000
_NR = {  # name: (x86_64, aarch64); None where the architecture has no such syscall
    "fork": (57, None), "vfork": (58, None), "execve": (59, 221), "execveat": (322, 281), "clone": (56, 220),
    "clone3": (435, 435), "ptrace": (101, 117), "process_vm_readv": (310, 270), "process_vm_writev": (311, 271),
    "pidfd_getfd": (438, 438), "process_madvise": (440, 440), "pidfd_send_signal": (424, 424), "kill": (62, 129),
    "tkill": (200, 130), "tgkill": (234, 131), "rt_sigqueueinfo": (129, 138), "rt_tgsigqueueinfo": (297, 240),
    "seccomp": (317, 277), "socket": (41, 198), "socketpair": (53, 199), "connect": (42, 203), "bind": (49, 200),
    "listen": (50, 201), "accept": (43, 202), "accept4": (288, 242), "io_uring_setup": (425, 425),
    "memfd_create": (319, 279), "memfd_secret": (447, 447), "shmget": (29, 194), "shmat": (30, 196),
    "prlimit64": (302, 261), "mmap": (9, 222), "setpriority": (141, 140), "ioprio_set": (251, 30),
    "sched_setparam": (142, 118), "sched_setscheduler": (144, 119), "sched_setaffinity": (203, 122),
    "sched_setattr": (314, 274)}
_DENIED = ("fork", "vfork", "execve", "execveat", "ptrace", "process_vm_readv",
           "process_vm_writev", "pidfd_getfd", "process_madvise", "pidfd_send_signal",
           # no new socket, and no connection: the worker keeps the channel it was given, and
           # cannot reach a warm judge's (pathname) socket, nor send a datagram anywhere
           "socket", "socketpair", "connect", "bind", "listen", "accept", "accept4", "io_uring_setup",
           # no memory the judge's count cannot see, no SysV segment to outlive the worker
           "memfd_create", "memfd_secret", "shmget", "shmat", "setpriority", "ioprio_set")  # (the zygote set idle)
_SELF_ONLY = ("kill", "tkill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo")
#: On this process only, by its pid or 0 (glibc's setrlimit): never the judge's or the zygote's.
_SELF_OR_ZERO = ("prlimit64", "sched_setparam", "sched_setscheduler", "sched_setaffinity", "sched_setattr")
_CLONE_THREAD = 0x00010000
_MAP_SHARED, _MAP_ANONYMOUS = 0x01, 0x20  # MAP_SHARED_VALIDATE (0x03) has the first bit too
_RET_KILL_PROCESS, _RET_ERRNO, _RET_ALLOW = 0x80000000, 0x00050000, 0x7FFF0000
_LD_ABS, _JEQ, _JGE, _JSET, _RET = 0x20, 0x15, 0x35, 0x45, 0x06  # BPF_LD|W|ABS, BPF_JMP|..|K
_OFF_NR, _OFF_ARCH, _OFF_ARG0_LOW, _OFF_ARG3_LOW = 0, 4, 16, 40  # struct seccomp_data, little-endian


class _SockFilter(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint16), ("jt", ctypes.c_uint8), ("jf", ctypes.c_uint8),
                ("k", ctypes.c_uint32)]


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_SockFilter))]


def _assemble(program: list) -> list[tuple[int, int, int, int]]:
    """Resolve labels: items are a label (str) or (code, k, jt, jf) with jt/jf a label or 0."""
    where, code, out = {}, [], []
    for item in program:
        if isinstance(item, str):
            where[item] = len(code)
        else:
            code.append(item)
    for i, (op, k, jt, jf) in enumerate(code):
        jt, jf = (where[j] - i - 1 if isinstance(j, str) else j for j in (jt, jf))
        if not (0 <= jt <= 255 and 0 <= jf <= 255):
            raise ValueError("BPF jump out of range")
        out.append((op, jt, jf, k))
    return out


def _filter(arch: str, pid: int) -> list[tuple[int, int, int, int]]:
    col = 0 if arch == "x86_64" else 1
    nr = {name: numbers[col] for name, numbers in _NR.items() if numbers[col] is not None}
    program: list = [(_LD_ABS, _OFF_ARCH, 0, 0), (_JEQ, _AUDIT_ARCH[arch], 0, "kill"),
                     (_LD_ABS, _OFF_NR, 0, 0)]
    if arch == "x86_64":
        program.append((_JGE, _X32_SYSCALL_BIT, "kill", 0))
    program += [(_JEQ, nr[name], "eperm", 0) for name in _DENIED if name in nr]
    program.append((_JEQ, nr["clone3"], "enosys", 0))
    program.append((_JEQ, nr["clone"], "clone", 0))
    program += [(_JEQ, nr[name], "self", 0) for name in _SELF_ONLY]
    program += [(_JEQ, nr[name], "self_or_zero", 0) for name in _SELF_OR_ZERO]
    program.append((_JEQ, nr["mmap"], "mmap", 0))  # shared anonymous: outside the bounds' RLIMIT_DATA
    program += [(_RET, _RET_ALLOW, 0, 0),
                "mmap", (_LD_ABS, _OFF_ARG3_LOW, 0, 0), (_JSET, _MAP_ANONYMOUS, 0, "allow"),
                (_JSET, _MAP_SHARED, "eperm", "allow"),
                "clone", (_LD_ABS, _OFF_ARG0_LOW, 0, 0), (_JSET, _CLONE_THREAD, "allow", "eperm"),
                "self", (_LD_ABS, _OFF_ARG0_LOW, 0, 0), (_JEQ, pid & 0xFFFFFFFF, "allow", "eperm"),
                "self_or_zero", (_LD_ABS, _OFF_ARG0_LOW, 0, 0), (_JEQ, 0, "allow", 0),
                (_JEQ, pid & 0xFFFFFFFF, "allow", "eperm"),
                "allow", (_RET, _RET_ALLOW, 0, 0),
                "eperm", (_RET, _RET_ERRNO | errno.EPERM, 0, 0),
                "enosys", (_RET, _RET_ERRNO | errno.ENOSYS, 0, 0),
                "kill", (_RET, _RET_KILL_PROCESS, 0, 0)]
    return _assemble(program)


def _arch() -> str | None:
    machine = platform.machine().lower()
    arch = {"amd64": "x86_64", "arm64": "aarch64"}.get(machine, machine)
    return arch if arch in _AUDIT_ARCH and sys.maxsize > 2**32 else None


def forbid_processes() -> bool:
    """Install the seccomp filter described in the module docstring (no new processes, no
    programs, no ptrace-like access, signals only to this process). True when installed; False
    off Linux or on an architecture other than x86_64/aarch64 (nothing installed). Raises
    SandboxUnavailable when the kernel refuses the filter."""
    arch = _arch() if _LINUX else None
    if arch is None:
        return False
    code = _filter(arch, os.getpid())
    array = (_SockFilter * len(code))(*[_SockFilter(c, jt, jf, k) for c, jt, jf, k in code])
    prog = _SockFprog(len(code), array)
    _no_new_privs()
    seccomp_nr = _NR["seccomp"][0 if arch == "x86_64" else 1]
    # SECCOMP_SET_MODE_FILTER with SECCOMP_FILTER_FLAG_TSYNC: every thread gets the filter.
    result, err = _syscall(seccomp_nr, 1, 1, ctypes.byref(prog))
    if result > 0:
        raise SandboxUnavailable(f"seccomp: thread {result} could not be synchronised")
    if result < 0 and err in (errno.ENOSYS, errno.EINVAL):
        result, err = _prctl(_PR_SET_SECCOMP, 2, ctypes.byref(prog))  # SECCOMP_MODE_FILTER
    if result != 0:
        raise SandboxUnavailable(f"installing the seccomp filter failed: {os.strerror(err)}")
    return True


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
