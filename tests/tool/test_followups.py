"""Follow-up questions with model answers (issue 13, part 2): the registry refuses follow-ups
without a sound answer, every demonstration runs and its claim holds in its own numbers, and
`dojo followups` works through the real entry point."""

import math

import numpy as np
import pytest

from dojo.catalogue import demos, registry

# -- every demonstration supports its answer with the numbers it computed -------------------


def scale_saturates_unscaled_softmax(r):
    rows = {row["d_k"]: row for row in r["rows"]}
    for d_k, row in rows.items():
        assert 0.9 < row["std"] / math.sqrt(d_k) < 1.1, "std(q·k) grows like sqrt(d_k)"
        assert 0.9 < row["std_scaled"] < 1.1, "the scaled scores have std about 1"
    tops = [rows[d]["top_raw"] for d in sorted(rows)]
    assert tops == sorted(tops), "unscaled, the largest weight grows with d_k"
    assert rows[4096]["top_raw"] > rows[4096]["top_scaled"]
    assert rows[4096]["top_raw"] > 0.5 > 4 * rows[4096]["top_scaled"], "near one-hot without the scale"
    scaled = [row["top_scaled"] for row in rows.values()]
    assert max(scaled) - min(scaled) < 0.05, "with the scale, d_k hardly matters"


def cost_grows_with_n_squared(r):
    for small, big in zip(r["rows"], r["rows"][1:]):
        growth = (big["n"] / small["n"]) ** 2
        assert big["flops"] / small["flops"] == pytest.approx(growth)
        assert big["score_bytes"] / small["score_bytes"] == pytest.approx(growth)


def decoding_is_memory_bound_until_batched(r):
    intensity = [row["intensity"] for row in r["rows"]]
    assert intensity == sorted(intensity)
    assert r["rows"][0]["batch"] == 1 and intensity[0] < 2 < r["ridge"]
    assert intensity[-1] > r["ridge"], "some batch size reaches the GPU's flops per byte"


def flash_needs_less_memory(r):
    assert r["tiled_peak"] < r["full_peak"]
    assert r["tiled_peak"] < r["n"] * r["n"] * 8, "less than one float64 score matrix"
    assert r["max_diff"] < 1e-12, "and computes the same output"
    assert r["working"] < r["score"] / 1000


def recommended_tiles_fit(r):
    fits = {(row["b_r"], row["b_c"]): row["fits"] for row in r["rows"]}
    assert fits[(128, 64)] and fits[(64, 64)], "the tiles the answer recommends fit"
    assert not fits[(128, 128)], "doubling B_c no longer fits with double buffering"
    for row in r["rows"]:
        assert row["fits"] == (row["buffered"] <= r["budget"])


def causal_skips_almost_half(r):
    t = r["t"]
    assert r["skipped"] == t * (t - 1) // 2 == r["unmasked"]
    assert r["diagonal"] == t
    assert 0.5 < (t * t - r["skipped"]) / (t * t) < 0.6, "a little over half the work of full attention"
    assert r["skipped"] + r["diagonal"] + r["unmasked"] == t * t


CLAIMS = {
    "softmax_overflow": lambda r: (
        not r["naive_finite"]
        and np.allclose(r["shifted"], r["shifted_by_hand"], rtol=0, atol=1e-15)
        and abs(r["shifted"].sum() - 1) < 1e-12
    ),
    "log_softmax": lambda r: (
        r["via_softmax"][1] == -np.inf
        and np.isfinite(r["direct"]).all()
        and abs(r["direct"][1] - r["logits"][1]) < 1e-9
    ),
    "float16_softmax": lambda r: (
        not r["naive_finite"] and r["shifted_finite"]
        and r["sum16"] == 2048 < r["sum32"] == r["count"] and r["exp_minus_18"] == 0
    ),
    "sqrt_dk": scale_saturates_unscaled_softmax,
    "attention_cost": cost_grows_with_n_squared,
    "future_leak_test": lambda r: (
        r["past_change"] == 0 and r["last_change"] > 1e-3 and r["leaky_past_change"] > 1e-3
    ),
    "head_permutation": lambda r: r["together"] < 1e-12 and r["w_o_unpermuted"] > 1e-3,
    "kv_cache_memory": lambda r: (
        r["mha"] / r["gqa"] == r["heads"] / r["kv_heads"]
        and r["per_token"] * r["tokens"] == r["mha"]
        and r["mha"] > r["weights"]  # the answer: the cache can outgrow the weights
    ),
    "gqa_cache": lambda r: all(r["rows"][0][1] / nbytes == r["heads"] / kv for kv, nbytes in r["rows"]),
    "decode_intensity": decoding_is_memory_bound_until_batched,
    "kv_cache_recompute": lambda r: all(
        row["without"] / row["with"] == pytest.approx(row["n"], rel=1e-12) for row in r["rows"]
    ),
    "flash_memory": flash_needs_less_memory,
    "flash_block_sizes": recommended_tiles_fit,
    "causal_blocks": causal_skips_almost_half,
    "lse_rebuild": lambda r: r["rebuild_error"] < 1e-12 and r["p_bytes"] > 1000 * r["lse_bytes"],
    "backward_identities": lambda r: (
        r["identity"] < 1e-12 and r["dk_sum"] < 1e-12 < 0.1 < r["dk_max"] and r["bias_change"] < 1e-12
    ),
    "finite_differences": lambda r: r["worst_relative"] < 1e-8,  # the answer: "about 1e-8 or better"
    "rope_relative": lambda r: (
        max(r["same_offset"]) - min(r["same_offset"]) < 1e-9
        and all(abs(s - r["same_offset"][0]) > 1e-3 for s in r["other_offsets"])
    ),
    "padding_waste": lambda r: (
        r["packed_pairs"] < r["padded_pairs"] and sum(r["lengths"]) < r["padded_tokens"]
    ),
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
    "sink_weight": lambda r: (
        r["sink_full"] > 0.3 and r["sink_kept"] > r["sink_full"] and r["factor_without"] > 3 * r["factor_with"]
    ),
    "window_cache_memory": lambda r: (
        len({row["window"] for row in r["rows"] if row["tokens"] >= r["kept"]}) == 1
        and r["rows"][-1]["full"] / r["rows"][-1]["window"] == pytest.approx(r["rows"][-1]["tokens"] / r["kept"])
    ),
    "mla_cache": lambda r: (  # the answer: 576 numbers instead of 32768, 57 times less
        r["per_token"]["mla"] == 576 and r["per_token"]["mha"] == 32768
        and round(r["total"]["mha"] / r["total"]["mla"]) == 57 and r["total"]["mla"] < r["total"]["gqa"]
    ),
    "mla_absorbed_decode": lambda r: (
        r["diff"] < 1e-12 * max(1.0, r["scale"]) and r["macs"]["absorbed"] * 10 < r["macs"]["explicit"]
    ),
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
    "float16_running_sum": lambda r: (  # the answer: a float16 running sum stops growing
        abs(r["float16"] - r["exact"]) > 0.01 * r["exact"] and abs(r["float32"] - r["exact"]) < 1e-5 * r["exact"]
    ),
    "float16_score_error": lambda r: r["share"]["float32"] < 0.05 < r["share"]["float16"],
    "paged_waste": lambda r: (  # the answer: under one page per sequence, against most of a reservation
        r["used"] <= r["paged"] < r["used"] + r["requests"] * r["page_size"] < r["reserved"]
        and (r["paged"] - r["used"]) / r["paged"] < 0.04 < 0.5 < (r["reserved"] - r["used"]) / r["reserved"]
    ),
    "paged_page_size": lambda r: (  # larger pages waste more and need shorter tables
        [row["waste"] for row in r["rows"]] == sorted(row["waste"] for row in r["rows"])
        and [row["table"] for row in r["rows"]] == sorted((row["table"] for row in r["rows"]), reverse=True)
        and r["rows"][0]["page_size"] == 1 and r["rows"][0]["waste"] == 0
    ),
}


def test_every_demonstration_has_a_checked_claim():
    assert sorted(CLAIMS) == sorted(demos.DEMOS)


@pytest.mark.parametrize("name", sorted(demos.DEMOS))
def test_each_demonstration_runs_and_its_claim_holds_in_its_own_numbers(name):
    shown = demos.run(name)
    assert shown.lines and all(isinstance(line, str) and line.strip() for line in shown.lines)
    assert CLAIMS[name](shown.result) in (None, True), f"{name}: {shown.result}"


def test_every_demonstration_backs_some_answer():
    used = {f.demo for k in registry.KATAS for f in k.followup_answers}
    assert set(demos.DEMOS) <= used


# -- the registry refuses follow-ups without a sound answer ---------------------------------

ENTRY = '''
[[kata]]
module = "softmax"
track = "t"
function = "softmax"
title = "Numerically stable softmax"
difficulty = "easy"
minutes = 10
hints = ["a hint"]
'''
GOOD_ANSWER = "A sentence of about twenty words that explains the point, with a reason and a consequence. " * 4


def problems_of(followups: str) -> list[str]:
    import tomllib

    return registry.check_registry(registry.parse(tomllib.loads(ENTRY + followups)))


def followup(question="Why?", answer=GOOD_ANSWER, demo=None) -> str:
    text = f'\n[[kata.followup]]\nquestion = "{question}"\n'
    if answer is not None:
        text += f"answer = '''{answer}'''\n"
    if demo is not None:
        text += f'demo = "{demo}"\n'
    return text


def test_a_sound_followup_passes():
    assert problems_of(followup(demo="sqrt_dk")) == []


def test_a_followup_without_an_answer_is_refused():
    assert problems_of(followup(answer=None)) == ["softmax: follow-up 1 has no answer"]
    assert problems_of(followup() + followup(answer="   ")) == ["softmax: follow-up 2 has no answer"]


@pytest.mark.parametrize("sentences, lines", [(1, 1), (2, 2), (9, 9), (12, 12)])
def test_an_answer_shorter_than_3_or_longer_than_8_lines_is_refused(sentences, lines):
    answer = " ".join(["x" * 90] * sentences)  # one wrapped line per 90-letter word
    [problem] = problems_of(followup(answer=answer))
    assert f"takes {lines} lines at 95 columns, not 3 to 8" in problem


def test_an_unknown_demo_is_refused():
    assert problems_of(followup(demo="no_such_demo")) == [
        "softmax: follow-up 1: no demonstration called 'no_such_demo' in dojo/catalogue/katas/<kata>/demos.py"
    ]


def test_a_kata_without_followups_or_with_an_empty_question_is_refused():
    assert problems_of("") == ["softmax: needs follow-up questions"]
    assert problems_of(followup(question=" ")) == ["softmax: follow-up 1 has an empty question"]


def test_the_old_list_of_questions_and_stray_keys_are_refused():
    import tomllib

    with pytest.raises(registry.RegistryError, match="old shape"):
        registry.parse(tomllib.loads(ENTRY + 'followups = ["Why?"]\n'))
    # a kata key written after the follow-ups lands in the last follow-up table
    with pytest.raises(registry.RegistryError, match="unknown keys \\['next'\\]"):
        registry.parse(tomllib.loads(ENTRY + followup() + 'next = "masked_attention"\n'))


def test_the_questions_are_still_the_followups_callers_read():
    kata = registry.get("masked_attention")
    assert kata.followups == tuple(f.question for f in kata.followup_answers)
    assert kata.followups[0].startswith("Why divide by sqrt(d_k)?")


# -- dojo followups, through the real entry point -------------------------------------------

SOFTMAX = registry.get("softmax")


def test_followups_lists_the_numbered_questions_without_answers(sandbox):
    r = sandbox.run("followups", "softmax")
    assert r.code == 0, r.out + r.err
    for i, f in enumerate(SOFTMAX.followup_answers, 1):
        assert f"  {i}. {f.question[:60]}" in r.out
        assert f.answer_lines()[0] not in r.out
    assert "computed now" not in r.out
    assert "dojo followups softmax --answers" in r.out


def test_followups_with_answers_shows_each_answer_and_runs_its_demonstration(sandbox):
    r = sandbox.run("followups", "softmax", "--answers")
    assert r.code == 0, r.out + r.err
    for f in SOFTMAX.followup_answers:
        for line in f.answer_lines():
            assert line in r.out
        if f.demo:
            where = demos.DEMOS[f.demo].__module__.replace(".", "/")
            assert f"computed now ({where}.py: {f.demo})" in r.out
            for line in demos.run(f.demo).lines:
                assert line in r.out
    assert r.out.count("computed now") == sum(1 for f in SOFTMAX.followup_answers if f.demo)


def test_followups_without_a_kata_takes_the_next_one(sandbox):
    r = sandbox.run("followups")
    assert r.code == 0
    assert r.out.startswith(f"softmax — {SOFTMAX.title}")


def test_followups_of_an_unknown_kata_is_a_usage_error_with_suggestions(sandbox):
    r = sandbox.run("followups", "sofmax")
    assert r.code == 2
    assert "did you mean 'softmax'" in r.err.lower()
    assert r.out == ""


def test_help_lists_followups(sandbox):
    r = sandbox.run("--help")
    assert r.code == 0 and "followups" in r.out


def test_followups_without_a_kata_follows_progress_and_asks_for_one_when_all_pass(sandbox):
    import json

    def passed(modules):
        sandbox.state.mkdir(exist_ok=True)
        katas = {m: {"verdict": {"state": "passed", "passed": 1, "total": 1, "at": 0.0,
                                 "sha256": sandbox.worked_on(m, "passed")},
                     "hints_used": 0, "solved": True, "gave_up": False, "revealed": False}
                 for m in modules}
        (sandbox.state / "state.json").write_text(json.dumps({"version": 1, "welcomed": True, "katas": katas}))

    passed(["softmax"])
    r = sandbox.run("followups")
    assert r.code == 0 and r.out.startswith("masked_attention — "), r.out + r.err
    passed([k.module for k in registry.KATAS])
    r = sandbox.run("followups")
    assert r.code == 2
    assert "dojo followups softmax" in r.err
