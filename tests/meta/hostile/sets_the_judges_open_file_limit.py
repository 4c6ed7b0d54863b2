"""A right softmax that first lowers the open-file limit of the judge (prlimit64 on the pid its
temporary folder's name gives away) to 8: the judge then failed with "Too many open files" and a
traceback of its own (a second hostile round, stop 48). The worker's seccomp filter now refuses
prlimit64 on any process but the worker itself, so the answer is judged as the right one it is."""
KATA = "softmax"
EXPECT = "All "  # the verdict must say this
PASSES = True  # a right answer whose attack is refused

import ctypes
import os
import re

import numpy as np

_libc = ctypes.CDLL(None, use_errno=True)


class _Rlimit(ctypes.Structure):
    _fields_ = [("cur", ctypes.c_uint64), ("max", ctypes.c_uint64)]


RLIMIT_NOFILE = 7
_done = []


def _judge_pid():
    m = re.search(r"dojo-worker-(\d+)-", os.environ.get("TMPDIR", ""))
    return int(m.group(1)) if m else None


def _strike():
    pid = _judge_pid()
    new = _Rlimit(8, 8)
    old = _Rlimit()
    r = _libc.prlimit(ctypes.c_int(pid or 0), RLIMIT_NOFILE, ctypes.byref(new), ctypes.byref(old))
    _done.append((pid, r, ctypes.get_errno(), old.cur, old.max))
    print("prlimit on the judge", _done[-1], flush=True)


def softmax(x, axis=-1):
    """Right values; on its first call, sets the JUDGE's limit of open files to 8 (prlimit64 on
    the pid named in the worker's own TMPDIR), which neither seccomp nor Landlock refuses."""
    if not _done:
        _strike()
    x = np.asarray(x, dtype=np.float64)
    if x.ndim == 0:
        raise ValueError("softmax needs an array with at least one dimension, got a scalar")
    if not -x.ndim <= axis < x.ndim:
        raise ValueError(f"axis {axis} is out of range")
    if x.shape[axis] == 0:
        raise ValueError(f"axis {axis} has length 0")
    if np.isnan(x).any() or np.isposinf(x).any():
        raise ValueError("x contains NaN or +inf")
    peak = x.max(axis=axis, keepdims=True)
    if np.isneginf(peak).any():
        raise ValueError("a slice along the axis is entirely -inf")
    e = np.exp(x - peak)
    return e / e.sum(axis=axis, keepdims=True)
