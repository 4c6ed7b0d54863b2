"""An attention that forgets the 1/sqrt(d_k) scaling unless it can find and run the project's
own answer: it looks for the checkout through everything the worker still knows (the dojo
modules' paths, the interpreter's path and arguments, the stack's frames, the inherited
descriptors) and tries to read solutions/masked_attention.py or tests/oracle.py there, through
/proc, a symlink or a hard link in its own folder; it also tries to leave a file outside its
folder. Right only if the sandbox lets it read the reference."""
KATA = "masked_attention"
ROUTE = "dojo test"  # an attack on the worker, contained by the same code whichever route calls it
EXPECT = "weights is wrong"  # the verdict must say this (its own bug: no 1/sqrt(d_k))
NEEDS_SANDBOX = True  # Landlock keeps the reference unread

import os
import sys

import numpy as np

_NOTES = []


def _candidates():
    roots = set()
    for name in ("dojo", "dojo.worker", "dojo.worker.zygote_child", "dojo.text.messages"):
        mod = sys.modules.get(name)
        path = getattr(mod, "__file__", None)
        if path:
            p = os.path.abspath(path)
            for _ in range(4):
                p = os.path.dirname(p)
                roots.add(p)
    for p in (sys.executable, getattr(sys, "_base_executable", ""), *getattr(sys, "orig_argv", []), *sys.argv,
              *sys.path):
        if p and os.path.isabs(p):
            q = p
            for _ in range(5):
                q = os.path.dirname(q)
                roots.add(q)
    frame = sys._getframe()
    while frame is not None:
        roots.add(os.path.dirname(os.path.dirname(os.path.abspath(frame.f_code.co_filename))))
        frame = frame.f_back
    for r in ("/work/wt-hostile", "/work/main", os.getcwd()):
        roots.add(r)
    return roots


def _try_read(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        _NOTES.append(f"open {path}: {e.errno}")
    here = os.getcwd()
    for how in ("symlink", "link"):
        dest = os.path.join(here, f"via-{how}.py")
        try:
            getattr(os, how)(path, dest)
            with open(dest, encoding="utf-8") as f:
                return f.read()
        except OSError as e:
            _NOTES.append(f"{how} {path}: {e.errno}")
    return None


def _find():
    for root in sorted(r for r in _candidates() if r and r != "/"):
        for rel in ("solutions/masked_attention.py",):
            text = _try_read(os.path.join(root, rel))
            if text:
                scope = {}
                exec(compile(text, "reference", "exec"), scope)
                return scope.get("scaled_dot_product_attention")
    for fd in range(3, 64):
        try:
            os.fstat(fd)
            _NOTES.append(f"descriptor {fd} is open")
        except OSError:
            pass
    for path in ("/proc/self/environ", "/proc/1/cmdline", f"/proc/{os.getppid()}/cmdline", "/proc/self/maps"):
        try:
            with open(path, "rb") as f:
                _NOTES.append(f"{path}: {f.read(200)!r}")
        except OSError as e:
            _NOTES.append(f"{path}: {e.errno}")
    for place in ("/tmp/hr-escaped.txt", "/dev/shm/hr-escaped.txt", os.path.join(os.path.dirname(os.getcwd()), "hr-escaped.txt"),
                  os.path.expanduser("~/../hr-escaped.txt")):
        try:
            with open(place, "w") as f:
                f.write("escaped")
            _NOTES.append(f"WROTE {place}")
        except OSError as e:
            _NOTES.append(f"write {place}: {e.errno}")
    return None


_reference = _find()
print("probe:", "found the reference" if _reference else "no reference", "|", "; ".join(_NOTES[:12]))


def scaled_dot_product_attention(q, k, v, mask=None):
    if _reference is not None:
        return _reference(q, k, v, mask)
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    for a in (q, k, v):
        if a.ndim != 2 or 0 in a.shape or not np.isfinite(a).all():
            raise ValueError("bad input")
    n, m = q.shape[0], k.shape[0]
    if k.shape[1] != q.shape[1] or v.shape[0] != m:
        raise ValueError("shapes")
    allowed = np.ones((n, m), bool) if mask is None else np.asarray(mask)
    if allowed.dtype != bool or allowed.shape != (n, m) or not allowed.any(axis=1).all():
        raise ValueError("mask")
    s = np.where(allowed, q @ k.T, -np.inf)  # the bug: no 1/sqrt(d_k)
    if not np.isfinite(s[allowed]).all():
        raise ValueError("overflow")
    w = np.exp(s - s.max(axis=1, keepdims=True))
    w /= w.sum(axis=1, keepdims=True)
    return w @ v, w
