"""The growth claim of ``dojo compare``'s speed section, decided on recorded timings.

``dojo/commands/compare/growth.py`` is a pure rule: sizes -> the times recorded at each size (one a
round) in, a claim out. Every table here is written out by hand (no clock): clean n² and n³,
n² with an outlier that the least of the repeats removes, timings too noisy to tell, timings
under the clock's noise floor.
"""

from __future__ import annotations

import math

import pytest

from dojo.text import messages
from dojo.commands.compare.growth import (MAX_HALF_WIDTH, MIN_GAP, MIN_SIZES, NOISE_FLOOR, fit_growth, growth_claim,
                                 least)
from dojo.commands.compare.speed import ladder, speed_notes

SIZES = (184, 256, 360, 512, 728, 1024)  # the ladder of a battery whose sizes are 256 and 512
#: Small, fixed wobbles of a quiet machine: within 2% of the curve.
WOBBLE = (1.00, 1.02, 0.99, 1.01, 0.98, 1.00)


def table(power: float, scale: float = 1e-3, rounds=((1.0, 1.05, 1.1),), sizes=SIZES) -> dict[int, list[float]]:
    """time = scale · (n/512)^power · wobble, three rounds each (the first the least)."""
    out = {}
    for i, n in enumerate(sizes):
        base = scale * (n / 512) ** power * WOBBLE[i % len(WOBBLE)]
        out[n] = [base * r for r in rounds[i % len(rounds)]]
    return out


def said(claim) -> str:
    text = messages.text(claim.message)
    assert "{" not in text and "}" not in text, text  # every placeholder filled
    return text


def test_clean_n_squared_against_itself_grows_alike():
    ref, yours = table(2.0), table(2.0, scale=1.1e-3)
    claim = growth_claim(yours, ref)
    assert claim.kind == "alike"
    assert claim.yours.supported and claim.reference.supported
    assert abs(claim.yours.exponent - 2.0) < 0.05 and abs(claim.reference.exponent - 2.0) < 0.05
    assert claim.yours.half_width < 0.1
    assert claim.yours.sizes == SIZES
    assert said(claim).startswith("Yours grows like the reference, as far as these timings tell: its time like n^2.0 ± ")


def test_clean_n_cubed_against_n_squared_grows_faster():
    claim = growth_claim(table(3.0), table(2.0))
    assert claim.kind == "faster"
    assert abs(claim.yours.exponent - 3.0) < 0.05
    text = said(claim)
    assert text.startswith("Yours grows faster than the reference: its time like n^3.0 ± ")
    assert "the reference's like n^2.0 ± " in text and "an extra loop over n" in text.lower()
    assert "184, 256, 360, 512, 728, 1024" in text


def test_linear_against_n_squared_grows_more_slowly():
    claim = growth_claim(table(1.0), table(2.0))
    assert claim.kind == "slower"
    assert said(claim).startswith("Yours grows more slowly than the reference: its time like n^1.0")


def test_an_outlier_in_one_round_is_removed_by_the_least_of_the_repeats():
    yours = table(2.0)
    yours[512] = [yours[512][0] * 3.0, yours[512][0], yours[512][0] * 2.2]  # a round the machine was busy
    yours[1024] = [yours[1024][0] * 1.7, yours[1024][0] * 1.4, yours[1024][0]]
    claim = growth_claim(yours, table(2.0))
    assert claim.kind == "alike"
    assert abs(claim.yours.exponent - 2.0) < 0.05 and claim.yours.half_width < 0.1
    # the same rounds averaged instead of the least: the outliers would have moved the exponent
    mean = {n: [sum(ts) / len(ts)] for n, ts in yours.items()}
    assert abs(fit_growth(mean).exponent - 2.0) > 0.1 or not fit_growth(mean).supported


def test_timings_too_noisy_to_tell_make_no_claim():
    # every round of every size scattered by up to 2× around n²: the least of them still scatters
    scatter = ((1.0, 1.3), (1.9, 2.0), (1.0, 1.5), (2.0, 2.2), (1.1, 1.2), (1.9, 2.1))
    yours = {n: [1e-3 * (n / 512) ** 2 * s for s in scatter[i]] for i, n in enumerate(SIZES)}
    fit = fit_growth(yours)
    assert not fit.supported and fit.reason == "loose" and fit.half_width > MAX_HALF_WIDTH
    claim = growth_claim(yours, table(2.0))
    assert claim.kind == "unknown"
    text = said(claim)
    assert text.startswith("How yours grows against the reference cannot be told from these timings: yours fits n^")
    assert "too noisy to tell" in text and "the reference fits" not in text  # the reference's timings were fine


def test_timings_under_the_noise_floor_make_no_claim():
    tiny = table(2.0, scale=3e-6)  # 3 µs at n = 512, 12 µs at 1024: every size under the floor
    assert all(min(ts) < NOISE_FLOOR for ts in tiny.values())
    fit = fit_growth(tiny)
    assert not fit.supported and fit.reason == "under-floor" and fit.exponent is None
    claim = growth_claim(tiny, table(2.0))
    assert claim.kind == "unknown"
    text = said(claim)
    assert "yours takes under 20 µs a call at n = 184, 256, 360, 512, 728, 1024, too quick to time" in text
    assert "the reference takes" not in text  # the reference's sizes were only left out to match yours


def test_sizes_under_the_floor_are_left_out_and_the_rest_still_fit():
    ref = table(2.0, scale=60e-6)  # 184 and 256 fall under 20 µs; four sizes are left
    assert sorted(n for n, ts in ref.items() if min(ts) < NOISE_FLOOR) == [184, 256]
    fit = fit_growth(ref)
    assert fit.supported and fit.sizes == (360, 512, 728, 1024) and fit.under_floor == (184, 256)
    claim = growth_claim(table(2.0), ref)
    assert claim.kind == "alike" and claim.yours.sizes == (360, 512, 728, 1024)  # fitted over the same sizes


def test_too_few_sizes_make_no_claim_and_say_whose():
    slow = {n: ts for n, ts in table(2.0, scale=0.3).items() if n <= 360}  # stopped after three sizes
    claim = growth_claim(slow, table(2.0))
    assert claim.kind == "unknown" and not claim.yours.supported
    text = said(claim)
    assert f"yours was timed at 3 sizes, and a growth rate needs {MIN_SIZES}" in text
    assert "the reference was timed" not in text


def test_intervals_apart_but_exponents_close_are_not_called_faster():
    # exact power laws: intervals of width ~0, so 2.15 and 2.0 are "apart", but under MIN_GAP
    ref = {n: [1e-3 * (n / 512) ** 2.0] for n in SIZES}
    yours = {n: [1e-3 * (n / 512) ** 2.15] for n in SIZES}
    claim = growth_claim(yours, ref)
    assert claim.yours.half_width < 1e-6 and 0.15 < MIN_GAP
    assert claim.kind == "alike"


def test_overlapping_intervals_are_not_called_faster():
    bend = (1.0, 0.8, 0.75, 0.8, 1.0, 1.3)  # both curves bend: intervals about ±0.35
    ref = {n: [1e-3 * (n / 512) ** 2.0 * bend[i]] for i, n in enumerate(SIZES)}
    yours = {n: [1e-3 * (n / 512) ** 2.4 * bend[i]] for i, n in enumerate(SIZES)}
    claim = growth_claim(yours, ref)
    assert claim.yours.supported and claim.reference.supported
    assert claim.yours.exponent - claim.reference.exponent >= MIN_GAP
    assert claim.yours.half_width + claim.reference.half_width > claim.yours.exponent - claim.reference.exponent
    assert claim.kind == "alike"


def test_least_ignores_missing_and_broken_times():
    assert least({8: [3e-3, None, math.inf, 2e-3], 16: [], 32: [float("nan")]}) == {8: 2e-3}


def test_bad_sizes_are_refused():
    with pytest.raises(ValueError):
        fit_growth({0: [1.0], 8: [2.0], 16: [3.0]})


def test_the_ladder_holds_the_batteries_sizes():
    assert ladder(256, 512) == (184, 256, 360, 512, 728, 1024)
    assert ladder(1024, 4096) == (728, 1024, 1448, 2048, 2896, 4096)
    for small, big in ((64, 128), (128, 256), (512, 1024)):
        sizes = ladder(small, big)
        assert len(sizes) == 6 and small in sizes and big in sizes and list(sizes) == sorted(set(sizes))


def test_speed_notes_say_the_claim_and_the_ratio_from_recorded_rows():
    ref, yours = table(2.0), table(3.0, scale=4e-3)
    claim = growth_claim(yours, ref)
    rows = {"reference": {"ratio": 1.0, "peak_bytes": 100, "memory_growth": 2.0},
            "yours": {"ratio": 4.0, "peak_bytes": 100, "memory_growth": 2.0, "problem": None}}
    result = {"rows": rows, "ratio_n": 512, "claim": {"kind": claim.kind, "message": claim.message}}
    notes = speed_notes(result)
    ids = [m["id"] for _, m in notes]
    assert ids == ["compare.speed.slower", "compare.growth.faster"]
    assert messages.text(notes[0][1]).startswith("Yours is 4.0× slower than the reference at n=512.")
