"""Where the oracle's answers are kept between runs: shipped with the repository, and local.

One file per oracle function, in two places, same format:

- ``tests/answers/<oracle>.npz``: shipped. Every answer that the deterministic practice
  profile asks for when judging the reference solutions, so a correct answer's first run in a
  fresh clone never imports torch (2.3 s). Rebuilt by ``python -m tests.answer_store build``;
  a test keeps them true against live torch and complete (``tests/meta/test_answers.py``).
- ``.dojo/cache/<oracle>.npz``: this machine's own answers (a failing example, a replayed
  one), bounded in size, newest kept.

The format is NumPy's ``.npz`` loaded with ``allow_pickle=False``: reading a file can never run
code. Each answer carries a checksum of its key and values; a corrupt, foreign or stale entry
(or a whole file written by another oracle's source) is ignored and recomputed, never trusted.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "tests" / "answers"
FORMAT = "dojo-answers-1"
#: The local cache keeps at most this many answers per oracle (newest first): about 1-4 MB.
LOCAL_LIMIT = 6000


def checksum(key: str, values: tuple[np.ndarray, ...]) -> str:
    h = hashlib.sha1(key.encode())
    for v in values:
        h.update(f"{v.shape}".encode())
        h.update(np.ascontiguousarray(v, dtype=np.float64).tobytes())
    return h.hexdigest()


def read(path: Path, source: str) -> dict[str, tuple[np.ndarray, ...]]:
    """The answers in ``path`` written by an oracle of this ``source`` hash ({} if none or bad)."""
    try:
        with np.load(path, allow_pickle=False) as f:
            if str(f["format"]) != FORMAT or str(f["source"]) != source:
                return {}
            keys, sums, counts = f["keys"], f["sums"], f["counts"]
            ndims, shapes, data = f["ndims"], f["shapes"], f["data"]
    except Exception:  # missing, truncated, not an npz, a folder, unreadable: nothing to reuse
        return {}
    answers = {}
    try:
        pos = 0  # into data
        arr = 0  # into ndims/shapes
        for key, total, count in zip(keys.tolist(), sums.tolist(), counts.tolist()):
            values = []
            for _ in range(int(count)):
                shape = tuple(int(s) for s in shapes[arr][: ndims[arr]])
                size = int(np.prod(shape, dtype=np.int64))
                values.append(data[pos : pos + size].reshape(shape).copy())
                pos += size
                arr += 1
            values = tuple(values)
            if checksum(key, values) == total:  # a foreign or damaged entry is dropped
                answers[key] = values
    except Exception:
        return answers
    return answers


def write(path: Path, source: str, answers: dict[str, tuple[np.ndarray, ...]]) -> None:
    """Write ``answers`` atomically; a folder, a full disk or no permission is reported once."""
    keys = list(answers)
    values = [answers[k] for k in keys]
    flat = [np.ascontiguousarray(v, dtype=np.float64) for vs in values for v in vs]
    maxdim = max((v.ndim for v in flat), default=1) or 1
    shapes = np.full((len(flat), maxdim), -1, dtype=np.int64)
    for i, v in enumerate(flat):
        shapes[i, : v.ndim] = v.shape
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as f:
            np.savez_compressed(
                f,
                format=np.array(FORMAT),
                source=np.array(source),
                keys=np.array(keys, dtype="U40"),
                sums=np.array([checksum(k, v) for k, v in zip(keys, values)], dtype="U40"),
                counts=np.array([len(v) for v in values], dtype=np.int64),
                ndims=np.array([v.ndim for v in flat], dtype=np.int64),
                shapes=shapes,
                data=np.concatenate([v.ravel() for v in flat]) if flat else np.zeros(0),
            )
        os.replace(tmp, path)
    except OSError as e:
        try:
            tmp.unlink()
        except OSError:
            pass
        print(f"dojo: cannot write the oracle cache {path}: {e.strerror or e}", file=sys.stderr)


def build() -> int:
    """Rebuild tests/answers/ from the practice profile run on the reference solutions."""
    import shutil
    import subprocess

    env = dict(os.environ, DOJO_ORACLE_RECORD=str(SHIPPED))
    env.pop("CI", None)
    shutil.rmtree(SHIPPED, ignore_errors=True)
    SHIPPED.mkdir(parents=True)
    from dojo import registry

    tests = [str(k.test_path) for k in registry.KATAS]
    cmd = [sys.executable, "-m", "pytest", *tests, "--impl=solutions", "-q", "-p", "no:cacheprovider",
           "--hypothesis-profile=dojo"]
    code = subprocess.call(cmd, cwd=ROOT, env=env)
    for path in sorted(SHIPPED.glob("*.npz")):
        print(f"{path.relative_to(ROOT)}: {path.stat().st_size / 1024:.0f} KiB")
    return code


if __name__ == "__main__":
    if sys.argv[1:] != ["build"]:
        sys.exit("usage: python -m tests.answer_store build")
    sys.exit(build())
