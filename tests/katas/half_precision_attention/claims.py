"""What each demonstration of half_precision_attention (its demos.py) claims, checked in its own numbers
(tests/tool/test_followups.py runs every demonstration with its claim): ``CLAIMS[name](result)``
is True or None when the claim holds, and False or raises when not."""


CLAIMS = {
    "float16_running_sum": lambda r: (  # the answer: a float16 running sum stops growing  # the answer: a float16 running sum stops growing
        abs(r["float16"] - r["exact"]) > 0.01 * r["exact"] and abs(r["float32"] - r["exact"]) < 1e-5 * r["exact"]
    ),
    "float16_score_error": lambda r: r["share"]["float32"] < 0.05 < r["share"]["float16"],
}
