"""The same 31.5 MiB causal bias kept in System V message queues (msgget, msgsnd, msgrcv; about
2000 queues of 16 KiB): kernel memory, not resident, not under RLIMIT_DATA, not written. It
passed (stop 53's hostile round); the queues and semaphores could also outlive the worker. The
seccomp filter now refuses SysV queues and semaphores, POSIX queues, keys, bpf and userfaultfd."""
KATA = "flash_attention"
ROUTE = "dojo test"  # the memory bound is measured by the same code in both routes
EXPECT = "raised PermissionError"  # refused by the worker's seccomp filter
NEEDS_SANDBOX = True

import ctypes
import numbers

import numpy as np

_libc = ctypes.CDLL(None, use_errno=True)
_libc.msgget.argtypes = [ctypes.c_int, ctypes.c_int]
_libc.msgsnd.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
_libc.msgrcv.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_long, ctypes.c_int]
_libc.msgrcv.restype = ctypes.c_ssize_t
_libc.msgctl.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_void_p]
IPC_PRIVATE, IPC_CREAT, IPC_RMID = 0, 0o1000, 0
_msg_size = 8192  # msgmax
_per_queue = 2  # msgmnb 16384


class _Msg(ctypes.Structure):
    _fields_ = [("mtype", ctypes.c_long), ("mtext", ctypes.c_char * _msg_size)]


class QueueStore:
    def __init__(self):
        self.queues, self.count, self.reading, self.left = [], 0, 0, b""
        self.msg = _Msg()
        self.pending = bytearray()

    def put(self, data: bytes):
        self.pending += data
        while len(self.pending) >= _msg_size:
            self._send(bytes(self.pending[:_msg_size]))
            del self.pending[:_msg_size]

    def close_writing(self):
        if self.pending:
            self._send(bytes(self.pending))
            self.pending = bytearray()

    def _send(self, chunk: bytes):
        if self.count % _per_queue == 0:
            q = _libc.msgget(IPC_PRIVATE, IPC_CREAT | 0o600)
            if q < 0:
                raise OSError(ctypes.get_errno(), "msgget")
            self.queues.append(q)
        self.msg.mtype = 1
        ctypes.memmove(ctypes.addressof(self.msg) + _Msg.mtext.offset, chunk, len(chunk))
        if _libc.msgsnd(self.queues[-1], ctypes.byref(self.msg), len(chunk), 0) != 0:
            raise OSError(ctypes.get_errno(), "msgsnd")
        self.count += 1

    def get(self, size: int) -> bytes:
        out, have = [self.left], len(self.left)
        while have < size:
            q = self.queues[self.reading // _per_queue]
            n = _libc.msgrcv(q, ctypes.byref(self.msg), _msg_size, 0, 0o4000)  # IPC_NOWAIT
            if n < 0:
                raise OSError(ctypes.get_errno(), "msgrcv")
            out.append(ctypes.string_at(ctypes.addressof(self.msg) + _Msg.mtext.offset, n))
            have += n
            self.reading += 1
        data = b"".join(out)
        self.left = data[size:]
        return data[:size]

    def close(self):
        for q in self.queues:
            _libc.msgctl(q, IPC_RMID, None)
        self.queues = []


def flash_attention(q, k, v, block_size, causal=False):
    if isinstance(block_size, bool) or not isinstance(block_size, numbers.Integral) or block_size < 1:
        raise ValueError(f"block_size must be a positive int, got {block_size!r}")
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    for name, a in (("q", q), ("k", k), ("v", v)):
        if a.ndim != 2 or 0 in a.shape:
            raise ValueError(f"{name} must be 2-D with no empty dimension, got shape {a.shape}")
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf")
    n, d_k = q.shape
    m, d_v = v.shape
    if k.shape[1] != d_k:
        raise ValueError(f"q and k must have the same width d_k, got {d_k} and {k.shape[1]}")
    if k.shape[0] != m:
        raise ValueError(f"k and v must have the same number of rows, got {k.shape[0]} and {m}")
    if causal and m < n:
        raise ValueError(f"causal attention needs m >= n, got m={m}, n={n}")
    block_size = int(block_size)
    q = q / np.sqrt(d_k)
    store = None
    try:
        if causal:
            store = QueueStore()  # the whole (m, n) bias, in the kernel's message queues
            qpos = np.arange(m - n, m)
            for j0 in range(0, m, 256):
                js = np.arange(j0, min(m, j0 + 256))[:, None]
                store.put(np.where(js <= qpos[None, :], 0.0, -np.inf).astype(np.float16).tobytes())
            store.close_writing()
        row_max = np.full((n, 1), -np.inf)
        row_sum = np.zeros((n, 1))
        acc = np.zeros((n, d_v))
        for start in range(0, m, block_size):
            k_b, v_b = k[start:start + block_size], v[start:start + block_size]
            with np.errstate(over="ignore", invalid="ignore"):
                s = q @ k_b.T
            allowed = None
            if causal:
                b = len(k_b)
                allowed = np.isfinite(np.frombuffer(store.get(b * n * 2), np.float16).reshape(b, n).T)
            if not np.isfinite(s if allowed is None else s[allowed]).all():
                raise ValueError("a score q·k/sqrt(d_k) overflowed; rescale q or k")
            if allowed is not None:
                s[~allowed] = -np.inf
            new_max = np.maximum(row_max, s.max(axis=1, keepdims=True))
            p = np.exp(s - new_max)
            rescale = np.exp(row_max - new_max)
            row_sum = row_sum * rescale + p.sum(axis=1, keepdims=True)
            acc = acc * rescale + p @ v_b
            row_max = new_max
        return acc / row_sum, (row_max + np.log(row_sum))[:, 0]
    finally:
        if store is not None:
            store.close()
