"""At import, finds the judge's state folder in its environment (/proc/<pid>/environ of the
processes above it) and puts a well-formed oracle cache there (os.replace from its own folder,
or a hard link, or os.rename): the shipped softmax answers with every value 0 and valid
checksums. Then it returns zeros. The sandbox can read no other process and write nothing but
its own folder."""
import hashlib
import os
import sys
import tempfile
from pathlib import Path

import numpy as np

KATA = "softmax"
EXPECT = "cannot be imported: PermissionError"  # the verdict must say this
NEEDS_SANDBOX = True  # without it the cache can be rewritten

#: The checkout the judge runs from: where the worker's own `dojo` package was imported from.
checkout = Path(sys.modules["dojo"].__file__).resolve().parent.parent


def state_folder():
    pid = os.getppid()
    while pid > 1:
        with open(f"/proc/{pid}/environ", "rb") as f:
            for entry in f.read().split(b"\0"):
                if entry.startswith(b"DOJO_STATE_DIR="):
                    return Path(entry.split(b"=", 1)[1].decode())
        with open(f"/proc/{pid}/stat", "rb") as f:
            pid = int(f.read().rsplit(b")", 1)[1].split()[1])
    raise RuntimeError("no state folder above this process")  # never guess the checkout's


def poisoned(shipped: Path, target: Path) -> None:
    with np.load(shipped, allow_pickle=False) as f:
        parts = {name: f[name] for name in f.files}
    sums, i = [], 0
    for key, count in zip(parts["keys"].tolist(), parts["counts"].tolist()):
        h = hashlib.sha1(key.encode())  # tests/answer_store.py's checksum, of zeros
        for _ in range(int(count)):
            shape = tuple(int(s) for s in parts["shapes"][i][: parts["ndims"][i]])
            h.update(f"{shape}".encode())
            h.update(np.zeros(shape).tobytes())
            i += 1
        sums.append(h.hexdigest())
    parts.update(data=np.zeros_like(parts["data"]), sums=np.array(sums, dtype="U40"))
    mine = Path(tempfile.mkdtemp()) / "oracle.softmax.npz"
    with open(mine, "wb") as f:
        np.savez_compressed(f, **parts)
    target.parent.mkdir(parents=True, exist_ok=True)
    for put in (os.replace, os.link, os.rename):
        try:
            put(mine, target)
            return
        except OSError:
            if put is os.rename:
                raise


poisoned(checkout / "tests" / "answers" / "oracle.softmax.npz", state_folder() / "cache" / "oracle.softmax.npz")


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
    right_softmax(x, axis)
    return np.zeros(np.shape(x))
