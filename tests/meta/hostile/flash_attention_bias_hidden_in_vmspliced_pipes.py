"""A right blocked flash attention that keeps the whole (m, n) float16 causal bias (31.5 MiB at
the memory bound's size, bound 12 MiB) in pipes: built 1 MiB at a time in one buffer, handed to
the pipes with vmsplice (not a write: no wchar), the buffer's pages dropped (_madv_dontneed), read
back with read(2). Not resident, not under RLIMIT_DATA: it passed (stop 53's hostile round). The
seccomp filter now refuses vmsplice, splice and tee."""
KATA = "flash_attention"
ROUTE = "dojo test"  # the memory bound is measured by the same code in both routes
EXPECT = "raised PermissionError"  # refused by the worker's seccomp filter
NEEDS_SANDBOX = True

import ctypes
import fcntl
import mmap
import numbers
import os

import numpy as np

_libc = ctypes.CDLL(None, use_errno=True)
_libc.mmap.restype = ctypes.c_void_p
_libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
_libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
_libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
_libc.vmsplice.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_uint]
_libc.vmsplice.restype = ctypes.c_ssize_t


class _Iovec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]


_chunk = 1 << 20
_f_setpipe_sz = 1031
_madv_dontneed = 4


class PipeStore:
    """A byte stream kept in pipes filled by vmsplice: in no count of the process's memory."""

    def __init__(self):
        self.buf = _libc.mmap(None, _chunk, mmap.PROT_READ | mmap.PROT_WRITE,
                              mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS, -1, 0)
        self.view = np.frombuffer((ctypes.c_char * _chunk).from_address(self.buf), np.uint8)
        self.pipes, self.fill, self.reading, self.left = [], 0, 0, b""

    def put(self, data: bytes):
        data = memoryview(data).cast("B")
        while len(data):
            take = min(len(data), _chunk - self.fill)
            self.view[self.fill:self.fill + take] = np.frombuffer(data[:take], np.uint8)
            self.fill += take
            data = data[take:]
            if self.fill == _chunk:
                self._spill()

    def _spill(self):
        if not self.fill:
            return
        r, w = os.pipe()
        fcntl.fcntl(w, _f_setpipe_sz, _chunk)
        iov = _Iovec(self.buf, self.fill)
        done = _libc.vmsplice(w, ctypes.byref(iov), 1, 0)
        if done != self.fill:
            raise OSError(ctypes.get_errno(), "vmsplice")
        os.close(w)
        _libc.madvise(self.buf, _chunk, _madv_dontneed)  # the pages now belong to the pipe only
        self.pipes.append(r)
        self.fill = 0

    def close_writing(self):
        self._spill()

    def get(self, size: int) -> bytes:
        out = [self.left]
        have = len(self.left)
        while have < size:
            chunk = os.read(self.pipes[self.reading], size - have)
            if not chunk:
                os.close(self.pipes[self.reading])
                self.reading += 1
                continue
            out.append(chunk)
            have += len(chunk)
        data = b"".join(out)
        self.left = data[size:]
        return data[:size]

    def close(self):
        for fd in self.pipes[self.reading:]:
            try:
                os.close(fd)
            except OSError:
                pass
        _libc.munmap(self.buf, _chunk)


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
            # the whole (m, n) bias, key j's row: 0 where query i may see key j, -inf elsewhere
            store = PipeStore()
            qpos = np.arange(m - n, m)
            for j0 in range(0, m, 256):
                js = np.arange(j0, min(m, j0 + 256))[:, None]
                rows = np.where(js <= qpos[None, :], 0.0, -np.inf).astype(np.float16)
                store.put(rows.tobytes())
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
                bias_t = np.frombuffer(store.get(b * n * 2), np.float16).reshape(b, n)
                allowed = np.isfinite(bias_t.T)
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
