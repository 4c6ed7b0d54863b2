"""Reference multihead_attention (NumPy) against torch CPU float64, same thread count.

    python tests/katas/multihead_attention/benchmark.py [--n 1024] [--d-model 512] [--heads 8] [--repeat 7]

Prints the median wall time of each and the ratio numpy/torch. Both get the same number of
threads (torch.set_num_threads, and threadpoolctl-free: OPENBLAS/OMP variables are set
before NumPy loads, from --threads, default all cores).
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

parser = argparse.ArgumentParser()
parser.add_argument("--n", type=int, default=1024)
parser.add_argument("--d-model", type=int, default=512)
parser.add_argument("--heads", type=int, default=8)
parser.add_argument("--repeat", type=int, default=7)
parser.add_argument("--threads", type=int, default=os.cpu_count())
parser.add_argument("--causal", action="store_true")
args = parser.parse_args()
for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[var] = str(args.threads)

import numpy as np  # noqa: E402
import torch  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from solutions.multihead_attention import multihead_attention  # noqa: E402

torch.set_num_threads(args.threads)
rng = np.random.default_rng(0)
n, d, h = args.n, args.d_model, args.heads
x = rng.standard_normal((n, d))
w_q, w_k, w_v, w_o = (rng.standard_normal((d, d)) / np.sqrt(d) for _ in range(4))


def ours():
    return multihead_attention(x, w_q, w_k, w_v, w_o, h, causal=args.causal)


tx, tq, tk, tv, to = (torch.from_numpy(a) for a in (x, w_q, w_k, w_v, w_o))


def theirs():
    with torch.no_grad():
        q = (tx @ tq).view(n, h, -1).transpose(0, 1)
        k = (tx @ tk).view(n, h, -1).transpose(0, 1)
        v = (tx @ tv).view(n, h, -1).transpose(0, 1)
        scores = q @ k.transpose(-2, -1) / (d // h) ** 0.5
        if args.causal:
            scores = scores.masked_fill(~torch.ones(n, n, dtype=torch.bool).tril(), float("-inf"))
        weights = torch.softmax(scores, dim=-1)  # materialised, as ours returns it
        out = (weights @ v).transpose(0, 1).reshape(n, -1) @ to
        return out, weights


def sdpa_out_only():
    """torch's fused path: out only, no weights materialised for the caller (for context)."""
    with torch.no_grad():
        q = (tx @ tq).view(n, h, -1).transpose(0, 1)
        k = (tx @ tk).view(n, h, -1).transpose(0, 1)
        v = (tx @ tv).view(n, h, -1).transpose(0, 1)
        heads = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=args.causal)
        return heads.transpose(0, 1).reshape(n, -1) @ to


def timed(fn):
    fn()
    runs = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - start)
    return statistics.median(runs), min(runs)


a_out, a_w = ours()
b_out, b_w = theirs()
assert np.allclose(a_out, b_out.numpy(), rtol=1e-9, atol=1e-9) and np.allclose(a_w, b_w.numpy())
ours_t, ours_min = timed(ours)
torch_t, torch_min = timed(theirs)
sdpa_t, sdpa_min = timed(sdpa_out_only)
print(f"n={n} d_model={d} heads={h} causal={args.causal} threads={args.threads} float64")
print(f"numpy reference : median {ours_t * 1e3:8.1f} ms  (min {ours_min * 1e3:.1f})")
print(f"torch (weights) : median {torch_t * 1e3:8.1f} ms  (min {torch_min * 1e3:.1f})")
print(f"ratio numpy/torch: {ours_t / torch_t:.2f}   (the target is <= 1.2; same work: both return the weights)")
print(f"torch SDPA, out only (no weights returned): median {sdpa_t * 1e3:.1f} ms; numpy/that = {ours_t / sdpa_t:.2f}")
