"""The reference sliding-window attention against torch's SDPA with the equivalent explicit mask.

    python tests/katas/sliding_window_attention/benchmark.py                    # one decoding step: n = 1, m = 8192, d = 64,
                                                           # window 256, 4 sinks, float64, 1 thread
    python tests/katas/sliding_window_attention/benchmark.py --whole-runs 7     # 7 fresh processes: median and slowest

One process: both implementations on the same float64 inputs and the same number of threads
(--threads, default 1: NumPy's BLAS through the usual environment variables, set before NumPy is
imported, and torch.set_num_threads). Each time is the best of --runs calls after one warm-up
call. torch gets its (n, m) bool mask (True = attend) built once, outside the timed call, as a
caller that keeps a mask would; the reference builds its own mask inside every call.

The issue's goal: the reference at most 2x torch's time. The reference gathers only the sinks and
the keys inside some query's window (window + num_sinks - 1 + n keys), so a decoding step costs
O(window + num_sinks), while SDPA with a mask reads all m keys.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]


def load(module: str, function: str):
    spec = importlib.util.spec_from_file_location(f"bench_{module}", REPO / "solutions" / f"{module}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return getattr(mod, function)


def best_time(call, runs: int) -> float:
    call()  # warm-up
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return min(times)


def one_run(args) -> dict:
    import numpy as np
    import torch

    torch.set_num_threads(args.threads)
    reference = load("sliding_window_attention", "sliding_window_attention")
    rng = np.random.default_rng(0)
    q, k, v = (np.round(rng.standard_normal(shape), 2) for shape in ((args.n, args.d), (args.m, args.d), (args.m, args.d)))
    p = (args.m - args.n + np.arange(args.n))[:, None]
    j = np.arange(args.m)[None, :]
    allowed = (j <= p) & ((p - j < args.window) | (j < args.sinks))
    tq, tk, tv, tmask = (torch.from_numpy(a) for a in (q, k, v, allowed))

    def ours():
        return reference(q, k, v, args.window, args.sinks)

    def theirs():
        return torch.nn.functional.scaled_dot_product_attention(tq, tk, tv, attn_mask=tmask)

    gap = float(np.max(np.abs(ours() - theirs().numpy())))
    return {"reference_s": best_time(ours, args.runs), "torch_s": best_time(theirs, args.runs), "max_abs_diff": gap}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1, help="new tokens (queries), default 1: a decoding step")
    parser.add_argument("--m", type=int, default=8192, help="tokens in the cache (default 8192)")
    parser.add_argument("--d", type=int, default=64, help="d_k = d_v (default 64)")
    parser.add_argument("--window", type=int, default=256, help="window (default 256)")
    parser.add_argument("--sinks", type=int, default=4, help="num_sinks (default 4)")
    parser.add_argument("--runs", type=int, default=50, help="timed calls per implementation (default 50)")
    parser.add_argument("--threads", type=int, default=1, help="BLAS and torch threads (default 1)")
    parser.add_argument("--whole-runs", type=int, default=0,
                        help="run the measurement in this many fresh processes; report median and slowest")
    parser.add_argument("--json", action="store_true", help="print one run's figures as JSON")
    args = parser.parse_args()

    if args.whole_runs:
        argv = [a for a in sys.argv[1:] if not a.startswith("--whole-runs")]
        if "--whole-runs" in sys.argv:  # "--whole-runs N" given as two arguments
            i = sys.argv.index("--whole-runs")
            argv = sys.argv[1:i] + sys.argv[i + 2 :]
        runs = [json.loads(subprocess.run([sys.executable, __file__, *argv, "--json"], capture_output=True,
                                          text=True, check=True).stdout) for _ in range(args.whole_runs)]
        for key in ("reference_s", "torch_s"):
            values = [r[key] for r in runs]
            print(f"{key[:-2]:9}  median {statistics.median(values) * 1e3:8.3f} ms   slowest {max(values) * 1e3:8.3f} ms")
        ratios = [r["reference_s"] / r["torch_s"] for r in runs]
        print(f"ratio reference / torch  median {statistics.median(ratios):.2f}x   slowest {max(ratios):.2f}x "
              f"(goal <= 2x), over {len(runs)} whole runs; largest |difference| {max(r['max_abs_diff'] for r in runs):.1e}")
        return 0

    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = str(args.threads)
    result = one_run(args)
    if args.json:
        print(json.dumps(result))
    else:
        print(f"n={args.n}, m={args.m}, d={args.d}, window {args.window}, {args.sinks} sinks, float64, "
              f"{args.threads} thread(s), best of {args.runs}:")
        print(f"  reference {result['reference_s'] * 1e3:.3f} ms   torch SDPA (explicit bool mask) "
              f"{result['torch_s'] * 1e3:.3f} ms   ratio {result['reference_s'] / result['torch_s']:.2f}x (goal <= 2x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
