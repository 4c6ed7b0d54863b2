"""A correct softmax that first tries to reach the warm judge: it opens a Unix socket and
connects to where the warm judge of this checkout listens ($TMPDIR/dojo-judge-UID/KEY.sock,
the worker's own folder being in the same $TMPDIR; the key can be computed from the public
files). Landlock does not cover connecting to a pathname socket, and a warm judge forks an
unsandboxed pytest for any request of the same user: a way out of the sandbox. The worker's
seccomp filter refuses every new socket (and connect, bind, listen, accept), so the call
raises PermissionError before any connection is tried."""
import os
import socket

import numpy as np

KATA = "softmax"
ROUTE = "dojo test"  # an attack on the worker, contained by the same code whichever route calls it
EXPECT = "PermissionError: [Errno 1] Operation not permitted"  # the verdict must say this
WITHOUT_SANDBOX = "raised"  # no seccomp there: the socket opens, and the connect fails


def _reach_the_warm_judge():
    here = os.getcwd()  # the worker's own folder, in the judge's $TMPDIR
    folder = os.path.join(os.path.dirname(here), f"dojo-judge-{os.getuid()}")
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.connect(os.path.join(folder, "any-key.sock"))  # a real attack computes the key


def softmax(x, axis=-1):
    _reach_the_warm_judge()
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
