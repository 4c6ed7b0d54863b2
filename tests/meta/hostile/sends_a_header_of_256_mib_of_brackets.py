"""Finds the worker's channel and sends, as its answer, one frame whose JSON header is 256 MiB of
"[][][]...": the judge's depth check walked it token by token, 45 s of the judge's own time, and
every new worker repeated it (plain pytest killed at 140 s; a second hostile round, stop 48).
The depth is now counted with NumPy (2 s for 256 MiB), and once a file's worker has sent a
malformed answer every later call of that file fails the same way at once. It sends the header
1 MiB at a time, as a frugal attacker would: built whole and copied it took the worker's call past
its 2 s of CPU on a busy CI machine before the header was read (stop 56); a frame being sent now
adds to the call's CPU limit, and this file tests the judge's reading, not the worker's copying."""
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
    piece = b"[]" * 2**19
    length = 254 * len(piece)
    ch.sendall(struct.pack("<QI", 4 + length, length))
    for _ in range(254):
        ch.sendall(piece)
    while True:
        time.sleep(1)
