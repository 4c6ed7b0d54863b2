"""A right softmax whose threads write 1 MiB chunks of control characters into a widened output
pipe without pause: the judge read the pipe until it was empty, spelling every chunk out first,
and never got back to its limits (stop 53's hostile round: the run hung until the backstop). It
now reads at most 1 MiB between looks, and spells out only what it keeps."""
KATA = "softmax"
ROUTE = "dojo test"  # the worker's wait loop, the same code whichever route calls it
PASSES = True  # a right answer: its output is capped, its verdict unharmed

import fcntl
import os
import threading

import numpy as np

_f_setpipe_sz = 1031
try:
    fcntl.fcntl(1, _f_setpipe_sz, 1 << 20)
except OSError:
    pass
_chunk = b"\x01" * (1 << 20)


def _flood():
    while True:
        try:
            os.write(1, _chunk)
        except OSError:
            return


for _ in range(2):
    threading.Thread(target=_flood, daemon=True).start()


def softmax(x, axis=-1):
    a = np.asarray(x, dtype=np.float64)
    if a.ndim == 0:
        raise ValueError("scalar")
    if not -a.ndim <= axis < a.ndim:
        raise ValueError("axis out of range")
    if a.shape[axis] == 0:
        raise ValueError("empty axis")
    if np.isnan(a).any() or np.isposinf(a).any():
        raise ValueError("NaN or +inf")
    peak = a.max(axis=axis, keepdims=True)
    if np.isneginf(peak).any():
        raise ValueError("a slice is all -inf")
    e = np.exp(a - peak)
    return e / e.sum(axis=axis, keepdims=True)
