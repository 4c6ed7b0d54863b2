"""Linear attention, causal, n = m = 4096, d_k = d_v = 16: the reference against the quadratic
form (the full n×n matrix phi(q) phi(k)ᵀ, masked), in time and in peak memory.

    python tests/katas/linear_attention/benchmark.py [--runs 7]

For each implementation, in this process: the median and best wall time of --runs calls (after
a warm-up call) and tracemalloc's peak during one call (NumPy reports its allocations to it).
Then the judge's own measure at the bound's size (n = 1000, m = 16500, d = 4; dojo/worker/memory.py,
the bound is in tests/test_linear_attention.py): in a fresh worker, what the module holds, what a
first call (causal=False) leaves resident and the rise during a second call (causal=True), for the
reference, every right answer in tests/katas/linear_attention/right/, the full-matrix wrong
answer, the one that keeps its matrix between calls and the hostile file that builds an n×m mask
of bools.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO))

import numpy as np  # noqa: E402

from dojo.worker.loader import load_kata  # noqa: E402
from dojo.worker.remote import RemoteFunction  # noqa: E402

N, D = 4096, 16
WRONG_FULL = REPO / "tests" / "katas" / "linear_attention" / "wrong" / "causal_full_matrix.py"


def timed(fn, inputs, runs: int) -> tuple[float, float]:
    fn(**inputs)  # warm-up
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn(**inputs)
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times)


def traced_peak(fn, inputs) -> int:
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        fn(**inputs)
        return tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    inputs = {name: rng.normal(size=(N, D)) for name in "qkv"}
    inputs["causal"] = True
    reference = load_kata(REPO / "solutions" / "linear_attention.py", "linear_attention")
    quadratic = load_kata(WRONG_FULL, "linear_attention")
    diff = float(np.abs(reference(**inputs) - quadratic(**inputs)).max())
    print(f"causal, n = m = {N}, d_k = d_v = {D}, float64; largest difference between the two: {diff:.1e}")
    print(f"{'':34} {'median':>9} {'best':>9} {'tracemalloc peak':>17}")
    for name, fn in (("reference (running state, chunks)", reference), ("quadratic form (n×n, masked)", quadratic)):
        median, best = timed(fn, inputs, args.runs)
        peak = traced_peak(fn, inputs)
        print(f"{name:34} {median * 1e3:7.1f} ms {best * 1e3:7.1f} ms {peak / 2**20:13.1f} MiB")
    print("the judge's measure at n = 1000, m = 16500, d = 4 (in a fresh worker: module + first call kept + second call's rise;"
          " bound 12 MiB):")
    inputs = {"q": rng.normal(size=(1000, 4)), "k": rng.normal(size=(16500, 4)), "v": rng.normal(size=(16500, 4))}
    files = [REPO / "solutions" / "linear_attention.py",
             *sorted((REPO / "tests" / "katas" / "linear_attention" / "right").glob("*.py")), WRONG_FULL,
             WRONG_FULL.parent / "keeps_a_matrix_between_calls.py",
             REPO / "tests" / "meta" / "hostile" / "linear_attention_full_bool_causal_mask.py"]
    for path in files:
        fn = RemoteFunction(path, "linear_attention", cpu_budget=None)
        try:
            rises = [fn.peak_memory_of({**inputs, "causal": False}, {**inputs, "causal": True}, cpu=10.0)[1]
                     for _ in range(3)]
        finally:
            fn.close()
        print(f"  {path.relative_to(REPO)}: {', '.join(f'{r / 2**20:.1f}' for r in rises)} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
