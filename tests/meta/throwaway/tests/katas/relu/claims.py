"""What each demonstration of relu (its demos.py) claims, checked in its own numbers
(tests/tool/test_followups.py runs every demonstration with its claim): ``CLAIMS[name](result)``
is True or None when the claim holds, and False or raises when not."""


CLAIMS = {
    "relu_kink": lambda r: r["left"] == 0 and abs(r["right"] - 1) < 1e-9,  # the answer: 0 on the left, 1 on the right
}
