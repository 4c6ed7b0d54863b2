"""What each demonstration of grouped_query_attention (its demos.py) claims, checked in its own numbers
(tests/tool/test_followups.py runs every demonstration with its claim): ``CLAIMS[name](result)``
is True or None when the claim holds, and False or raises when not."""


CLAIMS = {
    "gqa_cache": lambda r: all(r["rows"][0][1] / nbytes == r["heads"] / kv for kv, nbytes in r["rows"]),
}
