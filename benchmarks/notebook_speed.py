"""How long a notebook user waits for a verdict: a ``%%kata KATA`` cell, from sending it to the
kernel until the verdict is on screen, and for a failing answer until compare's heatmap has
filled in below it (the kernel idle again), beside ``dojo test KATA`` on the same file as a
whole process.

    python benchmarks/notebook_speed.py                      # softmax, 5 runs each
    python benchmarks/notebook_speed.py causal_self_attention --runs 9

Needs the notebook extra (``pip install -e ".[notebook]"``). Works in a scratch copy of the
repository (``judge_speed.clone``) with an empty state folder; the kernel is started from a
temporary kernelspec that points at this Python (a user's own kernels are never used). The
cells alternate the reference answer and the first known wrong answer of the kata (in
tests/katas/KATA/wrong/), so every cell writes a changed file, as a candidate's edit does. The
first cell of each (nothing compiled yet) is reported on its own; then median and slowest.
Wall-clock seconds; the machine should be otherwise idle.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from judge_speed import REPO, clone, environ  # noqa: E402

from jupyter_client.kernelspec import KernelSpecManager  # noqa: E402
from jupyter_client.manager import KernelManager  # noqa: E402


def kernel(root: Path, state: Path) -> KernelManager:
    folder = Path(tempfile.mkdtemp(prefix="dojo-nb-spec-")) / "kernels" / "dojo-bench"
    folder.mkdir(parents=True)
    env = {k: v for k, v in environ(root, state).items() if k.startswith("DOJO_") or k in ("PYTHONPATH", "NO_COLOR")}
    (folder / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "dojo bench", "language": "python", "env": env}))
    km = KernelManager(kernel_name="dojo-bench", kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(folder.parent)]))
    km.start_kernel(cwd=str(root))
    return km


def run_cell(client, code: str, deadline: float = 600.0) -> tuple[float, float, str]:
    """Seconds from sending ``code`` to the verdict on screen (its pass count shown), and to the
    kernel going idle after it (the heatmap too, for a failing answer); the HTML it showed."""
    started = time.monotonic()
    msg_id = client.execute(code)
    shown, verdict = [], None
    while True:
        msg = client.get_iopub_msg(timeout=deadline)
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        shown.append(msg["content"].get("data", {}).get("text/html", ""))
        if verdict is None and 'class="dojo-summary"' in shown[-1]:
            verdict = time.monotonic() - started
        if msg["msg_type"] == "status" and msg["content"].get("execution_state") == "idle":
            done = time.monotonic() - started
            return (verdict if verdict is not None else done), done, "".join(shown)


def dojo_test(root: Path, state: Path) -> float:
    started = time.monotonic()
    subprocess.run([sys.executable, "-m", "dojo", "test", KATA], cwd=root, env=environ(root, state),
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.monotonic() - started


def summary(times: list[float]) -> str:
    first, rest = times[0], times[1:] or times
    return f"first {first:5.2f} s   median {statistics.median(rest):5.2f} s   slowest {max(rest):5.2f} s"


def main() -> int:
    global KATA
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kata", nargs="?", default="softmax")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    KATA = args.kata
    root = clone()
    state = root.parent / "state"
    right = (REPO / "solutions" / f"{KATA}.py").read_text()
    wrong = (sorted((REPO / "tests" / "katas" / KATA / "wrong").glob("*.py"))[0]).read_text()
    km = kernel(root, state)
    client = km.client()
    client.start_channels()
    cells = {"right": [], "wrong": []}
    heatmap = []
    terminal = {"right": [], "wrong": []}
    try:
        client.wait_for_ready(timeout=120)
        run_cell(client, "%load_ext dojo")
        for _ in range(args.runs):
            for name, source in (("right", right), ("wrong", wrong)):
                seconds, done, shown = run_cell(client, f"%%kata {KATA}\n{source}")
                expected = "dojo-heatmap" if name == "wrong" else "Passed:"
                if expected not in shown:
                    print(f"unexpected output for the {name} answer:\n{shown[-2000:]}", file=sys.stderr)
                    return 1
                cells[name].append(seconds)
                if name == "wrong":
                    heatmap.append(done)
                (root / "katas" / f"{KATA}.py").write_text(source)
                terminal[name].append(dojo_test(root, state))
    finally:
        client.stop_channels()
        km.shutdown_kernel(now=True)
    print(f"{KATA}: {args.runs} runs each, alternating the reference and a known wrong answer")
    for name in ("right", "wrong"):
        print(f"  %%kata {name} answer, to the verdict:    {summary(cells[name])}")
        if name == "wrong":
            print(f"  %%kata wrong answer, to the heatmap:    {summary(heatmap)}")
        print(f"  dojo test {name} answer (whole process): {summary(terminal[name])}")
    return 0


KATA = "softmax"

if __name__ == "__main__":
    sys.exit(main())
