"""Multi-head latent attention (DeepSeek-V2's MLA): the size of its cache against a full K/V
cache, and one decoding step with the up-projections absorbed against the explicit step.

    python tests/katas/latent_attention/benchmark.py [--cached 1024] [--repeat 5] [--threads 1]

The configuration is one attention layer of DeepSeek-V2 (its paper's sizes): d_model 5120,
128 heads, d_h = d_v = 128, d_c = 512, d_r = 64. The cache is counted in bfloat16 (2 bytes
a number). The decoding step is one new token against ``--cached`` cached tokens, float32,
NumPy, random weights (scaled so the scores are of order 1), without w_o (the same matmul in
both forms):

- explicit: k_c = c_kv w_uk and v = c_kv w_uv rebuilt for every cached token, then attention;
- absorbed: q_c,h W_uk,h^T scores the latents c_kv directly, the weights average c_kv, and
  W_uv,h is applied once to that average (the keys and values are never built).

Prints the bytes per token, the median wall time of each step, the ratio, and the largest
difference between the two outputs (relative to the largest output).
"""

import argparse
import os
import statistics
import time

parser = argparse.ArgumentParser()
parser.add_argument("--cached", type=int, default=1024)
parser.add_argument("--repeat", type=int, default=5)
parser.add_argument("--threads", type=int, default=1)
args = parser.parse_args()
for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[var] = str(args.threads)

import numpy as np  # noqa: E402

D_MODEL, H, D_H, D_V, D_C, D_R = 5120, 128, 128, 128, 512, 64
BF16 = 2

full = 2 * H * D_H * BF16  # a key and a value per head
latent = (D_C + D_R) * BF16  # c_kv and the shared k_rope
print(f"DeepSeek-V2 layer: d_model {D_MODEL}, {H} heads, d_h = d_v = {D_H}, d_c {D_C}, d_r {D_R}; bfloat16")
print(f"cache per token and layer: full K/V {full} bytes, latent {latent} bytes ({full / latent:.1f}x smaller)")
print(f"  for 32768 tokens and 60 layers: full {full * 32768 * 60 / 2**30:.1f} GiB, "
      f"latent {latent * 32768 * 60 / 2**30:.2f} GiB")

rng = np.random.default_rng(0)
m, f32 = args.cached, np.float32
c_kv = rng.standard_normal((m, D_C), dtype=f32)
k_rope = rng.standard_normal((m, D_R), dtype=f32)
q_c = rng.standard_normal((H, D_H), dtype=f32)
q_r = rng.standard_normal((H, D_R), dtype=f32)
w_uk = (rng.standard_normal((D_C, H * D_H), dtype=f32) / np.sqrt(D_C)).astype(f32)
w_uv = (rng.standard_normal((D_C, H * D_V), dtype=f32) / np.sqrt(D_C)).astype(f32)
w_uk_h = np.ascontiguousarray(w_uk.reshape(D_C, H, D_H).transpose(1, 0, 2))  # (H, d_c, d_h)
w_uv_h = np.ascontiguousarray(w_uv.reshape(D_C, H, D_V).transpose(1, 0, 2))  # (H, d_c, d_v)
scale = f32(1 / np.sqrt(D_H + D_R))


def softmax(s):
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def explicit():
    k_c = (c_kv @ w_uk).reshape(m, H, D_H)  # (m, H, d_h): every cached key rebuilt
    v = (c_kv @ w_uv).reshape(m, H, D_V)
    p = softmax((np.einsum("hd,mhd->hm", q_c, k_c) + q_r @ k_rope.T) * scale)  # (H, m)
    return np.einsum("hm,mhd->hd", p, v)  # (H, d_v)


def absorbed():
    q_abs = np.matmul(w_uk_h, q_c[:, :, None])[:, :, 0]  # (H, d_c) = W_uk,h q_c,h
    p = softmax((q_abs @ c_kv.T + q_r @ k_rope.T) * scale)  # (H, m): scores on the latents
    mixed = p @ c_kv  # (H, d_c)
    return np.matmul(mixed[:, None, :], w_uv_h)[:, 0, :]  # (H, d_v)


def timed(fn):
    fn()  # warm-up
    times = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), out


t_explicit, a = timed(explicit)
t_absorbed, b = timed(absorbed)
diff = float(np.abs(a.astype(np.float64) - b).max() / np.abs(a).max())
print(f"decode step, 1 new token against {m} cached tokens, float32, {args.threads} thread(s), "
      f"median of {args.repeat}:")
print(f"  explicit (keys and values rebuilt): {t_explicit * 1e3:9.1f} ms")
print(f"  absorbed (W_uk, W_uv folded):       {t_absorbed * 1e3:9.1f} ms   ({t_explicit / t_absorbed:.0f}x faster)")
print(f"  largest difference / largest output: {diff:.1e}")
