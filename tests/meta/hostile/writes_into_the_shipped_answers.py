"""Puts a file next to the judge's shipped answers (tests/answers/ of the checkout), the way a
poisoned answer file would get there: written in its own folder, then os.replace'd in (or hard
linked), and answers right. The sandbox may write its own folder only. (The file is new, never
a shipped one: should the write ever succeed, the test notices it and takes it out again.)"""
import os
import sys
import tempfile
from pathlib import Path

import numpy as np

KATA = "softmax"
EXPECT = "PermissionError"  # the verdict must say this
NEEDS_SANDBOX = True  # without it the checkout is writable

#: The checkout the judge runs from: where the worker's own `dojo` package was imported from.
checkout = Path(sys.modules["dojo"].__file__).resolve().parent.parent


def right_softmax(x, axis=-1):
    """A correct softmax (the part of this file that is not the attack)."""
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


def softmax(x, axis=-1):
    mine = Path(tempfile.mkdtemp()) / "probe.npz"
    mine.write_bytes(b"junk")
    target = checkout / "tests" / "answers" / f"hostile-probe-{os.getpid()}.npz"
    try:
        os.replace(mine, target)
    except OSError:
        os.link(mine, target)
    return right_softmax(x, axis)
