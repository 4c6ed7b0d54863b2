"""What each demonstration of moe_layer (its demos.py) claims, checked in its own numbers
(tests/tool/test_followups.py runs every demonstration with its claim): ``CLAIMS[name](result)``
is True or None when the claim holds, and False or raises when not."""

import numpy as np

CLAIMS = {
    "moe_renormalise": lambda r: (  # raw gates lose mass; Mixtral's equal the softmax over the chosen logits
        r["raw"].sum() < 0.95
        and np.isclose(r["renormalised"].sum(), 1.0, rtol=1e-12, atol=0)
        and np.allclose(r["renormalised"], r["over_chosen"], rtol=1e-12, atol=0)
    ),
    "moe_aux_balance": lambda r: (  # uniform gives top_k, random a little above, collapse towards E
        np.isclose(r["uniform"], r["top_k"], rtol=1e-12, atol=0)
        and r["top_k"] < r["random"] < r["collapsed"]
        and r["collapsed"] > 0.9 * r["E"]
    ),
    "moe_flops": lambda r: r["dense"] / r["sparse"] == r["E"] / r["top_k"] == 4,
}
