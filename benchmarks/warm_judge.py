"""Save -> verdict with the warm judge, against the same verdict from fresh interpreters
(``DOJO_WARM=0``) and plain pytest, as whole processes, each run paired with a baseline that
imports NumPy, pytest and Hypothesis and exits (A B A B ...: the ratio is taken pair by pair,
so a machine whose speed drifts during the run still gives a fair ratio).

    python benchmarks/warm_judge.py                     # every kata, warm judge only, 7 runs
    python benchmarks/warm_judge.py --runs 10 --cold softmax masked_attention flash_attention

For each kata: ``dojo test KATA`` on the reference answer, then on the kata's first known-wrong
file (its failure is retried first from the second run on), both with the warm judge; with
``--cold`` also ``DOJO_WARM=0`` and plain ``pytest tests/test_KATA.py --impl solutions``.
Works in a scratch clone of this checkout; only the standard library and the checkout's Python.
Wall seconds from the command's start to its exit: min, median, max; the machine should be idle.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from dojo.catalogue import registry  # noqa: E402

BASELINE = [sys.executable, "-c", "import numpy, pytest, hypothesis"]


def seconds(command: list[str], cwd: Path, env: dict) -> float:
    """Wall seconds of ``command``, from its start to its exit. A blocking wait: with a timeout,
    ``subprocess.run`` polls the child with sleeps of up to 50 ms, and every figure this script
    printed until stop 58 came out up to 50 ms late (they fell on a 50 ms grid)."""
    start = time.monotonic()
    proc = subprocess.Popen(command, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    timer = threading.Timer(900, proc.kill)
    timer.start()
    try:
        proc.wait()
    finally:
        timer.cancel()
    return time.monotonic() - start


def paired(label: str, command: list[str], cwd: Path, env: dict, runs: int, warmup: int) -> dict:
    """``runs`` timed runs of ``command`` after ``warmup`` untimed ones, each followed by the
    baseline; prints and returns min, median and max and the median of the pairs' ratios."""
    for _ in range(warmup):
        seconds(command, cwd, env)
    mine, base = [], []
    for _ in range(runs):
        mine.append(seconds(command, cwd, env))
        base.append(seconds(BASELINE, cwd, env))
    ratio = statistics.median(a / b for a, b in zip(mine, base))
    row = dict(min=min(mine), median=statistics.median(mine), max=max(mine),
               baseline=statistics.median(base), ratio=ratio)
    print(f"  {label:<44} min {row['min']:5.2f}  median {row['median']:5.2f}  max {row['max']:5.2f} s"
          f"   baseline {row['baseline']:4.2f} s   ratio {ratio:4.2f}x", flush=True)
    return row


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("katas", nargs="*")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--cold", action="store_true", help="also DOJO_WARM=0 and plain pytest")
    args = parser.parse_args()
    katas = [registry.get(k) for k in args.katas] if args.katas else list(registry.KATAS)

    scratch = Path(tempfile.mkdtemp(prefix="dojo-bench-"))
    root = scratch / "repo"
    subprocess.run(["git", "clone", "-q", str(REPO), str(root)], check=True)
    env = dict(os.environ, DOJO_STATE_DIR=str(scratch / "state"), NO_COLOR="1")
    for name in ("CI", "DOJO_WARM", "DOJO_SEED", "PYTHONDONTWRITEBYTECODE"):
        env.pop(name, None)
    dojo = [sys.executable, "-m", "dojo", "test"]
    rows = {}
    try:
        for kata in katas:
            print(kata.module, flush=True)
            target = root / "katas" / f"{kata.module}.py"
            shutil.copy(root / "solutions" / f"{kata.module}.py", target)
            rows[kata.module, "right"] = paired("dojo test, reference (warm judge)", dojo + [kata.module],
                                                root, env, args.runs, warmup=2)
            if args.cold:
                paired("dojo test, reference, DOJO_WARM=0", dojo + [kata.module], root,
                       dict(env, DOJO_WARM="0"), args.runs, warmup=1)
                paired("pytest tests/test_KATA.py --impl solutions",
                       [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        f"tests/test_{kata.module}.py", "--impl", "solutions"], root, env, args.runs, warmup=1)
            wrong = sorted((root / "tests" / "katas" / kata.module / "wrong").glob("*.py"))[0]
            shutil.copy(wrong, target)
            rows[kata.module, "wrong"] = paired(f"dojo test, {wrong.stem} (warm judge)"[:44], dojo + [kata.module],
                                                root, env, args.runs, warmup=2)
        medians = [r["median"] for r in rows.values()]
        slowest = [r["max"] for r in rows.values()]
        ratios = [r["ratio"] for r in rows.values()]
        print(f"\nall {len(rows)} warm rows: median of medians {statistics.median(medians):.2f} s, "
              f"largest median {max(medians):.2f} s, slowest run {max(slowest):.2f} s, "
              f"median ratio {statistics.median(ratios):.2f}x, largest {max(ratios):.2f}x")
    finally:
        subprocess.run([sys.executable, "-m", "dojo", "clean"], cwd=root, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, input=b"y\n")
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
