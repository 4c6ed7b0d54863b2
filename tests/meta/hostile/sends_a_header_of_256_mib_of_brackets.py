"""Finds the worker's channel and sends, as its answer, one frame whose JSON header is 256 MiB of
"[][][]...": the judge's depth check walked it token by token, 45 s of the judge's own time, and
every new worker repeated it (plain pytest killed at 140 s; a second hostile round, stop 48).
The depth is now counted with NumPy (2 s for 256 MiB), and once a file's worker has sent a
malformed answer every later call of that file fails the same way at once."""
KATA = "softmax"
EXPECT = "sent a malformed answer"  # the verdict must say this

import struct
import sys
import time

import numpy as np


def _channel():
    f = sys._getframe()
    while f is not None:
        if "channel" in f.f_locals and hasattr(f.f_locals["channel"], "sendall"):
            return f.f_locals["channel"]
        f = f.f_back
    return None


def softmax(x, axis=-1):
    """A frame whose JSON header is 256 MiB of '[]' pairs: the judge's depth check loops over
    every token in Python before json.loads refuses the extra data (a 'broken' reply, cpu 0)."""
    ch = _channel()
    header = b"[]" * (127 * 2**20)
    size = 4 + len(header)
    ch.sendall(struct.pack("<QI", size, len(header)) + header)
    while True:
        time.sleep(1)
