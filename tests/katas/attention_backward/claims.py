"""What each demonstration of attention_backward (its demos.py) claims, checked in its own numbers
(tests/tool/test_followups.py runs every demonstration with its claim): ``CLAIMS[name](result)``
is True or None when the claim holds, and False or raises when not."""


CLAIMS = {
    "backward_identities": lambda r: (
        r["identity"] < 1e-12 and r["dk_sum"] < 1e-12 < 0.1 < r["dk_max"] and r["bias_change"] < 1e-12
    ),
    "finite_differences": lambda r: r["worst_relative"] < 1e-8,  # the answer: "about 1e-8 or better"
}
