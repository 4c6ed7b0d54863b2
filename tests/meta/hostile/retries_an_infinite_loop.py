"""An infinite loop inside a retry loop that catches BaseException, with SIGINT, SIGTERM and
SIGALRM ignored: nothing is ever raised into the worker; its CPU time is read from outside and
the zygote ends it with SIGKILL."""
import itertools
import signal

import numpy as np

KATA = "softmax"
ROUTE = "dojo test"  # an attack on the worker, contained by the same code whichever route calls it
EXPECT = "was still computing after 2 s of CPU time"  # the verdict must say this

for number in (signal.SIGINT, signal.SIGTERM, signal.SIGALRM):
    signal.signal(number, signal.SIG_IGN)


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
        for attempt in itertools.count():
            try:
                while True:
                    pass
            except BaseException:
                continue
    return right_softmax(x, axis)
