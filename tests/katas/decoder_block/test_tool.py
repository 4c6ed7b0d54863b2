"""decoder_block's judge builds torch's causal_lower_right(n, m) bias as the bool mask it stands
for (importing torch.nn.attention.bias costs ~4 s of every judge run): here, that the two give the
same attention for every n <= m up to 9, and the same mask past 64 keys."""

from __future__ import annotations

import numpy as np
import pytest

from tests import oracle
from tests.test_decoder_block import causal_lower_right as judges_mask


@pytest.mark.contributors  # imports torch.nn.attention.bias (~4 s)
def test_the_judges_mask_is_torchs_causal_lower_right():
    t = oracle.torch()
    from torch.nn.attention.bias import causal_lower_right

    F = t.nn.functional
    rng = np.random.default_rng(0)
    for n, m in [(n, m) for m in range(1, 10) for n in range(1, m + 1)] + [(3, 70), (66, 66), (64, 100)]:
        q, k, v = (oracle.tensor(rng.standard_normal((2, rows, 3))) for rows in (n, m, m))
        want = F.scaled_dot_product_attention(q, k, v, attn_mask=causal_lower_right(n, m))
        got = F.scaled_dot_product_attention(q, k, v, attn_mask=judges_mask(n, m))
        assert t.allclose(got, want, rtol=1e-13, atol=1e-15), (n, m)
