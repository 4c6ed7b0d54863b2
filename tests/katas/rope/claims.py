"""What each demonstration of rope (its demos.py) claims, checked in its own numbers
(tests/tool/test_followups.py runs every demonstration with its claim): ``CLAIMS[name](result)``
is True or None when the claim holds, and False or raises when not."""


CLAIMS = {
    "rope_relative": lambda r: (
        max(r["same_offset"]) - min(r["same_offset"]) < 1e-9
        and all(abs(s - r["same_offset"][0]) > 1e-3 for s in r["other_offsets"])
    ),
}
