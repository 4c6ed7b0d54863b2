"""What each demonstration of causal_self_attention (its demos.py) claims, checked in its own numbers
(tests/tool/test_followups.py runs every demonstration with its claim): ``CLAIMS[name](result)``
is True or None when the claim holds, and False or raises when not."""


CLAIMS = {
    "future_leak_test": lambda r: (
        r["past_change"] == 0 and r["last_change"] > 1e-3 and r["leaky_past_change"] > 1e-3
    ),
}
