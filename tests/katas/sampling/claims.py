"""What each demonstration of sampling (its demos.py) claims, checked in its own numbers
(tests/tool/test_followups.py runs every demonstration with its claim): ``CLAIMS[name](result)``
is True or None when the claim holds, and False or raises when not."""

import numpy as np

CLAIMS = {
    "sampling_temperature": lambda r: (  # the answer: logits / T is p^(1/T); p / T changes nothing
        np.allclose(r["via_logits"], r["power"], rtol=1e-12, atol=0)
        and np.allclose(r["divided"], r["p"], rtol=1e-12, atol=0)
        and r["via_logits"][0] > r["p"][0]
    ),
    "sampling_top_p_shift": lambda r: (  # unshifted: below top_p, or nothing; shifted: reaches it, >= 1 token
        all(row["shifted_mass"] >= row["top_p"] > row["plain_mass"] and row["shifted_kept"] >= 1
            for row in r["rows"])
        and r["rows"][1]["plain_kept"] == 0 and r["rows"][1]["shifted_kept"] == 1
    ),
    "sampling_order": lambda r: r["hf_kept"] == 1 and r["other_kept"] == 2,  # the answer's numbers
}
