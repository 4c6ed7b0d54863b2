"""What each demonstration of linear_attention (its demos.py) claims, checked in its own numbers
(tests/tool/test_followups.py runs every demonstration with its claim): ``CLAIMS[name](result)``
is True or None when the claim holds, and False or raises when not."""


CLAIMS = {
    "linear_attention_cost": lambda r: all(
        row["softmax"] / row["linear"] == row["n"] / row["d"] for row in r["rows"]
    ) and {(row["n"], row["d"]): row["softmax"] / row["linear"] for row in r["rows"]}[(4096, 16)] == 256,
    "linear_attention_state": lambda r: (
        r["full_peak"] >= r["n"] * r["n"] * 8 > 10 * r["recurrent_peak"] and r["max_diff"] < 1e-12
        and all(c["cache"] > r["state"] for c in r["caches"])
    ),
    "elu_literal": lambda r: all(
        (row["literal"] == 0) == (row["x"] < -37.4) for row in r["rows"]
    ) and all((row["relative"] < 1e-12) == (row["x"] > -17) for row in r["rows"]),
}
