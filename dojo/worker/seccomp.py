"""The worker's seccomp-BPF filter (x86_64 and aarch64; elsewhere nothing is installed): what
system calls a worker may not make, installed right after the fork with the other layers of
``dojo/worker/sandbox.py``.

EPERM for fork, vfork, execve, execveat, clone without CLONE_THREAD (threads stay allowed),
ptrace, process_vm_readv/writev, pidfd_getfd, process_madvise, pidfd_send_signal (whatever
the target: it is an fd, which a filter cannot see), socket, socketpair, connect, bind,
listen, accept, accept4 and io_uring_setup (the channel it was given is all the network a
worker has), memfd_create, memfd_secret, shmget and shmat, and mmap of shared anonymous
memory (no memory the judge's counts cannot see, and no SysV segment left behind), vmsplice,
splice, tee, SysV message queues and semaphores, POSIX message queues (mq_open), keys
(add_key, keyctl, request_key), bpf and userfaultfd (no kernel memory to keep a call's data in,
and nothing left behind: stop 53's hostile round kept a 31 MiB matrix in pipes and in message
queues), mknod and mknodat (no device node: a root worker wrote the kernel log through one),
perf_event_open and fanotify_init, prctl(PR_SET_DUMPABLE) (a worker that is not dumpable hides
its /proc files, maps and memory counts included, from a judge that is not root), setpriority
and ioprio_set, prlimit64 and sched_set{param,scheduler,affinity,attr} on any process but
itself (by its pid or 0: never the judge's or the zygote's), and for kill, tkill, tgkill,
rt_sigqueueinfo, rt_tgsigqueueinfo whose first argument (its low 32 bits, the pid_t the
kernel reads) is not the pid read at install time: kill(0, -1 or -pgid) is refused,
tgkill(own pid, tid) reaches own threads only, tkill only the main thread. clone3 gets ENOSYS
(its flags are in memory a filter cannot read; glibc falls back to clone). A foreign
architecture (i386 int 0x80, AArch32) or an x32 syscall number kills the process. Not
covered: SIGIO/F_SETOWN, unshare, setns, kcmp, /proc/PID/mem (Landlock's part).
"""
from __future__ import annotations

import ctypes
import errno
import os
import platform
import sys

from dojo.worker import sandbox
from dojo.worker.sandbox import _PR_SET_SECCOMP, SandboxUnavailable, _no_new_privs, _prctl, _syscall

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
    "sched_setattr": (314, 274),
    # kernel memory a call could keep data in, out of the judge's memory count (stop 53's round)
    "vmsplice": (278, 75), "splice": (275, 76), "tee": (276, 77), "msgget": (68, 186), "msgsnd": (69, 189),
    "msgrcv": (70, 188), "msgctl": (71, 187), "semget": (64, 190), "semop": (65, 193), "semctl": (66, 191),
    "semtimedop": (220, 192), "mq_open": (240, 180), "add_key": (248, 217), "keyctl": (250, 219),
    "request_key": (249, 218), "bpf": (321, 280), "userfaultfd": (323, 282),
    # devices and kernel events (a root worker made a /dev/kmsg node in its folder and wrote to it)
    "mknod": (133, None), "mknodat": (259, 33), "perf_event_open": (298, 241), "fanotify_init": (300, 262),
    "prctl": (157, 167)}
_PR_SET_DUMPABLE = 4  # a worker that is not dumpable hides its /proc files from a judge that is not root
_DENIED = ("fork", "vfork", "execve", "execveat", "ptrace", "process_vm_readv",
           "process_vm_writev", "pidfd_getfd", "process_madvise", "pidfd_send_signal",
           # no new socket, and no connection: the worker keeps the channel it was given, and
           # cannot reach a warm judge's (pathname) socket, nor send a datagram anywhere
           "socket", "socketpair", "connect", "bind", "listen", "accept", "accept4", "io_uring_setup",
           # no memory the judge's count cannot see, no SysV segment to outlive the worker
           "memfd_create", "memfd_secret", "shmget", "shmat", "setpriority", "ioprio_set",  # (the zygote set idle)
           # nor kernel memory to keep data in (pipes filled by vmsplice, SysV queues and
           # semaphores, POSIX queues, keys, BPF maps), nor a device node, nor kernel events
           "vmsplice", "splice", "tee", "msgget", "msgsnd", "msgrcv", "msgctl", "semget", "semop", "semctl",
           "semtimedop", "mq_open", "add_key", "keyctl", "request_key", "bpf", "userfaultfd",
           "mknod", "mknodat", "perf_event_open", "fanotify_init")
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
    program.append((_JEQ, nr["prctl"], "prctl", 0))
    program += [(_RET, _RET_ALLOW, 0, 0),
                "mmap", (_LD_ABS, _OFF_ARG3_LOW, 0, 0), (_JSET, _MAP_ANONYMOUS, 0, "allow"),
                (_JSET, _MAP_SHARED, "eperm", "allow"),
                "clone", (_LD_ABS, _OFF_ARG0_LOW, 0, 0), (_JSET, _CLONE_THREAD, "allow", "eperm"),
                "prctl", (_LD_ABS, _OFF_ARG0_LOW, 0, 0), (_JEQ, _PR_SET_DUMPABLE, "eperm", "allow"),
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
    arch = _arch() if sandbox._LINUX else None  # read here: a test turns it off
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
