"""What each demonstration of multihead_attention (its demos.py) claims, checked in its own numbers
(tests/tool/test_followups.py runs every demonstration with its claim): ``CLAIMS[name](result)``
is True or None when the claim holds, and False or raises when not."""


CLAIMS = {
    "head_permutation": lambda r: r["together"] < 1e-12 and r["w_o_unpermuted"] > 1e-3,
}
