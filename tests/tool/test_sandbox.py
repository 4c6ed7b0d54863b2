"""``dojo.worker.sandbox``: each restriction is applied in a forked child (none can be undone), which
reports what it observed as JSON lines over a pipe; the assertions run here, in pytest.

Every wait has a deadline: reading polls the pipe, waiting for a process polls its pidfd, and a
child that overruns is killed. Where a refusal is asserted, a control shows the same probe
succeeds without the restriction (or the restriction's absence is what another test checks).
"""

from __future__ import annotations

import ctypes
import errno
import json
import mmap
import os
import stat
import platform
import select
import signal
import socket
import subprocess
import sys
import sysconfig
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from dojo.worker import sandbox, seccomp

#: The worker's sandbox and limits depend on the machine (kernel, Landlock, seccomp): the
#: README's test line runs all of this file.
pytestmark = pytest.mark.smoke

LINUX = sys.platform.startswith("linux")
ABI = sandbox.landlock_abi()
ARCH = seccomp._arch() if LINUX else None
NUMPY_DIR = Path(np.__file__).resolve().parent
STDLIB = Path(sysconfig.get_paths()["stdlib"])
MiB = 2**20

needs_linux = pytest.mark.skipif(not LINUX, reason="needs /proc and pidfds (Linux only)")
needs_landlock = pytest.mark.skipif(ABI == 0, reason="Landlock unavailable on this kernel")
needs_seccomp = pytest.mark.skipif(
    ARCH is None, reason="seccomp filter only for Linux on x86_64 or aarch64")

# -- running a body in a forked child ---------------------------------------------------------
_report_fd: int | None = None


def send(obj) -> None:
    """From a child: one JSON line to the test."""
    data = (json.dumps(obj, default=repr) + "\n").encode()
    while data:
        data = data[os.write(_report_fd, data):]


class Child:
    """fn(*args) runs in a forked child; its return value (or the exception it raised) is
    sent as the last message, then the child exits with os._exit."""

    def __init__(self, fn, *args):
        global _report_fd
        r, w = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # the child: never returns into pytest
            code = 0
            try:
                os.close(r)
                _report_fd = w
                try:
                    send({"result": fn(*args)})
                except BaseException as exc:  # reported, asserted on by the test
                    send({"raised": type(exc).__name__, "errno": getattr(exc, "errno", None),
                          "message": str(exc)})
            except BaseException:
                code = 70
            finally:
                os._exit(code)
        os.close(w)
        self.pidfd = os.pidfd_open(self.pid)
        self.fd, self.buffer, self.status = r, b"", None

    def next(self, timeout: float = 20.0):
        """The next message, or None when the child closed the pipe without sending one."""
        poller = select.poll()
        poller.register(self.fd, select.POLLIN)
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not poller.poll(left * 1000):
                self.kill()
                pytest.fail(f"the child sent nothing within {timeout} s")
            chunk = os.read(self.fd, 65536)
            if not chunk:
                return None
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def wait(self, timeout: float = 20.0) -> int:
        """The child's wait status, once it has ended (killed after ``timeout``)."""
        if self.status is None:
            if not _exited(self.pidfd, timeout):
                self.kill()
                pytest.fail(f"the child did not end within {timeout} s")
            self.status = os.waitpid(self.pid, 0)[1]
        return self.status

    def kill(self) -> None:
        if self.status is None:
            os.kill(self.pid, signal.SIGKILL)
            self.status = os.waitpid(self.pid, 0)[1]

    def close(self) -> None:
        self.kill()
        os.close(self.fd)
        os.close(self.pidfd)


def _exited(pidfd: int, timeout: float) -> bool:
    poller = select.poll()
    poller.register(pidfd, select.POLLIN)
    return bool(poller.poll(timeout * 1000))


def gone(pid: int, timeout: float) -> bool:
    """Whether pid (any process, not only a child) has ended within ``timeout`` seconds."""
    try:
        pidfd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        return _exited(pidfd, timeout)
    finally:
        os.close(pidfd)


def run(fn, *args, timeout: float = 20.0):
    """fn's return value in a child; fails the test if it raised or the child did not exit 0."""
    child = Child(fn, *args)
    try:
        message = child.next(timeout)
        assert message is not None and "result" in message, message
        assert child.wait(timeout) == 0
        return message["result"]
    finally:
        child.close()


def attempt(action) -> str:
    """'ok', or the exception's name and errno: 'PermissionError 13'."""
    try:
        action()
        return "ok"
    except OSError as exc:
        return f"{type(exc).__name__} {exc.errno}"


def open_close(*args, **kwargs) -> None:
    os.close(os.open(*args, **kwargs))


def fork_and_reap() -> None:
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)


REFUSED_LINK = {f"PermissionError {errno.EACCES}", f"PermissionError {errno.EPERM}",
                f"OSError {errno.EXDEV}"}

# -- Landlock ---------------------------------------------------------------------------------


@needs_landlock
def test_files_outside_the_rules_are_out_of_reach(tmp_path):
    inside, outside = tmp_path / "inside", tmp_path / "outside"
    inside.mkdir(), outside.mkdir()
    (outside / "secret.txt").write_text("secret")
    (inside / "mine.txt").write_text("mine")
    readonly = tmp_path / "readonly"
    readonly.mkdir()
    (readonly / "notes.txt").write_text("notes")
    m = np.arange(64.0).reshape(8, 8)
    expected = [float((m @ m.T).sum()), float(np.linalg.norm(m))]

    def body():
        before = attempt(lambda: (outside / "secret.txt").read_text())
        early_dirfd = os.open(outside, os.O_RDONLY | os.O_DIRECTORY)
        abi = sandbox.restrict_files(read=[NUMPY_DIR, STDLIB, readonly],
                                     write=[inside, tmp_path / "does-not-exist"])
        opath = os.open(outside, os.O_PATH)
        return {
            "abi": abi, "before": before,
            "numpy": [float((m @ m.T).sum()), float(np.linalg.norm(m))],
            "stdlib": attempt(lambda: (STDLIB / "colorsys.py").read_text()),
            "read_readonly": attempt(lambda: (readonly / "notes.txt").read_text()),
            "list_readonly": attempt(lambda: os.listdir(readonly)),
            "write_readonly": attempt(lambda: (readonly / "notes.txt").write_text("x")),
            "create_readonly": attempt(lambda: (readonly / "new.txt").write_text("x")),
            "append_readonly": attempt(lambda: open(readonly / "notes.txt", "a").write("x")),
            "read_outside": attempt(lambda: (outside / "secret.txt").read_text()),
            "list_outside": attempt(lambda: os.listdir(outside)),
            "write_inside": attempt(lambda: (inside / "new.txt").write_text("new")),
            "read_inside": attempt(lambda: (inside / "mine.txt").read_text()),
            "rename_within": attempt(lambda: (os.mkdir(inside / "sub"), os.rename(
                inside / "new.txt", inside / "sub" / "new.txt"))),
            "write_outside": attempt(lambda: (outside / "new.txt").write_text("x")),
            "link_in": attempt(lambda: os.link(outside / "secret.txt", inside / "l.txt")),
            "rename_in": attempt(lambda: os.rename(outside / "secret.txt", inside / "m.txt")),
            "link_out": attempt(lambda: os.link(inside / "mine.txt", outside / "l.txt")),
            "rename_out": attempt(lambda: os.rename(inside / "mine.txt", outside / "m.txt")),
            "dirfd_read": attempt(lambda: open_close("secret.txt", os.O_RDONLY,
                                                     dir_fd=early_dirfd)),
            "dirfd_create": attempt(lambda: open_close(
                "made.txt", os.O_WRONLY | os.O_CREAT, 0o600, dir_fd=early_dirfd)),
            "opath_read": attempt(lambda: open_close("secret.txt", os.O_RDONLY, dir_fd=opath)),
        }

    seen = run(body)
    assert seen["abi"] == ABI
    assert seen["before"] == "ok"  # the control: the same read works unrestricted
    assert seen["numpy"] == expected
    assert seen["stdlib"] == seen["read_inside"] == seen["write_inside"] == "ok"
    assert seen["read_readonly"] == seen["list_readonly"] == "ok"
    assert seen["rename_within"] == "ok"  # reparenting inside the writable tree (REFER)
    denied = f"PermissionError {errno.EACCES}"
    for key in ("read_outside", "list_outside", "write_outside", "dirfd_read", "dirfd_create",
                "opath_read", "write_readonly", "create_readonly", "append_readonly"):
        assert seen[key] == denied, key
    for key in ("link_in", "rename_in", "link_out", "rename_out"):
        assert seen[key] in REFUSED_LINK, key
    assert (inside / "sub" / "new.txt").read_text() == "new"
    assert sorted(p.name for p in outside.iterdir()) == ["secret.txt"]
    assert sorted(p.name for p in inside.iterdir()) == ["mine.txt", "sub"]
    assert [p.name for p in readonly.iterdir()] == ["notes.txt"]
    assert (readonly / "notes.txt").read_text() == "notes"


@needs_landlock
def test_a_file_rule_grants_that_file_only(tmp_path):
    (tmp_path / "granted.txt").write_text("granted")
    (tmp_path / "other.txt").write_text("other")

    def body():
        sandbox.restrict_files(read=[tmp_path / "granted.txt"], write=[])
        return [attempt(lambda: (tmp_path / name).read_text()) for name in ("granted.txt",
                                                                            "other.txt")]

    assert run(body) == ["ok", f"PermissionError {errno.EACCES}"]


@pytest.mark.skipif(ABI < 4, reason="Landlock ABI < 4: TCP is not handled")
def test_tcp_bind_and_connect_are_refused():
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]

    def connect():
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass

    def bind():
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))

    def body():
        before = attempt(connect)
        sandbox.restrict_files(read=[], write=[])
        return [before, attempt(connect), attempt(bind)]

    try:
        before, after, bound = run(body)
    finally:
        server.close()
    assert before == "ok"
    assert after.startswith("PermissionError") and bound.startswith("PermissionError")


@pytest.mark.skipif(ABI < 6, reason="Landlock ABI < 6: no signal or abstract socket scoping")
def test_signals_and_abstract_sockets_stay_inside_the_domain():
    parent = os.getpid()
    server = socket.socket(socket.AF_UNIX)
    server.bind(f"\0dojo-sandbox-test-{parent}")
    server.listen(4)

    def connect():
        with socket.socket(socket.AF_UNIX) as s:
            s.connect(f"\0dojo-sandbox-test-{parent}")

    def body():
        before = [attempt(lambda: os.kill(parent, 0)), attempt(connect)]
        sandbox.restrict_files(read=[], write=[])
        return before + [attempt(lambda: os.kill(parent, 0)),
                         attempt(lambda: os.kill(os.getpid(), 0)), attempt(connect)]

    try:
        seen = run(body)
    finally:
        server.close()
    assert seen[:2] == ["ok", "ok"]
    assert seen[2:] == [f"PermissionError {errno.EPERM}", "ok", f"PermissionError {errno.EPERM}"]


# -- the parent's memory ----------------------------------------------------------------------
class _Iovec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]


def _vm_call(name: str, pid: int, address: int, data: bytes) -> int:
    """process_vm_writev / process_vm_readv of len(data) bytes at the parent's address: the
    byte count, or -errno."""
    libc = ctypes.CDLL(None, use_errno=True)
    call = getattr(libc, name)
    call.restype = ctypes.c_ssize_t
    call.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_ulong, ctypes.c_void_p,
                     ctypes.c_ulong, ctypes.c_ulong]
    local = ctypes.create_string_buffer(data, len(data))
    mine, theirs = _Iovec(ctypes.addressof(local), len(data)), _Iovec(address, len(data))
    n = call(pid, ctypes.byref(mine), 1, ctypes.byref(theirs), 1, 0)
    return n if n >= 0 else -ctypes.get_errno()


@pytest.mark.parametrize("layer", ["none", "landlock", "seccomp"])
def test_the_parents_memory_cannot_be_written(layer):
    if layer == "landlock" and ABI == 0:
        pytest.skip("Landlock unavailable on this kernel")
    if layer == "seccomp" and ARCH is None:
        pytest.skip("seccomp filter only for x86_64 or aarch64")
    if not LINUX:
        pytest.skip("process_vm_writev is Linux only")
    buffer = ctypes.create_string_buffer(b"A" * 64, 64)
    parent, address = os.getpid(), ctypes.addressof(buffer)

    def body():
        if layer == "landlock":
            sandbox.restrict_files(read=[], write=[])
        elif layer == "seccomp":
            seccomp.forbid_processes()
        return [_vm_call("process_vm_writev", parent, address, b"B" * 64),
                _vm_call("process_vm_readv", parent, address, b"\0" * 64)]

    written, read = run(body)
    if layer == "none":  # the control: the probe works when nothing refuses it
        if written == -errno.EPERM:
            pytest.skip("process_vm_writev to the parent is refused here even unrestricted")
        assert (written, read, buffer.raw) == (64, 64, b"B" * 64)
    else:
        assert (written, read) == (-errno.EPERM, -errno.EPERM)
        assert buffer.raw == b"A" * 64


# -- seccomp ----------------------------------------------------------------------------------
@needs_seccomp
def test_no_process_or_program_but_threads_numpy_and_own_signals():
    parent = os.getpid()
    m = np.random.default_rng(0).standard_normal((300, 300))
    expected = float(np.linalg.norm(m @ m))
    # ptrace's target: a bystander, not pytest (were the filter to let it through, a traced
    # pytest would stop)
    bystander = subprocess.Popen(["sleep", "60"])

    def body():
        installed = seccomp.forbid_processes()
        ran = []
        thread = threading.Thread(target=lambda: ran.append(threading.get_native_id()))
        thread.start()
        thread.join(10)
        got = []
        signal.signal(signal.SIGUSR1, lambda *_: got.append("USR1"))
        os.kill(os.getpid(), signal.SIGUSR1)
        libc = ctypes.CDLL(None, use_errno=True)
        libc.ptrace.restype = ctypes.c_long
        ptrace = libc.ptrace(ctypes.c_long(16), ctypes.c_long(bystander.pid), None, None)
        ptrace_errno = ctypes.get_errno()
        clone3 = libc.syscall(ctypes.c_long(435), None, ctypes.c_long(0))
        clone3_errno = ctypes.get_errno()
        return {
            "installed": installed, "fork": attempt(fork_and_reap),
            "run": attempt(lambda: subprocess.run(["true"], check=True)),
            "spawn": attempt(lambda: os.posix_spawn("/bin/true", ["true"], os.environ)),
            "exec": attempt(lambda: os.execv("/bin/true", ["true"])),
            "thread": [bool(ran), thread.is_alive()],
            "numpy": float(np.linalg.norm(m @ m)), "own_signal": got,
            "kill_self": attempt(lambda: os.kill(os.getpid(), 0)),
            "pthread_kill": attempt(lambda: signal.pthread_kill(threading.get_ident(), 0)),
            "kill_parent": attempt(lambda: os.kill(parent, 0)),
            "pidfd_signal": attempt(lambda: signal.pidfd_send_signal(os.pidfd_open(parent), 0)),
            "kill_group": attempt(lambda: os.kill(0, 0)),
            "kill_all": attempt(lambda: os.kill(-1, 0)),
            "ptrace": [ptrace, ptrace_errno], "clone3": [clone3, clone3_errno],
        }

    try:
        seen = run(body)
    finally:
        bystander.kill()
        bystander.wait()
    eperm = f"PermissionError {errno.EPERM}"
    assert seen["installed"] is True
    for key in ("fork", "run", "spawn", "exec", "kill_parent", "kill_group", "kill_all",
                "pidfd_signal"):
        assert seen[key] == eperm, key
    assert seen["thread"] == [True, False]
    assert seen["numpy"] == pytest.approx(expected, rel=1e-12)
    assert seen["own_signal"] == ["USR1"]
    assert seen["kill_self"] == seen["pthread_kill"] == "ok"
    assert seen["ptrace"] == [-1, errno.EPERM]  # PTRACE_ATTACH
    assert seen["clone3"] == [-1, errno.ENOSYS]


def test_shared_anonymous_memory_is_refused_and_private_or_file_mappings_are_not(tmp_path):
    """Shared anonymous memory is outside RLIMIT_DATA, which the memory bounds set (dojo/worker/
    memory.py): refused. Private anonymous memory (NumPy's, malloc's) and a shared mapping of a
    file (how a worker gets its inputs) stay allowed."""
    path = tmp_path / "pages"
    path.write_bytes(b"\0" * mmap.PAGESIZE)

    def body():
        installed = seccomp.forbid_processes()
        big = np.ones(4 * 2**20)  # 32 MiB: malloc maps it, private and anonymous
        with open(path, "r+b") as f:
            shared_file = attempt(lambda: mmap.mmap(f.fileno(), mmap.PAGESIZE, mmap.MAP_SHARED).close())
        return {"installed": installed, "numpy": float(big.sum()),
                "shared_anonymous": attempt(lambda: mmap.mmap(-1, 2**20)),
                "private_anonymous": attempt(lambda: mmap.mmap(-1, 2**20, flags=mmap.MAP_PRIVATE).close()),
                "shared_file": shared_file}

    seen = run(body)
    assert seen["installed"] is True and seen["numpy"] == 4 * 2**20
    assert seen["shared_anonymous"] == f"PermissionError {errno.EPERM}"
    assert seen["private_anonymous"] == seen["shared_file"] == "ok"


@needs_seccomp
def test_no_kernel_memory_to_keep_data_in_and_no_device_node(tmp_path):
    """Stop 53's hostile round kept a flash attention's whole 31 MiB bias where the memory count
    cannot see it: in pipes filled by vmsplice, and in SysV message queues (which, like its
    semaphores, outlive the worker); and a root worker made a /dev/kmsg node in its folder and
    wrote to the kernel log; one call of prctl(PR_SET_DUMPABLE, 0) hid a worker's /proc files from a
judge that is not root. These calls are refused; a pipe itself, read and written, is not."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long

    def call(name, *args):
        nr = seccomp._NR[name][0 if ARCH == "x86_64" else 1]
        ctypes.set_errno(0)
        result = libc.syscall(ctypes.c_long(nr), *[ctypes.c_long(a) for a in args])
        return [int(result), ctypes.get_errno()] if result < 0 else ["ok"]

    def body():
        installed = seccomp.forbid_processes()
        r, w = os.pipe()
        os.write(w, b"x")
        piped = os.read(r, 1) == b"x"
        page = ctypes.create_string_buffer(4096)
        iov = (ctypes.c_void_p * 2)(ctypes.addressof(page), 4096)
        return {"installed": installed, "pipe": piped,
                "vmsplice": call("vmsplice", w, ctypes.addressof(iov), 1, 0),
                "splice": call("splice", r, 0, w, 0, 4096, 0),
                "msgget": call("msgget", 0, 0o1600), "semget": call("semget", 0, 1, 0o1600),
                "mq_open": call("mq_open", 0, 0, 0, 0), "add_key": call("add_key", 0, 0, 0, 0, 0),
                "bpf": call("bpf", 0, 0, 0), "userfaultfd": call("userfaultfd", 0),
                "undumpable": call("prctl", 4, 0, 0, 0, 0), "dumpable": call("prctl", 3, 0, 0, 0, 0),
                "mknod": attempt(lambda: os.mknod(str(tmp_path / "kmsg"), 0o600 | stat.S_IFCHR, os.makedev(1, 11)))}

    seen = run(body)
    assert seen.pop("installed") is True and seen.pop("pipe") is True
    assert seen.pop("dumpable") == ["ok"]  # PR_GET_DUMPABLE: other prctl options stay allowed
    assert seen.pop("mknod") == f"PermissionError {errno.EPERM}" and not (tmp_path / "kmsg").exists()
    assert seen == dict.fromkeys(seen, [-1, errno.EPERM]), seen


@needs_linux
def test_a_worker_keeps_no_capability():
    """A judge run as root forks root workers: with root's capabilities a worker could make
    device nodes, poison pages the judge reads or lock its folder against removal."""
    def body():
        dropped = sandbox.drop_capabilities()
        status = dict(line.split(":", 1) for line in open("/proc/self/status").read().splitlines() if ":" in line)
        return [dropped] + [int(status[k], 16) for k in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb")]

    assert run(body) == [True, 0, 0, 0, 0, 0]


def test_no_other_process_is_reniced_pinned_or_rescheduled():
    """A hostile round set the zygote (its parent, outside the sandbox) to nice 19, SCHED_IDLE
    and one CPU, and every later worker inherited it: setpriority and ioprio_set are refused,
    and the sched_set* calls reach the worker itself only (by pid 0 or its own)."""
    import os

    def body():  # each call asks for what the process has already: allowed, it would change nothing
        installed = seccomp.forbid_processes()
        parent = os.getppid()
        cpus, nice, policy = os.sched_getaffinity(0), os.getpriority(os.PRIO_PROCESS, 0), os.sched_getscheduler(0)
        return {"installed": installed,
                "nice_parent": attempt(lambda: os.setpriority(os.PRIO_PROCESS, parent, nice)),
                "nice_self": attempt(lambda: os.setpriority(os.PRIO_PROCESS, 0, nice)),
                "pin_parent": attempt(lambda: os.sched_setaffinity(parent, cpus)),
                "idle_parent": attempt(lambda: os.sched_setscheduler(parent, policy, os.sched_param(0))),
                "param_parent": attempt(lambda: os.sched_setparam(parent, os.sched_param(0))),
                "pin_self": attempt(lambda: os.sched_setaffinity(0, cpus)),
                "pin_self_by_pid": attempt(lambda: os.sched_setaffinity(os.getpid(), cpus))}

    before = (os.getpriority(os.PRIO_PROCESS, 0), os.sched_getaffinity(0), os.sched_getscheduler(0))
    seen = run(body)
    assert seen.pop("installed") is True
    eperm = f"PermissionError {errno.EPERM}"
    assert {k: v for k, v in seen.items() if not k.startswith("pin_self")} == dict.fromkeys(
        ("nice_parent", "nice_self", "pin_parent", "idle_parent", "param_parent"), eperm)
    assert seen["pin_self"] == seen["pin_self_by_pid"] == "ok"
    assert (os.getpriority(os.PRIO_PROCESS, 0), os.sched_getaffinity(0), os.sched_getscheduler(0)) == before


@pytest.mark.skipif(ARCH != "x86_64", reason="x32 syscall numbers exist on x86_64 only")
def test_an_x32_syscall_kills_the_process():
    def body():
        sandbox.limit_resources(None)  # no core file from the SIGSYS
        seccomp.forbid_processes()
        send("installed")
        libc = ctypes.CDLL(None, use_errno=True)
        libc.syscall(ctypes.c_long(0x40000000 | 39))  # getpid through the x32 ABI
        return "survived"

    child = Child(body)
    try:
        assert child.next() == "installed"
        assert child.next() is None
        status = child.wait()
    finally:
        child.close()
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGSYS


@needs_linux
def test_an_unknown_architecture_installs_nothing():
    def body():
        platform.machine = lambda: "riscv64"  # in the child only
        return [seccomp.forbid_processes(), attempt(fork_and_reap)]

    assert run(body) == [False, "ok"]


def test_the_filter_jumps_stay_inside_the_program():
    for arch in ("x86_64", "aarch64"):
        code = seccomp._filter(arch, 4321)
        assert code[-1] == (0x06, 0, 0, 0x80000000)  # the last: kill the process
        for i, (op, jt, jf, _k) in enumerate(code):
            if op & 0x07 == 0x05:  # a jump
                assert i + 1 + max(jt, jf) < len(code)
        assert (0x15, 0, 1, 4321) in code  # the own-pid test
    x86, arm = seccomp._filter("x86_64", 1), seccomp._filter("aarch64", 1)
    assert (x86[1][3], arm[1][3]) == (0xC000003E, 0xC00000B7)  # AUDIT_ARCH_*
    assert x86[3][:1] == (0x35,) and all(op != 0x35 for op, *_ in arm)  # x32 check: x86 only


# -- resources --------------------------------------------------------------------------------
@needs_linux
def test_limits_make_allocation_fail_softly(tmp_path):
    def body():
        with open("/proc/self/status") as f:
            vm = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize:"))
        sandbox.limit_resources(address_space=vm + 512 * MiB, file_size=1 * MiB, open_files=64)
        import resource
        limits = [resource.getrlimit(r) for r in (resource.RLIMIT_AS, resource.RLIMIT_CORE,
                                                  resource.RLIMIT_FSIZE, resource.RLIMIT_NOFILE)]
        small = np.ones(32 * MiB, np.uint8).sum()
        try:
            big = np.empty(4 * 2**30, np.uint8)
            big[:] = 1
            huge = "allocated"
        except MemoryError:
            huge = "MemoryError"
        fd = os.open(tmp_path / "big.bin", os.O_WRONLY | os.O_CREAT, 0o600)
        chunk = b"\0" * (MiB // 4)
        written = attempt(lambda: [os.write(fd, chunk) for _ in range(8)])  # 2 MiB
        os.close(fd)
        return {"vm": vm, "limits": limits, "small": int(small), "huge": huge, "file": written}

    seen = run(body)
    assert seen["limits"] == [[seen["vm"] + 512 * MiB] * 2, [0, 0], [MiB, MiB], [64, 64]]
    assert seen["small"] == 32 * MiB
    assert seen["huge"] == "MemoryError"
    assert seen["file"] == f"OSError {errno.EFBIG}"


@needs_linux
def test_limits_never_raise_a_hard_limit():
    def body():
        import resource
        resource.setrlimit(resource.RLIMIT_NOFILE, (50, 50))
        sandbox.limit_resources(None, file_size=None, open_files=256)
        return resource.getrlimit(resource.RLIMIT_NOFILE)

    assert run(body) == [50, 50]


# -- process hygiene --------------------------------------------------------------------------
def _grandchild(then, ready_fd: int | None = None):
    """Fork a grandchild running then(); it writes b'x' to a fresh pipe when ready. Returns its
    pid once it is ready."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(r)
            then(w)
        finally:
            os._exit(0)
    os.close(w)
    poller = select.poll()
    poller.register(r, select.POLLIN)
    ok = poller.poll(10_000) and os.read(r, 1) == b"x"
    os.close(r)
    if not ok:
        os.kill(pid, signal.SIGKILL)
        raise RuntimeError("the grandchild did not get ready")
    return pid


def _sleep_forever(w: int, before=lambda: None) -> None:
    before()
    os.write(w, b"x")
    while True:
        signal.pause()


def _reap(pids) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


@needs_linux
@pytest.mark.parametrize("call", [True, False])
def test_die_with_parent_follows_the_parent(call):
    def body():
        me = os.getpid()
        before = (lambda: sandbox.die_with_parent(parent=me)) if call else (lambda: None)
        return _grandchild(lambda w: _sleep_forever(w, before))

    grandchild = run(body)  # the child has exited: the grandchild's parent is gone
    try:
        if call:
            assert gone(grandchild, 10)
        else:  # the control: without the call, the orphan lives on
            assert not gone(grandchild, 0.2)
    finally:
        _reap([grandchild])


@needs_linux
def test_die_with_parent_exits_when_the_parent_is_already_gone():
    r, w = os.pipe()

    def late(_ready):
        parent = os.getppid()
        ended = os.pidfd_open(parent)
        os.write(_ready, b"x")
        _exited(ended, 10)  # the child has ended, and this process has a new parent
        os.write(w, b"calling\n")
        sandbox.die_with_parent(parent=parent)
        os.write(w, b"survived\n")

    def body():
        os.close(r)
        return _grandchild(late)

    grandchild = run(body)
    os.close(w)
    try:
        poller = select.poll()
        poller.register(r, select.POLLIN)
        data = b""
        while poller.poll(10_000):
            chunk = os.read(r, 100)
            if not chunk:
                break
            data += chunk
        assert data == b"calling\n"
    finally:
        os.close(r)
        _reap([grandchild])


def _middle(w: int) -> None:
    """A grandchild in a session of its own, with a child of its own (whose pid it sends)."""
    os.setsid()
    send(_grandchild(_sleep_forever))
    _sleep_forever(w)


@needs_linux
@pytest.mark.parametrize("children_files", [True, False], ids=["proc-children", "proc-walk"])
def test_descendants_and_kill_tree_reach_a_tree_across_sessions(monkeypatch, children_files):
    """kill_tree reads /proc/PID/task/*/children where the kernel has them, else walks /proc."""
    def body():
        zombie = os.fork()
        if zombie == 0:
            os._exit(0)
        _exited(os.pidfd_open(zombie), 10)  # ended, not reaped
        send([_grandchild(_middle), zombie])
        while True:
            signal.pause()

    child = Child(body)
    tree: list[int] = []
    try:
        great = child.next()
        grandchild, zombie = child.next()
        tree = [child.pid, grandchild, great]
        assert _state(zombie) == "Z"
        assert sandbox.descendants(child.pid) == [grandchild, great]  # live ones only
        mine = sandbox.descendants(os.getpid())
        assert mine.index(child.pid) < mine.index(grandchild) < mine.index(great)
        assert sandbox.descendants(great) == []
        assert os.getsid(grandchild) == grandchild != os.getsid(child.pid)
        sent, real_kill, real_exists = [], os.kill, os.path.exists
        monkeypatch.setattr(os, "kill", lambda pid, sig: (sent.append((pid, sig)),
                                                          real_kill(pid, sig)))
        if not children_files:
            monkeypatch.setattr(os.path, "exists", lambda path: not str(path).endswith(
                "/children") and real_exists(path))
        sandbox.kill_tree(child.pid)
        monkeypatch.undo()
        status = child.wait(10)
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
        assert gone(grandchild, 10) and gone(great, 10)
        # every one stopped before any is killed; the root first stopped and last killed
        sent = [(pid, sig) for pid, sig in sent if pid != zombie]  # signalling it is harmless
        assert sent[:3] == [(pid, signal.SIGSTOP) for pid in tree]
        assert sorted(sent[3:]) == sorted((pid, signal.SIGKILL) for pid in tree)
        assert sent[-1] == (child.pid, signal.SIGKILL)
        sandbox.kill_tree(child.pid)  # gone already: no error
    finally:
        child.close()
        _reap(tree[1:])


def _state(pid: int) -> str:
    with open(f"/proc/{pid}/stat", "rb") as f:
        return f.read().rpartition(b")")[2].split()[0].decode()


def _wide(count: int) -> None:
    """Fork ``count`` children that wait forever."""
    os.setpgid(0, 0)  # for the test's own clean-up, whatever kill_tree does
    send("forking")
    for _ in range(count):
        if os.fork() == 0:
            break
    while True:
        signal.pause()


def _deep(depth: int) -> None:
    """A chain: each process forks the next and waits forever; the newest keeps forking."""
    os.setpgid(0, 0)
    send("forking")
    for _ in range(depth):
        if os.fork() != 0:
            break
    while True:
        signal.pause()


@needs_linux
@pytest.mark.parametrize("shape", [_wide, _deep], ids=["wide", "deep"])
def test_kill_tree_stops_a_tree_that_keeps_forking(shape):
    """In a subreaper (so orphans come back to it), kill_tree of a child that is still forking
    leaves no process alive: the deep chain's newest process forks on while the tree is walked."""

    def body():
        subreaper = sandbox.become_subreaper()
        child = Child(shape, 200)
        assert child.next() == "forking"
        sandbox.kill_tree(child.pid)
        child.wait(10)
        deadline = time.monotonic() + 5  # the killed ones end within it; a survivor does not
        alive = [p for p in sandbox.descendants(os.getpid())
                 if not gone(p, max(deadline - time.monotonic(), 0))]
        try:
            os.killpg(child.pid, signal.SIGKILL)  # atomic for the group, even mid-fork
        except ProcessLookupError:
            pass
        return [subreaper, len(alive)]

    assert run(body, timeout=60) == [True, 0]


@needs_linux
def test_a_subreaper_adopts_orphans():
    def body():
        subreaper = sandbox.become_subreaper()
        orphan = run(lambda: _grandchild(lambda w: _sleep_forever(w)))
        parent = int(open(f"/proc/{orphan}/stat").read().rpartition(")")[2].split()[1])
        _reap([orphan])
        return [subreaper, parent == os.getpid()]

    assert run(body) == [True, True]


@needs_linux  # simulated here in a forked child, which Child watches through a pidfd
def test_off_linux_everything_is_a_no_op():
    def body():  # in a child: were these not no-ops, they would hurt the process calling them
        sandbox._LINUX = False
        sandbox.limit_resources(1, 1, 1)
        sandbox.die_with_parent(parent=-5)
        try:
            sandbox.restrict_files([], [])
            raised = None
        except sandbox.SandboxUnavailable as exc:
            raised = str(exc)
        return [sandbox.landlock_abi(), seccomp.forbid_processes(), sandbox.become_subreaper(),
                sandbox.descendants(os.getppid()), raised, attempt(fork_and_reap)]

    seen = run(body)
    assert seen[:4] == [0, False, False, []] and seen[5] == "ok"
    assert seen[4].startswith("Landlock is unavailable here")


def test_the_module_does_not_import_numpy():
    """The zygote imports it before NumPy is wanted, and a judge may run without NumPy."""
    code = "import sys, dojo.worker.sandbox; print(sorted(m for m in sys.modules if 'numpy' in m))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=30, cwd=Path(sandbox.__file__).parents[2], check=True)
    assert out.stdout.strip() == "[]"
