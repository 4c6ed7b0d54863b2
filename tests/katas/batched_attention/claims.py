"""What each demonstration of batched_attention (its demos.py) claims, checked in its own numbers
(tests/tool/test_followups.py runs every demonstration with its claim): ``CLAIMS[name](result)``
is True or None when the claim holds, and False or raises when not."""


CLAIMS = {
    "padding_waste": lambda r: (
        r["packed_pairs"] < r["padded_pairs"] and sum(r["lengths"]) < r["padded_tokens"]
    ),
}
