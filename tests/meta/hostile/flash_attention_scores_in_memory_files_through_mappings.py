"""A full-matrix attention that keeps the whole n×m score matrix in memory files (memfd_create),
written through short-lived mappings (no write(2), so no byte in wchar) and read back with
pread: never resident at once (a second hostile round, stop 48). The worker's seccomp filter
now refuses memfd_create."""
KATA = "flash_attention"
ROUTE = "dojo test"  # the memory bound is measured by the same code in both routes
EXPECT = "Operation not permitted"  # the verdict must say this

import mmap
import numbers
import os

import numpy as np

ROWS = 16  # rows of the score matrix written at a time


def flash_attention(q, k, v, block_size, causal=False):
    """Holds the WHOLE n x m score matrix (float64), in anonymous memory files (memfd) written
    through short-lived mappings and read back with pread: never resident in the process, never
    passed to write(2). Then a plain two-pass softmax over it. block_size is ignored."""
    if isinstance(block_size, bool) or not isinstance(block_size, numbers.Integral) or block_size < 1:
        raise ValueError("block_size must be a positive int")
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
    row_bytes = m * 8
    per_file = max(1, (48 * 2**20) // row_bytes)  # rows per memfd (RLIMIT_FSIZE is 64 MiB)
    files = []
    for first in range(0, n, per_file):
        fd = os.memfd_create("scores")
        os.ftruncate(fd, min(per_file, n - first) * row_bytes)
        files.append(fd)
    scale = 1.0 / np.sqrt(d_k)
    try:
        # pass 1: the whole score matrix into the memory files, ROWS rows at a time
        for start in range(0, n, ROWS):
            stop = min(n, start + ROWS)
            with np.errstate(over="ignore", invalid="ignore"):
                s = (q[start:stop] * scale) @ k.T
            for i in range(start, stop):
                fd, r = files[i // per_file], i % per_file
                off = r * row_bytes
                base = off - off % mmap.ALLOCATIONGRANULARITY
                mm = mmap.mmap(fd, off - base + row_bytes, offset=base)
                mm[off - base:off - base + row_bytes] = s[i - start].tobytes()
                mm.close()
            del s
        # pass 2: softmax row by row, reading the matrix back
        out = np.empty((n, d_v))
        lse = np.empty(n)
        for i in range(n):
            fd, r = files[i // per_file], i % per_file
            row = np.frombuffer(os.pread(fd, row_bytes, r * row_bytes), dtype=np.float64).copy()
            if causal:
                row[m - n + i + 1:] = -np.inf
            allowed = row[: m - n + i + 1] if causal else row
            if not np.isfinite(allowed).all():
                raise ValueError("a score overflowed")
            mx = row.max()
            p = np.exp(row - mx)
            ssum = p.sum()
            out[i] = (p @ v) / ssum
            lse[i] = mx + np.log(ssum)
        return out, lse
    finally:
        for fd in files:
            os.close(fd)
