"""The reference paged attention against torch's SDPA with the equivalent explicit mask: time.

    python tests/katas/paged_attention/benchmark.py                 # n = 1, m = 8192, d = 64, pages of 16
    python tests/katas/paged_attention/benchmark.py --n 4 --runs 50

One decoding step (n new tokens, n = 1 by default) against a cache of m tokens kept in pages of
--page-size from a pool with spare pages, the table shuffled, NaN in every slot outside the
context (as the judge draws it), float64, on --threads threads (NumPy's BLAS through the usual
environment variables, set before NumPy is imported, and torch.set_num_threads):
  1. solutions/paged_attention.py       checks, gathers the m used slots, masked softmax
  2. torch F.scaled_dot_product_attention on the contiguous (m, d) cache with the equivalent
     explicit bool mask, tril(ones(n, m), diagonal=m - n): what the same step costs without pages
  3. (for scale) torch: the same gather with torch indexing, then 2.

Each is called --runs times after one warm-up call; the median and the slowest call are shown.
The issue's goal: the reference within 2× of 2 (median).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]


def load(module: str, function: str):
    spec = importlib.util.spec_from_file_location(f"bench_{module}", REPO / "solutions" / f"{module}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return getattr(mod, function)


def timings(call, runs: int) -> list[float]:
    call()  # warm-up
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        result = call()
        times.append(time.perf_counter() - start)
        del result
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1, help="new tokens (default 1: one decoding step)")
    parser.add_argument("--m", type=int, default=8192, help="context_len (default 8192)")
    parser.add_argument("--d", type=int, default=64, help="d_k = d_v (default 64)")
    parser.add_argument("--page-size", type=int, default=16, help="tokens per page (default 16)")
    parser.add_argument("--runs", type=int, default=30, help="timed calls per implementation (default 30)")
    parser.add_argument("--threads", type=int, default=1,
                        help="BLAS and torch threads (default 1: a decoding step is too small to share, and with 2 "
                             "threads on a busy 2-core machine torch's thread pool waits ~100 ms per call)")
    args = parser.parse_args()

    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = str(args.threads)
    sys.path.insert(0, str(REPO))
    import numpy as np
    import torch

    torch.set_num_threads(args.threads)
    n, m, d, ps = args.n, args.m, args.d, args.page_size
    rng = np.random.default_rng(0)
    q, k, v = (rng.standard_normal(shape) for shape in ((n, d), (m, d), (m, d)))
    used = -(-m // ps)
    pool = used + 64  # pages of other sequences
    table = rng.permutation(pool)[:used].astype(np.int64)
    k_pages, v_pages = np.full((pool, ps, d), np.nan), np.full((pool, ps, d), np.nan)
    t = np.arange(m)
    k_pages[table[t // ps], t % ps], v_pages[table[t // ps], t % ps] = k, v

    paged = load("paged_attention", "paged_attention")
    tq, tk, tv = (torch.from_numpy(a) for a in (q, k, v))
    tkp, tvp, tt = torch.from_numpy(k_pages), torch.from_numpy(v_pages), torch.from_numpy(table)
    allowed = torch.ones(n, m, dtype=torch.bool).tril(diagonal=m - n)
    pos = torch.arange(m)
    sdpa = torch.nn.functional.scaled_dot_product_attention

    calls = {
        "reference paged_attention (solutions/)": lambda: paged(q, k_pages, v_pages, table, m),
        "torch SDPA, contiguous cache, explicit mask": lambda: sdpa(tq, tk, tv, attn_mask=allowed),
        "torch gather + SDPA, explicit mask": lambda: sdpa(
            tq, tkp[tt[pos // ps], pos % ps], tvp[tt[pos // ps], pos % ps], attn_mask=allowed),
    }
    want = calls["torch SDPA, contiguous cache, explicit mask"]().numpy()
    assert np.allclose(calls["reference paged_attention (solutions/)"](), want, rtol=1e-9, atol=1e-12)

    print(f"n = {n}, m = {m}, d_k = d_v = {d}, pages of {ps} ({used} used of a pool of {pool}, table shuffled), "
          f"float64, {args.threads} threads, {args.runs} runs after a warm-up")
    print(f"{'':46s} {'median':>10s} {'slowest':>10s}")
    medians = {}
    for name, call in calls.items():
        times = timings(call, args.runs)
        medians[name] = statistics.median(times)
        print(f"{name:46s} {medians[name] * 1e3:7.3f} ms {max(times) * 1e3:7.3f} ms")
    names = list(calls)
    print(f"reference / torch SDPA (contiguous, explicit mask), medians: {medians[names[0]] / medians[names[1]]:.2f}×"
          "  (goal ≤ 2×)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
