"""A full-matrix attention (the whole n×m score matrix, 126 MiB at the bound's size) that passes for a
blocked one: during its first call it also maps library files (NumPy's, the standard library's)
and reads a byte of every page, so the judge's allowance for "library pages a first call brings
in" cancels the matrix (read after the matrix is freed, they fill the room under the high-water
mark it left, so they raise the peak by nothing); and it answers a second call with the same
inputs from a small cache (the result, 256 KiB), so the second call's rise is nothing. It passed
(3.3 MiB measured for flash attention's 32 MiB matrix); at most 6 MiB of library pages are
forgiven now (dojo/worker/memory.py, LIBRARY_ALLOWANCE)."""
KATA = "flash_attention"
ROUTE = "dojo test"  # the memory bound is measured by the same code in both routes
EXPECT = "the memory bound is broken"  # the verdict must say this

import hashlib
import numbers

import numpy as np

_MAPS = []


def _touch_library_pages(mib):
    """Map readable library files (NumPy's, the standard library's) again and again, reading a
    byte of every page, and keep the mappings: resident file pages, which the judge takes for
    code a first call brought in and subtracts from the call's rise."""
    import mmap
    import os

    import numpy

    files = []
    for folder in (os.path.dirname(numpy.__file__), os.path.dirname(os.__file__)):
        for root, _dirs, names in os.walk(folder):
            for name in names:
                path = os.path.join(root, name)
                try:
                    if os.path.getsize(path) >= 1 << 20:
                        files.append(path)
                except OSError:
                    pass
    files.sort(key=os.path.getsize, reverse=True)
    want, got = mib << 20, 0
    while files and got < want:
        for path in files:
            try:
                with open(path, "rb") as f:
                    m = mmap.mmap(f.fileno(), 0, prot=mmap.PROT_READ)
            except (OSError, ValueError):
                continue
            total = 0
            for at in range(0, len(m), mmap.PAGESIZE):
                total += m[at]
            _MAPS.append(m)
            got += len(m)
            if got >= want:
                break


_CACHE = {}


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
        raise ValueError(f"causal attention needs m >= n (query i sits at position m - n + i), got m={m}, n={n}")

    key = hashlib.sha256(q.tobytes() + k.tobytes() + v.tobytes() + repr((block_size, bool(causal))).encode()).hexdigest()
    if key in _CACHE:
        out, lse = _CACHE[key]
        return out.copy(), lse.copy()
    s = q @ k.T  # (n, m): the whole score matrix
    s /= np.sqrt(d_k)
    if causal:
        for i in range(n):
            s[i, m - n + i + 1:] = -np.inf
    if not np.isfinite(s.max(axis=1)).all():
        raise ValueError("a score q·k/sqrt(d_k) overflowed; rescale q or k")
    mx = s.max(axis=1, keepdims=True)
    s -= mx
    np.exp(s, out=s)
    total = s.sum(axis=1, keepdims=True)
    out = (s @ v) / total
    lse = (mx + np.log(total))[:, 0]
    if n * m >= 1 << 20:
        del s  # the matrix gone, the high-water mark stays where it was: the pages below it are free to fill
        _touch_library_pages(30)
        _CACHE[key] = (out, lse)
    return out, lse
