"""What each demonstration of speculative_decoding (its demos.py) claims, checked in its own numbers
(tests/tool/test_followups.py runs every demonstration with its claim): ``CLAIMS[name](result)``
is True or None when the claim holds, and False or raises when not."""

import numpy as np

CLAIMS = {
    "speculative_exact": lambda r: (  # accepted + rejected x residual is p; resampling from p is not
        np.allclose(r["emitted"], r["p"], rtol=1e-12, atol=1e-15)
        and np.abs(r["from_p"] - r["p"]).max() > 0.05
        and 0 < r["rejected"] < 1
    ),
    "speculative_expected_tokens": lambda r: all(  # the closed form is the sum, and it saturates below 1 / (1 - alpha)
        abs(row["formula"] - row["summed"]) < 1e-12 and row["formula"] < 1 / (1 - r["alpha"])
        for row in r["rows"]
    ) and r["rows"][-1]["formula"] / (r["rows"][-1]["k"] + 1) < 0.5,
    "speculative_residual_mass": lambda r: (  # the three numbers agree, and bound the mass from below
        abs(r["mass"] - (1 - r["overlap"])) < 1e-12 and abs(r["mass"] - r["tv"]) < 1e-12
        and r["mass"] >= r["bound"] > 0
    ),
}
