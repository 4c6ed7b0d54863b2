"""What each demonstration of sliding_window_attention (its demos.py) claims, checked in its own numbers
(tests/tool/test_followups.py runs every demonstration with its claim): ``CLAIMS[name](result)``
is True or None when the claim holds, and False or raises when not."""

import pytest


CLAIMS = {
    "sink_weight": lambda r: (
        r["sink_full"] > 0.3 and r["sink_kept"] > r["sink_full"] and r["factor_without"] > 3 * r["factor_with"]
    ),
    "window_cache_memory": lambda r: (
        len({row["window"] for row in r["rows"] if row["tokens"] >= r["kept"]}) == 1
        and r["rows"][-1]["full"] / r["rows"][-1]["window"] == pytest.approx(r["rows"][-1]["tokens"] / r["kept"])
    ),
}
