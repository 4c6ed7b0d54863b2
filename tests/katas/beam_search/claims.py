"""What each demonstration of beam_search (its demos.py) claims, checked in its own numbers
(tests/tool/test_followups.py runs every demonstration with its claim): ``CLAIMS[name](result)``
is True or None when the claim holds, and False or raises when not."""

CLAIMS = {
    # HF's rule keeps B live beams; top-B selection lets the finished ones starve them
    "beam_eos_rank": lambda r: r["hf_live"] == r["B"] and r["top_b_live"] < r["B"] and r["hf_finished"] >= 1,
    # the heuristic stops before max_len and returns a worse best hypothesis
    "beam_early_stop": lambda r: (r["stopped"] < r["max_len"] and r["early_score"] < r["full_score"]
                                  and r["early"] != r["full"]),
    # alpha 0 picks the shortest, alpha 1 and 2 the longest
    "beam_length_penalty": lambda r: r["best_length"][0.0] == 1 and r["best_length"][1.0] == 5
    and r["best_length"][2.0] == 5,
}
