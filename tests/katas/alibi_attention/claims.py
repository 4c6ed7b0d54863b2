"""What each demonstration of alibi_attention (its demos.py) claims, checked in its own numbers
(tests/tool/test_followups.py runs every demonstration with its claim): ``CLAIMS[name](result)``
is True or None when the claim holds, and False or raises when not."""


CLAIMS = {
    "alibi_extrapolation": lambda r: (
        [row["beyond"] for row in r["rows"]] == sorted(row["beyond"] for row in r["rows"])  # smaller slope, more
        and all(row["beyond"] < 0.05 and row["change"] < 0.05 * row["beyond"] + 1e-15 for row in r["rows"])
        and r["rows"][0]["beyond"] < 1e-100
    ),
    "alibi_shift_invariance": lambda r: (
        r["key_only"] < 1e-15 and r["row_index"] < 1e-15 and r["shifted"] < 1e-15 and r["no_mask_future"] > 0.1
    ),
    "alibi_head_windows": lambda r: (
        all(2.2 < row["window"] * row["slope"] <= 2.6 for row in r["rows"])  # 90% within about ln(10) / slope
        and all(b["window"] > 1.8 * a["window"] for a, b in zip(r["rows"], r["rows"][1:]))
        and len(set(r["six"])) == 6
    ),
}
