"""A correct softmax that, when imported, writes a file into its own temporary folder (its
current folder) and sets the immutable attribute on that file and on the folder (`chattr +i`,
an ioctl: root may, and the sandbox does not refuse it on what the worker may write). A plain
rmtree then leaves the folder behind; the judge clears the attribute and removes it, and nothing
piles up in the temporary folder."""
import array
import fcntl
import os

import numpy as np

KATA = "softmax"
ROUTE = "dojo test"  # an attack on the worker, contained by the same code whichever route calls it
EXPECT = "All "  # the verdict must say this
PASSES = True  # a correct answer: it must pass

_SETFLAGS, _IMMUTABLE = 0x40086602, 0x00000010
try:
    with open("locked", "wb") as f:
        f.write(b"\0" * (1 << 20))
    for target in ("locked", "."):
        fd = os.open(target, os.O_RDONLY)
        try:
            fcntl.ioctl(fd, _SETFLAGS, array.array("i", [_IMMUTABLE]))
        finally:
            os.close(fd)
except OSError:  # not root, or a file system without the attribute: nothing to lock
    pass


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=np.float64)
    if x.ndim == 0:
        raise ValueError("softmax needs at least one dimension")
    if not -x.ndim <= axis < x.ndim:
        raise ValueError("axis out of range")
    if x.shape[axis] == 0:
        raise ValueError("empty axis")
    if np.isnan(x).any() or np.isposinf(x).any():
        raise ValueError("NaN or +inf")
    peak = x.max(axis=axis, keepdims=True)
    if np.isneginf(peak).any():
        raise ValueError("a slice is entirely -inf")
    e = np.exp(x - peak)
    return e / e.sum(axis=axis, keepdims=True)
