"""Walks /proc up from itself and sends SIGKILL to the zygote, the judge and the dojo tool (only
those: the file names them by their command lines), then answers. The sandbox cannot read /proc
and lets a worker signal nothing but itself."""
import os
import signal

import numpy as np

KATA = "softmax"
EXPECT = "PermissionError"  # the verdict must say this
NEEDS_SANDBOX = True  # without it the judge dies: not a pass, but no verdict either


def ancestors():
    """(pid, command line) of every process above this one, read from /proc."""
    found, pid = [], os.getppid()
    while pid > 1:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            cmdline = f.read()
        found.append((pid, cmdline))
        with open(f"/proc/{pid}/stat", "rb") as f:
            pid = int(f.read().rsplit(b")", 1)[1].split()[1])
    return found


def judges():
    """The zygote, the judge (pytest judging this folder) and the dojo tool above it: never the
    processes that started them."""
    here = os.path.dirname(os.path.abspath(__file__)).encode()
    return [pid for pid, cmdline in ancestors()
            if b"zygote.main" in cmdline or here in cmdline or b"-m\0dojo\0" in cmdline]


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
    for pid in judges():
        os.kill(pid, signal.SIGKILL)
    return right_softmax(x, axis)
