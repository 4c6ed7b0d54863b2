"""What each demonstration of paged_attention (its demos.py) claims, checked in its own numbers
(tests/tool/test_followups.py runs every demonstration with its claim): ``CLAIMS[name](result)``
is True or None when the claim holds, and False or raises when not."""


CLAIMS = {
    "paged_waste": lambda r: (  # the answer: under one page per sequence, against most of a reservation  # the answer: under one page per sequence, against most of a reservation
        r["used"] <= r["paged"] < r["used"] + r["requests"] * r["page_size"] < r["reserved"]
        and (r["paged"] - r["used"]) / r["paged"] < 0.04 < 0.5 < (r["reserved"] - r["used"]) / r["reserved"]
    ),
    "paged_page_size": lambda r: (  # larger pages waste more and need shorter tables  # larger pages waste more and need shorter tables
        [row["waste"] for row in r["rows"]] == sorted(row["waste"] for row in r["rows"])
        and [row["table"] for row in r["rows"]] == sorted((row["table"] for row in r["rows"]), reverse=True)
        and r["rows"][0]["page_size"] == 1 and r["rows"][0]["waste"] == 0
    ),
}
