"""Announces a 200 MiB answer on its own channel and sends one byte every 30 ms: while a frame was
incomplete the judge skipped its limits, and the run ended at the whole-run backstop with "the
judge itself did not finish (not your fault)" (stop 53's hostile round). The limits are now
checked between reads of an unfinished frame."""
KATA = "softmax"
ROUTE = "dojo test"  # the worker's wait loop, the same code whichever route calls it
EXPECT = "(time.sleep, a lock"  # a wait: the idle or the asleep limit, checked while the frame trickles

import os
import stat
import struct
import time

import numpy as np


def _channel() -> int:
    for fd in range(3, 256):
        try:
            if stat.S_ISSOCK(os.fstat(fd).st_mode):
                return fd
        except OSError:
            continue
    raise RuntimeError("no channel")


def softmax(x, axis=-1):
    fd = _channel()
    os.write(fd, struct.pack("<Q", 200 * 2**20))  # a frame of 200 MiB is announced
    while True:
        os.write(fd, b"[")
        time.sleep(0.03)
