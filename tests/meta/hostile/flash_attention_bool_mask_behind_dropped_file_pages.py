"""A right flash attention that keeps a whole (n, m) bool mask (15.7 MiB), and hides it behind
"ballast": library file pages mapped and touched between calls and unmapped at each call's
start, so resident memory falls by their size just before the mask takes their room. Measured
2.6 MiB (a second hostile round, stop 48). Its mask is in shared anonymous memory (mmap(-1)),
which the worker's seccomp filter now refuses; the same ballast with the mask in ordinary memory
is flash_attention_bool_mask_in_the_heap_behind_dropped_file_pages.py."""
KATA = "flash_attention"
ROUTE = "dojo test"  # the memory bound is measured by the same code in both routes
EXPECT = "raised PermissionError"  # mmap(-1, …): shared anonymous memory is refused
NEEDS_SANDBOX = True

import mmap
import numbers
import os

import numpy as np

# File pages as ballast: mapped and touched between calls (file-backed, so neither "anonymous"
# nor "held"), unmapped at the start of each call, so resident memory drops by their size just
# before the call's n x m boolean mask takes their room.
_blas = os.path.join(os.path.dirname(np.__file__), os.pardir, "numpy.libs")
_ballast = []


def _load_ballast(size=22 * 2**20):
    folder = os.path.realpath(_blas)
    names = sorted((os.path.getsize(os.path.join(folder, f)), f) for f in os.listdir(folder))
    path = os.path.join(folder, names[-1][1])
    fd = os.open(path, os.O_RDONLY)
    try:
        length = min(size, os.fstat(fd).st_size)
        mm = mmap.mmap(fd, length, prot=mmap.PROT_READ)
    finally:
        os.close(fd)
    total = 0
    for off in range(0, length, mmap.PAGESIZE):
        total += mm[off]
    _ballast.append(mm)


def _drop_ballast():
    while _ballast:
        _ballast.pop().close()


try:
    _load_ballast()
except Exception:
    pass


def flash_attention(q, k, v, block_size, causal=False):
    """Right values, with an n x m boolean mask of allowed keys built up front (15.7 MiB at the
    measured size), hidden from the memory bound by ballast file pages dropped at each call."""
    _drop_ballast()
    try:
        return _flash(q, k, v, block_size, causal)
    finally:
        try:
            _load_ballast()
        except Exception:
            pass


def _flash(q, k, v, block_size, causal):
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
        raise ValueError("q and k must have the same width")
    if k.shape[0] != m:
        raise ValueError("k and v must have the same number of rows")
    if causal and m < n:
        raise ValueError("causal attention needs m >= n")
    # the whole n x m mask, one bool per (query, key)
    # (in memory of its own, an anonymous mapping given back whole when the call ends)
    room = mmap.mmap(-1, n * m)
    mask = np.ndarray((n, m), dtype=bool, buffer=room)
    if causal:
        for i0 in range(0, n, 64):
            np.less_equal(np.arange(m)[None, :], np.arange(m - n + i0, m - n + min(n, i0 + 64))[:, None],
                          out=mask[i0:i0 + 64])
    else:
        mask[:] = True
    try:
        return _blocks(q, k, v, block_size, mask)
    finally:
        del mask
        room.close()


def _blocks(q, k, v, block_size, mask):
    n, d_k = q.shape
    m, d_v = v.shape
    q = q / np.sqrt(d_k)
    row_max = np.full((n, 1), -np.inf)
    row_sum = np.zeros((n, 1))
    acc = np.zeros((n, d_v))
    for start in range(0, m, block_size):
        k_b, v_b = k[start:start + block_size], v[start:start + block_size]
        with np.errstate(over="ignore", invalid="ignore"):
            s = q @ k_b.T
        allowed = mask[:, start:start + len(k_b)]
        if not np.isfinite(s[allowed]).all():
            raise ValueError("a score q·k/sqrt(d_k) overflowed; rescale q or k")
        s[~allowed] = -np.inf
        new_max = np.maximum(row_max, s.max(axis=1, keepdims=True))
        p = np.exp(s - new_max)
        rescale = np.exp(row_max - new_max)
        row_sum = row_sum * rescale + p.sum(axis=1, keepdims=True)
        acc = acc * rescale + p @ v_b
        row_max = new_max
    return acc / row_sum, (row_max + np.log(row_sum))[:, 0]
