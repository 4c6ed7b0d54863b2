"""A two-pass attention that keeps the whole n×m score matrix, one key block at a time, in
anonymous memory files (memfd_create, written with os.write, never mapped), each under the
worker's 64 MiB file-size limit: the first pass finds each row's max, the second reads the
blocks back for exp, the sum and the weighted values. Right in every value. Pages of a memory
file that is not mapped are not in the worker's resident count, so the matrix was invisible to
a bound read from /proc/PID/status (found by a fresh hostile round, stop 48). The judge now
also counts every byte the measured calls write (/proc/PID/io's wchar), and the worker's
seccomp filter refuses memfd_create (a second round wrote through mappings instead)."""
KATA = "flash_attention"
ROUTE = "dojo test"  # the memory bound is measured by the same code in both routes
EXPECT = "Operation not permitted"  # what the verdict should say

import numbers
import os

import numpy as np

_LIMIT = 33_554_432  # bytes a memory file holds here (32 MiB), under RLIMIT_FSIZE


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
    if k.shape[1] != d_k or k.shape[0] != m:
        raise ValueError("q, k and v do not fit together")
    if causal and m < n:
        raise ValueError("causal attention needs m >= n")
    q = q / np.sqrt(d_k)
    position = np.arange(m - n, m)[:, None]
    files, blocks, row_max = [], [], np.full((n, 1), -np.inf)
    try:
        for start in range(0, m, block_size):  # pass 1: the scores, out to memory files
            s = q @ k[start : start + block_size].T  # (n, b)
            if causal:
                s = np.where(np.arange(start, start + s.shape[1]) <= position, s, -np.inf)
            if np.isposinf(s).any():
                raise ValueError("a score q·k/sqrt(d_k) overflowed; rescale q or k")
            row_max = np.maximum(row_max, s.max(axis=1, keepdims=True))
            data = np.ascontiguousarray(s).tobytes()
            if not files or files[-1][1] + len(data) > _LIMIT:
                files.append([os.memfd_create("scores"), 0])
            fd, offset = files[-1]
            os.pwrite(fd, data, offset)
            files[-1][1] += len(data)
            blocks.append((fd, offset, s.shape[1], start))
        row_sum, acc = np.zeros((n, 1)), np.zeros((n, d_v))
        for fd, offset, width, start in blocks:  # pass 2: read them back
            s = np.frombuffer(os.pread(fd, n * width * 8, offset), dtype=np.float64).reshape(n, width)
            p = np.exp(s - row_max)
            row_sum += p.sum(axis=1, keepdims=True)
            acc += p @ v[start : start + width]
        return acc / row_sum, (row_max + np.log(row_sum))[:, 0]
    finally:
        for fd, _ in files:
            os.close(fd)
