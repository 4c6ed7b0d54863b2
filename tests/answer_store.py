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

The local cache is written only by the judge's process (the candidate's code runs in a worker
that, where Landlock is available, cannot reach the state folder at all). Its checksums are
keyed (HMAC-SHA-256 with a random key kept beside it, ``.dojo/cache/key``), so an entry cannot be
forged without reading that key; and a cache file larger than ``LOCAL_BYTES`` is not loaded but
rewritten with the run's own answers, so a flood of entries cannot slow a run down.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "tests" / "answers"
FORMAT = "dojo-answers-1"
#: The local cache keeps at most this many answers per oracle (newest first): about 1-4 MiB.
LOCAL_LIMIT = 6000
#: A local cache file larger than this is not loaded (it is rewritten with the run's answers).
LOCAL_BYTES = 16 * 2**20
_warned: set[str] = set()


def checksum(key: str, values: tuple[np.ndarray, ...], secret: bytes | None = None) -> str:
    """SHA-1 of the key and values; keyed (HMAC-SHA-256, first 40 hex digits) with ``secret``."""
    h = hmac.new(secret, key.encode(), hashlib.sha256) if secret else hashlib.sha1(key.encode())
    for v in values:
        h.update(f"{v.shape}".encode())
        h.update(np.ascontiguousarray(v, dtype=np.float64).tobytes())
    return h.hexdigest()[:40]


def local_secret(folder: Path, create: bool = True) -> bytes | None:
    """This machine's key for the local cache in ``folder`` (made on first use, with
    ``create``); None if it cannot be read or made (then nothing local is trusted)."""
    path = folder / "key"
    try:
        text = path.read_text(encoding="ascii").strip()
        if len(text) == 64:
            return bytes.fromhex(text)
    except (OSError, ValueError):
        pass
    if not create:
        return None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f".key.tmp{os.getpid()}"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(secrets.token_hex(32))
        os.replace(tmp, path)
        return bytes.fromhex(path.read_text(encoding="ascii").strip())
    except (OSError, ValueError):
        return None


def read(path: Path, source: str, secret: bytes | None = None, max_bytes: int | None = None
         ) -> dict[str, tuple[np.ndarray, ...]]:
    """The answers in ``path`` written by an oracle of this ``source`` hash ({} if none or bad).
    ``secret``: the checksums are keyed with it. ``max_bytes``: a larger file is not loaded."""
    if max_bytes is not None:
        try:
            size = path.stat().st_size
        except OSError:
            size = 0
        if size > max_bytes:
            if str(path) not in _warned:
                _warned.add(str(path))
                print(f"dojo: the oracle cache {path} is {size / 2**20:.0f} MiB, more than the "
                      f"{max_bytes / 2**20:.0f} MiB it may hold: not loaded (rewritten with this "
                      f"run's answers)", file=sys.stderr)
            return {}
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
            if hmac.compare_digest(checksum(key, values, secret), str(total)):  # else dropped
                answers[key] = values
    except Exception:
        return answers
    return answers


def write(path: Path, source: str, answers: dict[str, tuple[np.ndarray, ...]],
          secret: bytes | None = None) -> None:
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
                sums=np.array([checksum(k, v, secret) for k, v in zip(keys, values)], dtype="U40"),
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

    env = dict(os.environ, DOJO_ORACLE_RECORD=str(SHIPPED))
    shutil.rmtree(SHIPPED, ignore_errors=True)
    SHIPPED.mkdir(parents=True)
    proc = practice_run(env)
    print(proc.stdout[-2000:] + proc.stderr[-2000:])
    code = proc.returncode
    for path in sorted(SHIPPED.glob("*.npz")):
        print(f"{path.relative_to(ROOT)}: {path.stat().st_size / 1024:.0f} KiB")
    return code


def practice_run(env: dict, katas: list[str] | None = None) -> "subprocess.CompletedProcess":
    """The practice profile (CI unset) over the reference solutions of ``katas`` (default: every
    kata), in a fresh process."""
    import subprocess

    from dojo import registry

    env = dict(env)
    env.pop("CI", None)
    tests = [str(k.test_path) for k in registry.KATAS if katas is None or k.module in katas]
    return subprocess.run(
        [sys.executable, "-m", "pytest", *tests, "--impl=solutions", "-q", "-p", "no:cacheprovider",
         "--hypothesis-profile=dojo"],
        cwd=ROOT, env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL,
    )


def verify(state_dir: Path, katas: list[str] | None = None
           ) -> tuple["subprocess.CompletedProcess", dict]:
    """Every answer the practice profile asks for (for ``katas``, default every kata), computed live and compared with the shipped
    one (tests/oracle.py, ``DOJO_ORACLE_VERIFY``): the run, and what was checked, missing or
    different, with each oracle file's tightest tolerance and the worst share of it used."""
    import json

    state_dir.mkdir(parents=True, exist_ok=True)
    report = state_dir / "verified.json"
    env = dict(os.environ, DOJO_ORACLE_VERIFY=str(report), DOJO_STATE_DIR=str(state_dir / "state"))
    proc = practice_run(env, katas)
    verified = json.loads(report.read_text()) if report.exists() else {}
    return proc, verified


def _print_verified(verified: dict) -> None:
    import numpy as np
    import torch

    print(f"torch {torch.__version__}, numpy {np.__version__}, "
          f"ATEN_CPU_CAPABILITY={os.environ.get('ATEN_CPU_CAPABILITY', '(unset)')}, "
          f"torch's CPU capability: {torch.backends.cpu.get_cpu_capability()}")
    print(f"{'oracle file':58} {'answers':>7} {'rtol':>7} {'atol':>7} {'worst share':>11}")
    for name, f in sorted(verified.get("files", {}).items()):
        print(f"{name:58} {f['answers']:7} {f['rtol']:7.0e} {f['atol']:7.0e} {f['worst_fraction']:11.2e}")
    print(f"checked {verified.get('checked', 0)}, missing {len(verified.get('missing', []))}, "
          f"different {len(verified.get('different', []))}")


if __name__ == "__main__":
    if sys.argv[1:] == ["build"]:
        sys.exit(build())
    if sys.argv[1:] == ["verify"]:
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            proc, verified = verify(Path(tmp))
        if proc.returncode != 0:
            print(proc.stdout[-3000:] + proc.stderr[-3000:])
        _print_verified(verified)
        sys.exit(proc.returncode or bool(verified.get("missing") or verified.get("different")))
    sys.exit("usage: python -m tests.answer_store build | verify")
