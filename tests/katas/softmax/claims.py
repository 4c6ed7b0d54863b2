"""What each demonstration of softmax (its demos.py) claims, checked in its own numbers
(tests/tool/test_followups.py runs every demonstration with its claim): ``CLAIMS[name](result)``
is True or None when the claim holds, and False or raises when not."""

import numpy as np


CLAIMS = {
    "softmax_overflow": lambda r: (
        not r["naive_finite"]
        and np.allclose(r["shifted"], r["shifted_by_hand"], rtol=0, atol=1e-15)
        and abs(r["shifted"].sum() - 1) < 1e-12
    ),
    "log_softmax": lambda r: (
        r["via_softmax"][1] == -np.inf
        and np.isfinite(r["direct"]).all()
        and abs(r["direct"][1] - r["logits"][1]) < 1e-9
    ),
    "float16_softmax": lambda r: (
        not r["naive_finite"] and r["shifted_finite"]
        and r["sum16"] == 2048 < r["sum32"] == r["count"] and r["exp_minus_18"] == 0
    ),
}
