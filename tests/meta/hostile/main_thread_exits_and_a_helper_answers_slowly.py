"""A right softmax that takes 20 s a call while never looking asleep: on its first call the main
thread hands the worker's channel to a helper thread and ends itself (the raw exit system call:
the process stays, its leader a zombie, state "Z", which the judge read as neither asleep nor
idle in /proc/PID/stat); the helper answers every call, working 6% of the time (1.2 s of CPU a
call, under the 2 s limit) and sleeping the rest. It ran 142 s under plain pytest (the whole
run's deadline, "not your fault") and 62 s under dojo test; the judge now takes such a
process's state from its threads (dojo/worker/procfs.py), and the helper's sleep is asleep."""
KATA = "softmax"
ROUTE = "dojo test"  # an attack on the worker, contained by the same code whichever route calls it
EXPECT = "asleep in all"  # the verdict must say this

import ctypes
import platform
import sys
import threading
import time

import numpy as np

SLOW = 20  # rounds of 0.06 s of work and 0.94 s of sleep: 20 s a call, 1.2 s of CPU


def _right(x, axis=-1):
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


def _slow(**kwargs):
    for _ in range(SLOW):
        end = time.thread_time() + 0.06
        while time.thread_time() < end:
            pass
        time.sleep(0.94)
    return _right(**kwargs)


def _helper(serve_locals, first_kwargs):
    import os

    wire = sys.modules["dojo.worker.wire"]
    attach = sys.modules["dojo.worker.shared_inputs"].attach

    channel, path = serve_locals["channel"], serve_locals["path"]
    buffer, fds = serve_locals["buffer"], serve_locals["fds"]
    call, next_frame = serve_locals["call"], serve_locals["next_frame"]
    reply, result = call(_slow, first_kwargs, path, set())
    wire.send(channel, {**reply, "mutated": []}, value=result, mutated={})
    while True:
        try:
            request, values = next_frame(channel, buffer, fds)
            shared = attach(request.get("shared"), fds.pop(0) if fds else None)
        except Exception:
            os._exit(0)
        for fd in fds:
            os.close(fd)
        fds.clear()
        kwargs = {**values.get("args", {}), **shared}
        if request.get("op") != "call":
            os._exit(0)
        reply, result = call(_slow, kwargs, path, set(shared))
        wire.send(channel, {**reply, "mutated": []}, value=result, mutated={})


_started = []


def softmax(x, axis=-1):
    if _started:
        return _right(x, axis)
    frame = sys._getframe()
    while frame is not None and not (frame.f_code.co_name == "serve" and "channel" in frame.f_locals):
        frame = frame.f_back
    if frame is None:  # not in the judge's worker: an ordinary call
        return _right(x, axis)
    _started.append(True)
    threading.Thread(target=_helper, args=(frame.f_locals, {"x": x, "axis": axis}), daemon=True).start()
    number = {"x86_64": 60, "aarch64": 93}.get(platform.machine(), 60)  # exit(2): this thread only
    ctypes.CDLL(None).syscall(number, 0)
    return _right(x, axis)  # never reached
