"""Does a slow answer get "too slow" and a hang get its cause, every time, quiet or busy?

    python benchmarks/slow_and_hung.py [--runs 20] [--busy N]

In a scratch copy of the repository, `dojo test softmax` judges three answers, each --runs
times in a row: a correct softmax that burns about 0.15 s of CPU a call (must say "too slow:"
with its figures, never "infinite loop"), one that loops forever (must say "still computing
after 2 s of CPU time"), and one that sleeps (must say "stopped computing: it waited"). With
--busy N, N spinning processes run beside it, as on a shared laptop. Prints each verdict's
first line and wall time, and the count of verdicts that said the right thing; exit status 0
when all did. Only public tools: the standard library and the `dojo` command.
"""

from __future__ import annotations

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
COPY = ("katas", "solutions", "tests", "dojo", "conftest.py", "pyproject.toml")

BODIES = {
    "slow": ("import time\n", "    start = time.process_time()\n"
             "    while time.process_time() - start < 0.15:\n        pass\n", "too slow:"),
    "loops": ("", "    while True:\n        pass\n", "still computing after 2 s of CPU time"),
    "sleeps": ("import time\n", "    time.sleep(3600)\n", "stopped computing: it waited"),
}


def clone() -> Path:
    root = Path(tempfile.mkdtemp(prefix="dojo-slow-")) / "repo"
    root.mkdir()
    for name in COPY:
        src = REPO / name
        if src.is_dir():
            shutil.copytree(src, root / name, ignore=shutil.ignore_patterns("__pycache__", ".dojo"))
        else:
            shutil.copy(src, root / name)
    return root


def answer(kind: str) -> str:
    head, body, _ = BODIES[kind]
    source = (REPO / "solutions" / "softmax.py").read_text()
    return head + source.replace("def softmax(x, axis=-1):\n", "def softmax(x, axis=-1):\n" + body, 1)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--busy", type=int, default=0)
    args = parser.parse_args()
    root = clone()
    env = dict(os.environ, DOJO_ROOT=str(root), DOJO_STATE_DIR=str(root / ".dojo"), NO_COLOR="1",
               PYTHONPATH=str(root))
    for name in ("CI", "PYTHONDONTWRITEBYTECODE"):
        env.pop(name, None)
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.busy)]
    good = total = 0
    try:
        for kind, (_, _, expected) in BODIES.items():
            (root / "katas" / "softmax.py").write_text(answer(kind))
            times = []
            for i in range(args.runs):
                start = time.monotonic()
                proc = subprocess.run([sys.executable, "-m", "dojo", "test", "softmax"], cwd=root, env=env,
                                      capture_output=True, text=True, stdin=subprocess.DEVNULL)
                times.append(time.monotonic() - start)
                out = proc.stdout + proc.stderr
                right = proc.returncode == 1 and expected in out and "not your fault" not in out
                right = right and (kind != "slow" or "infinite loop" not in out)
                good += right
                total += 1
                line = next((ln.strip() for ln in out.splitlines() if expected.split(":")[0] in ln), out[-200:])
                print(f"{kind} {i + 1}/{args.runs}: {'ok ' if right else 'BAD'} {times[-1]:5.1f} s  {line[:110]}",
                      flush=True)
            print(f"{kind}: median {statistics.median(times):.1f} s, slowest {max(times):.1f} s")
    finally:
        for p in busy:
            p.kill()
            p.wait()
        shutil.rmtree(root.parent, ignore_errors=True)
    print(f"{good} of {total} verdicts named the cause (load average {os.getloadavg()[0]:.1f})")
    return 0 if good == total else 1


if __name__ == "__main__":
    sys.exit(main())
