"""How long a candidate waits for a verdict: `dojo test`, `dojo watch` and the interview judge,
on correct files and on every known-wrong file, as whole processes, in scratch copies.

    python benchmarks/judge_speed.py                 # every kata
    python benchmarks/judge_speed.py softmax --runs 5

For each kata it prints a table:
  1. `dojo test KATA` on the reference answer in a fresh clone: the first run (nothing compiled,
     no state) and later runs (median of --runs);
  2. `dojo test KATA` on every file in tests/katas/KATA/wrong/ with an empty state folder (a
     fresh clone's first look at that bug): median and slowest, and whether the verdict still
     shows the failing input;
  3. `dojo watch KATA`: save -> verdict, alternating the reference and wrong files;
  4. `dojo interview KATA`: save -> pass count, the same way.
Only public tools: the standard library and the `dojo` command. Wall-clock seconds; the
machine should be otherwise idle.
"""

from __future__ import annotations

import argparse
import os
import re
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from dojo.catalogue import registry  # noqa: E402

COPY = ("katas", "solutions", "tests", "dojo", "conftest.py", "pyproject.toml")


def clone() -> Path:
    """A fresh copy of the repository: no state, no compiled files."""
    root = Path(tempfile.mkdtemp(prefix="dojo-speed-")) / "repo"
    root.mkdir()
    for name in COPY:
        src = REPO / name
        if src.is_dir():
            shutil.copytree(src, root / name, ignore=shutil.ignore_patterns("__pycache__", ".dojo"))
        else:
            shutil.copy(src, root / name)
    return root


def environ(root: Path, state: Path) -> dict:
    env = dict(os.environ, DOJO_ROOT=str(root), DOJO_STATE_DIR=str(state), NO_COLOR="1",
               PYTHONPATH=str(root))
    for name in ("PYTHONDONTWRITEBYTECODE", "CI", "DOJO_FAKE_CLOCK"):
        env.pop(name, None)
    return env


def dojo_test(root: Path, state: Path, kata: str) -> tuple[float, str]:
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "dojo", "test", kata], cwd=root, env=environ(root, state),
                          capture_output=True, text=True, stdin=subprocess.DEVNULL)
    return time.perf_counter() - start, proc.stdout + proc.stderr


class Live:
    """A running `dojo` command whose output is read as it comes."""

    def __init__(self, root: Path, state: Path, *args: str):
        self.proc = subprocess.Popen([sys.executable, "-m", "dojo", *args], cwd=root,
                                     env=environ(root, state), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.buf = b""

    def wait_for(self, pattern: bytes, since: int, timeout: float = 120) -> re.Match:
        deadline = time.monotonic() + timeout
        while True:
            match = re.compile(pattern).search(self.buf, since)
            if match:
                return match
            if time.monotonic() > deadline:
                raise RuntimeError("no answer:\n" + self.buf.decode(errors="replace")[-3000:])
            ready, _, _ = select.select([self.proc.stdout], [], [], 0.02)
            if ready:
                chunk = os.read(self.proc.stdout.fileno(), 65536)
                if not chunk:
                    raise RuntimeError("it exited:\n" + self.buf.decode(errors="replace")[-3000:])
                self.buf += chunk

    def stop(self, keys: bytes) -> None:
        try:
            self.proc.stdin.write(keys)
            self.proc.stdin.close()
            self.proc.wait(timeout=30)
        except Exception:
            self.proc.kill()


def save_to_verdict(live: Live, target: Path, texts: list[str], verdict: bytes, pos: int) -> list[float]:
    """Write each text to ``target`` in turn; seconds from the write to the whole verdict line."""
    times = []
    for i, text in enumerate(texts):
        start = time.perf_counter()
        target.write_text(text + f"\n# save {i}\n")
        pos = live.wait_for(verdict, pos).end()
        times.append(time.perf_counter() - start)
    return times


#: The yardstick every line is also given as a ratio to: a process that imports NumPy, pytest
#: and Hypothesis and exits, timed in the same run (its median, set by bench_kata).
BASELINE = [sys.executable, "-c", "import numpy, pytest, hypothesis"]
baseline = [1.0]


def summary(times: list[float]) -> str:
    median = statistics.median(times)
    return (f"median {median:5.2f} s   max {max(times):5.2f} s   (n={len(times)})"
            f"   {median / baseline[0]:4.2f}x the baseline")


def time_baseline(runs: int) -> float:
    times = []
    for _ in range(max(3, runs)):
        start = time.perf_counter()
        subprocess.run(BASELINE, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def bench_kata(kata: registry.Kata, runs: int) -> None:
    right = (REPO / "solutions" / f"{kata.module}.py").read_text()
    wrong_files = sorted((REPO / "tests" / "katas" / kata.module / "wrong").glob("*.py"))
    baseline[0] = time_baseline(runs)
    print(f"\n{kata.module}   (baseline `python -c \"import numpy, pytest, hypothesis\"`: {baseline[0]:.2f} s)")

    root = clone()
    (root / "katas" / f"{kata.module}.py").write_text(right)
    first, out = dojo_test(root, root / ".dojo", kata.module)
    assert "properties pass" in out, out
    later = [dojo_test(root, root / ".dojo", kata.module)[0] for _ in range(runs)]
    print(f"  dojo test, correct file, fresh clone, first run   {first:5.2f} s")
    print(f"  dojo test, correct file, later runs               {summary(later)}")

    times, slowest, unshown = [], ("", 0.0), []
    for path in wrong_files:
        (root / "katas" / f"{kata.module}.py").write_text(path.read_text())
        state = Path(tempfile.mkdtemp(prefix="dojo-speed-state-"))
        seconds, out = dojo_test(root, state, kata.module)
        shutil.rmtree(state, ignore_errors=True)
        times.append(seconds)
        if seconds > slowest[1]:
            slowest = (path.stem, seconds)
        if "First failure" in out and "failing input" not in out and "the input it hung on" not in out:
            unshown.append(path.stem)
    print(f"  dojo test, each of {len(wrong_files):2d} wrong files, empty state  {summary(times)}   slowest: {slowest[0]}")
    if unshown:
        print(f"    no failing input shown for: {', '.join(unshown)}")

    wrong_texts = [p.read_text() for p in wrong_files[: max(2, runs)]]
    texts = [t for w in wrong_texts for t in (w, right)]
    target = root / "katas" / f"{kata.module}.py"
    target.write_text(right)
    state = root / ".dojo"
    live = Live(root, state, "watch", kata.module)
    try:
        pos = live.wait_for(rb"properties pass[^\n]*\n", 0).end()
        watch = save_to_verdict(live, target, texts, rb"properties pass[^\n]*\n", pos)
    finally:
        live.stop(b"q")
    print(f"  dojo watch, save -> verdict, right and wrong files {summary(watch)}")

    live = Live(root, state, "interview", kata.module, "--minutes", "60")
    try:
        match = live.wait_for(rb"Write your answer in: (\S+)", 0)
        attempt = Path(match.group(1).decode())
        attempt = attempt if attempt.is_absolute() else root / attempt  # said from the repository
        pos = live.wait_for(rb"the clock stops hard[^\n]*\n", match.end()).end()
        interview = save_to_verdict(live, attempt, texts, rb"properties pass[^\n]*\n", pos)
    finally:
        live.stop(b"qy")
    print(f"  dojo interview, save -> pass count                {summary(interview)}")
    shutil.rmtree(root.parent, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("katas", nargs="*")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    katas = [registry.get(k) for k in args.katas] or list(registry.KATAS)
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores; wall-clock seconds, whole processes")
    for kata in katas:
        bench_kata(kata, args.runs)


if __name__ == "__main__":
    main()
