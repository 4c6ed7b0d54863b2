"""Writes its own frame into its channel to the judge: a "raised" answer whose `module` is null
(not a string), then waits to be stopped. The judge checks every field of a frame for its type
before it uses it: a frame that is not what the worker sends is a malformed answer, never a
traceback of the judge's."""
import json
import os
import socket
import stat
import struct
import time

import numpy as np

KATA = "softmax"
ROUTE = "dojo test"  # an attack on the worker, contained by the same code whichever route calls it
EXPECT = "sent a malformed answer"  # the verdict must say this


def channel():
    """The worker's channel to the judge: its one unnamed Unix socket (a socket pair's end)."""
    for fd in range(3, 1024):
        try:
            if not stat.S_ISSOCK(os.fstat(fd).st_mode):
                continue
        except OSError:
            continue
        s = socket.socket(fileno=os.dup(fd))
        try:
            if s.family == socket.AF_UNIX and s.getsockname() in ("", b""):
                return s
        except OSError:
            pass
        s.close()
    raise RuntimeError("no channel found")


def forge(header: bytes) -> None:
    channel().sendall(struct.pack("<QI", 4 + len(header), len(header)) + header)
    time.sleep(3600)  # the judge reads the forgery first, and stops this worker


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
    if np.size(x) > 4:
        forge(json.dumps({"m": {"status": "raised", "type": "ValueError", "module": None, "message": "forged",
                                "value_error": True, "exception": True, "line": None, "source": None,
                                "said": None, "code": None}, "v": {}, "b": []}).encode())
    return right_softmax(x, axis)
