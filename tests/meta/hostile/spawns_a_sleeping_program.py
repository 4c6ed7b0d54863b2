"""Starts `sleep 300` in a session of its own (subprocess.Popen: _posixsubprocess.fork_exec) and
answers. seccomp refuses the fork; without the sandbox the zygote, a subreaper, kills the
program once the worker ends."""
import subprocess

import numpy as np

KATA = "softmax"
EXPECT = "PermissionError"  # the verdict must say this
WITHOUT_SANDBOX = "passes"  # the program is killed with the worker: nothing is left behind


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
    subprocess.Popen(["sleep", "300"], start_new_session=True, stdin=subprocess.DEVNULL,
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return right_softmax(x, axis)
