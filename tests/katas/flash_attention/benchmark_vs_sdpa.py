"""The reference flash attention against the reference SDPA and torch's SDPA: time and peak memory.

    python tests/katas/flash_attention/benchmark_vs_sdpa.py                 # n = m = 4096, d = 64, float64, not causal
    python tests/katas/flash_attention/benchmark_vs_sdpa.py --causal --block-size 512 --runs 5

Three implementations of the same attention, on the same float64 inputs and the same number of
threads (--threads, default 2: NumPy's BLAS through the usual environment variables, set before
NumPy is imported, and torch.set_num_threads):
  1. solutions/flash_attention.py   keys in blocks, online softmax, never an n×m array
  2. solutions/masked_attention.py  the textbook answer: the whole (n, m) score matrix
  3. torch's F.scaled_dot_product_attention (in float64 on a CPU it takes the math path)

Time is the best of --runs calls after one warm-up call. Peak memory is one call's: tracemalloc
for the two NumPy answers (NumPy reports its allocations to it), torch's profiler
(profile_memory) for torch, whose allocator tracemalloc cannot see. The issue's targets: the
reference flash never holds a full matrix (its peak stays far below one n×m float64 matrix),
and its time is within 3× of the reference SDPA's.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import time
import tracemalloc
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
        result = call()
        times.append(time.perf_counter() - start)
        del result
    return min(times)


def traced_peak(call) -> int:
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        result = call()
        peak = tracemalloc.get_traced_memory()[1] - base
        del result
    finally:
        tracemalloc.stop()
    return peak


def torch_peak(call) -> int | None:
    from dojo.commands.compare import torch_peak_memory

    return torch_peak_memory(call)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=4096, help="queries = keys (default 4096)")
    parser.add_argument("--d", type=int, default=64, help="d_k = d_v (default 64)")
    parser.add_argument("--block-size", type=int, default=256, help="flash attention's block size (default 256)")
    parser.add_argument("--causal", action="store_true", help="bottom-right causal mask (n = m: the usual one)")
    parser.add_argument("--runs", type=int, default=3, help="timed calls per implementation (default 3)")
    parser.add_argument("--threads", type=int, default=2, help="BLAS and torch threads (default 2)")
    args = parser.parse_args()

    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = str(args.threads)
    sys.path.insert(0, str(REPO))
    import numpy as np
    import torch

    torch.set_num_threads(args.threads)
    n, d = args.n, args.d
    rng = np.random.default_rng(0)
    q, k, v = (rng.standard_normal((n, d)) for _ in range(3))
    mask = np.tril(np.ones((n, n), dtype=bool)) if args.causal else None
    flash = load("flash_attention", "flash_attention")
    sdpa = load("masked_attention", "scaled_dot_product_attention")
    tq, tk, tv = (torch.from_numpy(a) for a in (q, k, v))

    calls = {
        f"reference flash attention (block_size={args.block_size})":
            lambda: flash(q, k, v, args.block_size, causal=args.causal),
        "reference SDPA (solutions/masked_attention.py)": lambda: sdpa(q, k, v, mask),
        "torch F.scaled_dot_product_attention": lambda: torch.nn.functional.scaled_dot_product_attention(
            tq, tk, tv, is_causal=args.causal),
    }
    out_flash, _ = calls[next(iter(calls))]()
    out_sdpa, _ = sdpa(q, k, v, mask)
    assert np.allclose(out_flash, out_sdpa, rtol=1e-9, atol=1e-12), "flash and SDPA disagree"

    full = n * n * 8
    print(f"n = m = {n}, d_k = d_v = {d}, float64, {'causal' if args.causal else 'not causal'}, "
          f"{args.threads} threads; one full n×m float64 matrix is {full / 2**20:.0f} MiB")
    print(f"{'':48s} {'time (best of ' + str(args.runs) + ')':>20s} {'peak memory':>14s}")
    seconds = {}
    for name, call in calls.items():
        seconds[name] = best_time(call, args.runs)
        peak = torch_peak(call) if name.startswith("torch") else traced_peak(call)
        shown = "—" if peak is None else f"{peak / 2**20:.1f} MiB"
        print(f"{name:48s} {seconds[name] * 1e3:17.0f} ms {shown:>14s}")
    names = list(calls)
    print(f"flash / reference SDPA time: {seconds[names[0]] / seconds[names[1]]:.2f}×  (target ≤ 3×)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
