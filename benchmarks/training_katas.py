"""Whole-process judge times of the "Training and positions" katas on a correct file.

    python benchmarks/training_katas.py [--runs 5] [--katas attention_backward rope batched_attention]

For each kata: the reference answer is copied to a temporary folder and judged with
`pytest tests/test_<kata>.py --impl=<that folder> -q -p no:cacheprovider` (the practice
profile, as a candidate runs it). The first run starts with an empty oracle cache (its own
DOJO_STATE_DIR), so it pays for importing torch and computing every oracle answer; the next
--runs reuse that cache, as a candidate's later runs do. Prints the first run, then the median,
min and max of the others.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
KATAS = ("attention_backward", "rope", "batched_attention")


def judge_once(kata: str, impl: Path, state: Path) -> tuple[float, int]:
    env = dict(os.environ, DOJO_STATE_DIR=str(state))
    env.pop("CI", None)
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", f"tests/test_{kata}.py", f"--impl={impl}", "-q", "-p", "no:cacheprovider"],
        cwd=REPO, env=env, capture_output=True, text=True, check=False,
    )
    return time.perf_counter() - start, proc.returncode


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--katas", nargs="+", default=list(KATAS))
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores")
    for kata in args.katas:
        work = Path(tempfile.mkdtemp(prefix=f"dojo-{kata}-"))
        impl, state = work / "impl", work / "state"
        impl.mkdir()
        shutil.copy(REPO / "solutions" / f"{kata}.py", impl / f"{kata}.py")
        first, code = judge_once(kata, impl, state)
        if code != 0:
            raise SystemExit(f"{kata}: the reference failed its own judge (exit {code})")
        later = [judge_once(kata, impl, state)[0] for _ in range(args.runs)]
        print(f"{kata:20s} first run {first:5.2f} s   later runs: median {statistics.median(later):5.2f} s"
              f"   min {min(later):5.2f}   max {max(later):5.2f}   (n={len(later)})")
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
