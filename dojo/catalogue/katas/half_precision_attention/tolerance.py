"""half_precision_attention's own tolerance (dojo/catalogue/tolerances.py): float16's accuracy,
not float64's, as its contract states it."""

from __future__ import annotations

import numpy as np

NAME = "float16_attention"


def allowance(inputs: dict, want: np.ndarray) -> np.ndarray:
    """half_precision_attention's contract: per entry (i, c) of out,
    ulp16(fp16(o*)) + 2^-12 · max_j |v[j, c]| · (1 + S_i), S_i = max_j sum_t |q[i, t] k[j, t]| / sqrt(d_k)."""
    q, k, v = (np.asarray(inputs[name], dtype=np.float64) for name in ("q", "k", "v"))
    size = (np.abs(q) @ np.abs(k).T).max(axis=1) / np.sqrt(q.shape[1])  # S_i, (n,)
    with np.errstate(all="ignore"):
        ulp = np.spacing(np.abs(np.asarray(want).astype(np.float16))).astype(np.float64)  # (n, d_v)
    return ulp + 2.0**-12 * np.abs(v).max(axis=0)[None, :] * (1.0 + size[:, None])
