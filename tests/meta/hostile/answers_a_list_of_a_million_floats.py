"""A RoPE that answers every call with a plain Python list of a million and a half floats
(debug output returned by mistake, say): an answer the judge must refuse without spending
minutes or gigabytes reading it, every time it comes."""
KATA = "rope"
EXPECT = "still computing after 2 s"  # the verdict must say this

import numpy as np


def apply_rope(x, positions, base=10000.0, interleaved=False):
    x = np.asarray(x, dtype=np.float64)
    if x.ndim != 2 or 0 in x.shape or x.shape[1] % 2 or not np.isfinite(x).all():
        raise ValueError("x must be finite, 2-D, non-empty, with an even width")
    return np.random.default_rng(0).random(1_500_000).tolist()
