"""A correct softmax that, in every call, spins for about 0.13 s of CPU and then stops itself
(SIGSTOP); a POSIX timer it armed sends it SIGCONT every 4.5 s. Stopped, it never sleeps (the
asleep count stayed 0) and each burst restarts the idle count before it reaches 5 s: a call
lasted about 68 s, and `dojo test` ended at 60 s saying the judge had not finished (a fresh
hostile round, stop 48). A stopped worker now counts as asleep: 10 s in all, the candidate's."""
KATA = "softmax"
ROUTE = "dojo test"  # an attack on the worker, contained by the same code whichever route calls it
EXPECT = "asleep in all"  # the verdict must say this

import ctypes
import os
import signal
import time

import numpy as np

_libc = ctypes.CDLL(None, use_errno=True)


class _SigEvent(ctypes.Structure):
    _fields_ = [("value", ctypes.c_void_p), ("signo", ctypes.c_int), ("notify", ctypes.c_int),
                ("pad", ctypes.c_byte * 48)]


class _TimeSpec(ctypes.Structure):
    _fields_ = [("sec", ctypes.c_long), ("nsec", ctypes.c_long)]


class _ITimerSpec(ctypes.Structure):
    _fields_ = [("interval", _TimeSpec), ("value", _TimeSpec)]


_timer = None


def _arm(period: float) -> None:
    """A POSIX timer whose signal is SIGCONT: the kernel resumes this stopped process."""
    global _timer
    if _timer is not None:
        return
    # a handler, so SIGCONT is not "ignored" (the kernel parks a timer whose signal is ignored)
    signal.signal(signal.SIGCONT, lambda *a: None)
    ev = _SigEvent(signo=signal.SIGCONT, notify=0)  # SIGEV_SIGNAL
    tid = ctypes.c_void_p()
    if _libc.timer_create(1, ctypes.byref(ev), ctypes.byref(tid)) != 0:
        raise OSError(ctypes.get_errno(), "timer_create")
    whole, frac = int(period), int((period % 1) * 1e9)
    spec = _ITimerSpec(_TimeSpec(whole, frac), _TimeSpec(whole, frac))
    if _libc.timer_settime(tid, 0, ctypes.byref(spec), None) != 0:
        raise OSError(ctypes.get_errno(), "timer_settime")
    _timer = tid


def softmax(x, axis=-1):
    _arm(4.5)
    while True:
        # about 130 ms of CPU: at least 5 % of one of the judge's 1 s windows, so its idle count
        # never reaches 5 windows in a row ...
        end = time.process_time() + 0.13
        while time.process_time() < end:
            pass
        # ... and the rest of the time stopped (state T): neither asleep (S/D) nor runnable
        os.kill(os.getpid(), signal.SIGSTOP)
