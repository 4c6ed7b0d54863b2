"""A right softmax that lowers the open-file limit of the zygote (its parent, which the warm judge
keeps across runs) to 5: every later verdict, the reference's too, timed out until the warm judge
was killed (a second hostile round, stop 48). Refused now, as prlimit64 on the judge is."""
KATA = "softmax"
EXPECT = "All "  # the verdict must say this
PASSES = True  # a right answer whose attack is refused

import ctypes
import os

import numpy as np

_libc = ctypes.CDLL(None, use_errno=True)


class _Rlimit(ctypes.Structure):
    _fields_ = [("cur", ctypes.c_uint64), ("max", ctypes.c_uint64)]


RLIMIT_NOFILE = 7
_done = []


def softmax(x, axis=-1):
    """Right values; on its first call, sets the open-file limit of its PARENT, the zygote that
    forks every worker (shared by the warm judge across runs), to 5: later runs of other files,
    right ones too, find their workers cannot be made."""
    if not _done:
        new = _Rlimit(5, 5)
        r = _libc.prlimit(ctypes.c_int(os.getppid()), RLIMIT_NOFILE, ctypes.byref(new), None)
        _done.append((os.getppid(), r, ctypes.get_errno()))
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
