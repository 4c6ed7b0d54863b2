"""Whole-process timings of the practice loop, in a scratch copy of the repository.

    python benchmarks/practice_loop.py [--runs 5]

Measures, as whole processes (median, min and max of --runs after one warm-up run):
  1. `dojo` with no arguments (reads stored verdicts, runs no tests)
  2. `pytest tests/test_softmax.py` on a correct implementation, default (practice) profile
  3. `dojo test softmax` on a correct file
  4. save-to-verdict latency of `dojo watch softmax` (time from writing the file to the
     verdict line), alternating a correct and a wrong file
The scratch copy has its own state folder; the oracle cache warms up in the warm-up run, as it
does on a user's machine after their first run.
"""

import argparse
import os
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def scratch() -> Path:
    root = Path(tempfile.mkdtemp(prefix="dojo-bench-")) / "repo"
    root.mkdir()
    for name in ("katas", "solutions"):
        shutil.copytree(REPO / name, root / name)
    shutil.copytree(REPO / "tests", root / "tests", ignore=shutil.ignore_patterns("meta", "tool", "katas", "__pycache__"))
    for name in ("conftest.py", "pyproject.toml"):
        shutil.copy(REPO / name, root / name)
    shutil.copy(REPO / "solutions" / "softmax.py", root / "katas" / "softmax.py")
    return root


def environ(root: Path) -> dict:
    env = dict(os.environ, DOJO_ROOT=str(root), DOJO_STATE_DIR=str(root / ".dojo"), NO_COLOR="1",
               PYTHONPATH=str(REPO))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("CI", None)
    return env


def timed(cmd, root, runs):
    times = []
    for i in range(runs + 1):
        start = time.perf_counter()
        subprocess.run(cmd, cwd=root, env=environ(root), capture_output=True, check=False)
        if i:  # the first run is the warm-up
            times.append(time.perf_counter() - start)
    return times


def watch_latency(root, runs):
    proc = subprocess.Popen([sys.executable, "-m", "dojo", "watch", "softmax"], cwd=root,
                            env=environ(root), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    buf = b""

    def wait_for(marker: bytes, since: int) -> int:
        nonlocal buf
        deadline = time.monotonic() + 120
        while buf.find(marker, since) < 0:
            if time.monotonic() > deadline:
                raise RuntimeError("watch did not answer:\n" + buf.decode(errors="replace"))
            ready, _, _ = select.select([proc.stdout], [], [], 0.05)
            if ready:
                buf += os.read(proc.stdout.fileno(), 65536)
        return len(buf)

    good = (REPO / "solutions" / "softmax.py").read_text()
    bad = (REPO / "tests" / "katas" / "softmax" / "wrong" / "ignores_axis.py").read_text()
    pos = wait_for(b"properties pass", 0)
    times = []
    for i in range(2 * (runs + 1)):
        text = bad if i % 2 == 0 else good
        start = time.perf_counter()
        (root / "katas" / "softmax.py").write_text(text + f"\n# save {i}\n")
        pos = wait_for(b"properties pass", pos)
        if i >= 2:  # the first correct/wrong pair warms the oracle cache
            times.append(time.perf_counter() - start)
    proc.stdin.write(b"q")
    proc.stdin.close()
    proc.wait(timeout=30)
    return times


def report(label, times):
    print(f"{label:48s} median {statistics.median(times):6.2f} s   min {min(times):6.2f}   max {max(times):6.2f}   (n={len(times)})")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    root = scratch()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, scratch repo {root}")
    report("dojo (no arguments)", timed([sys.executable, "-m", "dojo"], root, args.runs))
    report("pytest tests/test_softmax.py (correct, default)",
           timed([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_softmax.py"], root, args.runs))
    report("dojo test softmax (correct file)", timed([sys.executable, "-m", "dojo", "test", "softmax"], root, args.runs))
    report("dojo watch: save -> verdict", watch_latency(root, args.runs))
    shutil.rmtree(root.parent, ignore_errors=True)


if __name__ == "__main__":
    main()
