"""A quadratic linear attention that keeps the whole n×m matrix in SysV shared-memory segments,
attached only while used and never removed: no resident count saw them, and about 500 segments
outlived every run (a second hostile round, stop 48). The worker's seccomp filter now refuses
shmget and shmat."""
KATA = "linear_attention"
ROUTE = "dojo test"  # the memory bound is measured by the same code in both routes
EXPECT = "shmget failed"  # the verdict must say this

import ctypes

import numpy as np

_libc = ctypes.CDLL(None, use_errno=True)
_libc.shmget.restype = ctypes.c_int
_libc.shmget.argtypes = [ctypes.c_int, ctypes.c_size_t, ctypes.c_int]
_libc.shmat.restype = ctypes.c_void_p
_libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
_libc.shmdt.argtypes = [ctypes.c_void_p]
IPC_PRIVATE, IPC_CREAT = 0, 0o1000
ROWS = 16


def _phi(x):
    return np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0.0)))


def _put(seg, data):
    addr = _libc.shmat(seg, None, 0)
    ctypes.memmove(addr, data.ctypes.data, data.nbytes)
    _libc.shmdt(ctypes.c_void_p(addr))


def _get(seg, shape):
    addr = _libc.shmat(seg, None, 0)
    out = np.empty(shape)
    ctypes.memmove(out.ctypes.data, addr, out.nbytes)
    _libc.shmdt(ctypes.c_void_p(addr))
    return out


def linear_attention(q, k, v, causal=False):
    """The quadratic form: the whole n x m matrix A = phi(q) phi(k)^T, kept in SysV shared
    memory segments (attached only while a window is written or read; never removed), then
    out = (A masked) v / (A masked) 1."""
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    for name, a in (("q", q), ("k", k), ("v", v)):
        if a.ndim != 2 or 0 in a.shape:
            raise ValueError(f"{name} must be 2-D with no empty dimension")
        if not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf")
    n, d_k = q.shape
    m, d_v = v.shape
    if k.shape[1] != d_k or k.shape[0] != m:
        raise ValueError("shapes do not fit")
    if causal and m < n:
        raise ValueError("causal needs m >= n")
    fq, fk = _phi(q), _phi(k)
    segs = []
    for start in range(0, n, ROWS):
        stop = min(n, start + ROWS)
        a = fq[start:stop] @ fk.T
        if causal:
            a = np.tril(a, k=m - n + start)
        seg = _libc.shmget(IPC_PRIVATE, a.nbytes, IPC_CREAT | 0o600)
        if seg < 0:
            raise MemoryError("shmget failed")
        _put(seg, np.ascontiguousarray(a))
        segs.append((seg, a.shape))
        del a
    out = np.empty((n, d_v))
    for (seg, shape), start in zip(segs, range(0, n, ROWS)):
        a = _get(seg, shape)
        out[start:start + shape[0]] = (a @ v) / a.sum(axis=1)[:, None]
    return out
