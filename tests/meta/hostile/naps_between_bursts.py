"""A correct softmax that, twenty times a call, sleeps 0.93 s and then spins 0.07 s: never idle
for a whole second, never near the CPU limit (1.4 s a call), yet 20 s a call. The worker sums
the time the call is seen asleep and stops it at 10 s, naming the candidate's waiting (it used
to end with the whole run's deadline: "not your fault", after 62 s in dojo test)."""
import time

import numpy as np

KATA = "softmax"
EXPECT = "asleep in all"  # the verdict must say this


def softmax(x, axis=-1):
    for _ in range(20):
        time.sleep(0.93)
        start = time.process_time()
        while time.process_time() - start < 0.07:
            pass
    x = np.asarray(x, dtype=np.float64)
    if x.ndim == 0 or not -x.ndim <= axis < x.ndim or x.shape[axis] == 0:
        raise ValueError("x must have the axis, with at least one entry along it")
    if np.isnan(x).any() or np.isposinf(x).any():
        raise ValueError("NaN or +inf")
    peak = x.max(axis=axis, keepdims=True)
    if np.isneginf(peak).any():
        raise ValueError("a slice is entirely -inf")
    e = np.exp(x - peak)
    return e / e.sum(axis=axis, keepdims=True)
