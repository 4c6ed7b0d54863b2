"""A right flash attention that builds a whole (n, m) bool mask with NumPy (15.7 MiB of ordinary
memory) and makes room for it under the resident high-water mark: before each call it drops
22 MiB of library file pages it had mapped and read between calls, and maps them again after.
The resident figure alone shows about 2 MiB; the judge's limit on the worker's data (RLIMIT_DATA,
set from outside) makes the mask's allocation fail."""
KATA = "flash_attention"
ROUTE = "dojo test"  # the memory bound is measured by the same code in both routes
EXPECT = "the memory bound is broken"

import mmap
import numbers
import os

import numpy as np

_libs = os.path.realpath(os.path.join(os.path.dirname(np.__file__), os.pardir, "numpy.libs"))
_pages = []


def _map_pages(size=22 * 2**20):
    """Map the largest library file of NumPy's and read one byte a page: file pages resident."""
    biggest = max(os.listdir(_libs), key=lambda f: os.path.getsize(os.path.join(_libs, f)))
    fd = os.open(os.path.join(_libs, biggest), os.O_RDONLY)
    try:
        view = mmap.mmap(fd, min(size, os.fstat(fd).st_size), prot=mmap.PROT_READ)
    finally:
        os.close(fd)
    sum(view[i] for i in range(0, len(view), mmap.PAGESIZE))
    _pages.append(view)


try:
    _map_pages()
except (OSError, ValueError):
    pass


def flash_attention(q, k, v, block_size, causal=False):
    while _pages:  # room under the high-water mark, just before the mask needs it
        _pages.pop().close()
    try:
        return _attention(q, k, v, block_size, causal)
    finally:
        try:
            _map_pages()
        except (OSError, ValueError):
            pass


def _attention(q, k, v, block_size, causal):
    if isinstance(block_size, bool) or not isinstance(block_size, numbers.Integral) or block_size < 1:
        raise ValueError(f"block_size must be a positive int, got {block_size!r}")
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    for a in (q, k, v):
        if a.ndim != 2 or 0 in a.shape:
            raise ValueError(f"q, k and v must be 2-D with no empty dimension, got {a.shape}")
        if not np.isfinite(a).all():
            raise ValueError("q, k or v contains NaN or inf")
    n, m = q.shape[0], k.shape[0]
    if k.shape[1] != q.shape[1] or v.shape[0] != m:
        raise ValueError("q, k and v do not fit together")
    if causal and m < n:
        raise ValueError("causal attention needs m >= n")
    allowed = np.ones((n, m), dtype=bool)  # the whole mask: what the bound forbids
    if causal:
        allowed &= np.arange(m)[None, :] <= np.arange(m - n, m)[:, None]
    q = q / np.sqrt(q.shape[1])
    best = np.full((n, 1), -np.inf)
    total = np.zeros((n, 1))
    acc = np.zeros((n, v.shape[1]))
    for start in range(0, m, block_size):
        stop = min(m, start + block_size)
        with np.errstate(over="ignore", invalid="ignore"):
            s = q @ k[start:stop].T
        seen = allowed[:, start:stop]
        if not np.isfinite(s[seen]).all():
            raise ValueError("a score overflowed")
        s[~seen] = -np.inf
        new = np.maximum(best, s.max(axis=1, keepdims=True))
        safe = np.where(np.isneginf(new), 0.0, new)
        p = np.exp(s - safe)
        scale = np.exp(np.where(np.isneginf(best), -np.inf, best - safe))
        total = total * scale + p.sum(axis=1, keepdims=True)
        acc = acc * scale + p @ v[start:stop]
        best = new
    return acc / total, (best + np.log(total))[:, 0]
