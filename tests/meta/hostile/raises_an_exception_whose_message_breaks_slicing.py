"""For a 0-d input, raises an exception whose class name holds escapes and a newline, whose
module is a float, and whose str() is a str subclass that raises when sliced: the worker's own
report crashed, and the verdict guessed at os._exit (stop 53's blind hostile round)."""
KATA = "softmax"
ROUTE = "dojo test"  # the worker's report of what was raised, the same code whichever route calls it
EXPECT = "but your code raised"  # a plain failure, said plainly
PRINTS_ESCAPES = True

import numpy as np


class Sneaky(str):
    def __len__(self):
        raise RuntimeError("len")

    def __getitem__(self, i):
        raise RuntimeError("getitem")


Weird = type("\x1b[2J\x1b[31mValueError\nfake line\r\x07", (Exception,), {"__module__": float("nan"),
                                                                       "__str__": lambda self: Sneaky("boom")})


def softmax(x, axis=-1):
    a = np.array(x, dtype=np.float64)
    if a.ndim == 0:
        raise Weird()
    if not -a.ndim <= axis < a.ndim:
        raise ValueError("axis out of range")
    if a.shape[axis] == 0:
        raise ValueError("empty axis")
    if np.isnan(a).any() or np.isposinf(a).any():
        raise ValueError("NaN or +inf")
    mx = a.max(axis=axis, keepdims=True)
    if np.isneginf(mx).any():
        raise ValueError("all -inf slice")
    e = np.exp(a - mx)
    return e / e.sum(axis=axis, keepdims=True)
