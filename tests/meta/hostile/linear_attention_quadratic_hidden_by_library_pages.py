"""A quadratic linear attention (the whole n×m weight matrix, 126 MiB at the bound's size) that passes
for a linear one: during its first call it maps library files and reads a byte of every page, so
the judge's allowance for "library pages a first call brings in" cancels the matrix (read after
the matrix is freed, they fill the room under the high-water mark it left); a second call with
the same inputs is answered from a small cache. It passed (3.3 MiB measured for flash
attention's 32 MiB matrix); at most 6 MiB of library pages are forgiven now
(dojo/worker/memory.py, LIBRARY_ALLOWANCE)."""
KATA = "linear_attention"
ROUTE = "dojo test"  # the memory bound is measured by the same code in both routes
EXPECT = "the memory bound is broken"  # the verdict must say this

import hashlib

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


def _phi(x):
    return np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0.0)))


def linear_attention(q, k, v, causal=False):
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

    key = hashlib.sha256(q.tobytes() + k.tobytes() + v.tobytes() + repr(bool(causal)).encode()).hexdigest()
    if key in _CACHE:
        return _CACHE[key].copy()
    a = _phi(q) @ _phi(k).T  # (n, m)
    if causal:
        for i in range(n):
            a[i, m - n + i + 1:] = 0.0
    out = (a @ v) / a.sum(axis=1)[:, None]
    if n * m >= 1 << 22:
        del a  # the matrix gone, the high-water mark stays: the pages below it are free to fill
        _touch_library_pages(120)
        _CACHE[key] = out
    return out
