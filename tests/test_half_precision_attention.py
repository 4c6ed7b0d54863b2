"""The judge for katas/half_precision_attention.py: half_precision_attention(q, k, v).

Shapes: q (n, d_k), k (m, d_k), v (m, d_v), each a NumPy float16 array; out (n, d_v) float16.
The contract's accuracy is its own (dojo/catalogue/tolerances.py, "float16_attention"): per entry,
|o - fp16(o*)| <= ulp16(fp16(o*)) + 2^-12 · max_j |v[j, c]| · (1 + S_i). The judge, the
diagnosis and ``dojo compare`` all compare through it.

A float16-throughout answer fails only about 1% of small random draws, so four kinds of input
are drawn on purpose: scores whose exp() overflows float16 (above 11.09), unscaled q·k above
65504 in every row (entries near 256), long key sequences (m in the hundreds to thousands,
values with an offset) where a float16 running sum drifts, and values of 1e4 to 65504, whose
unnormalised weighted sum overflows float16.

Every bad input breaks exactly one rule of the contract (its arrays stay float16 unless the
dtype is the rule broken). Left open and never tested: ndarray subclasses, and the wording of
messages.
"""

import numpy as np
from hypothesis import example, strategies as st

from dojo.catalogue import tolerances
from dojo.text.messages import array_param, message
from dojo.worker import wire
from tests import oracle
from tests import largest as L
from tests import strategies as S
from tests.contract import QKV, Contract, not_2d_forms, rejects_each_call
from tests.judge import KataMismatch, check_leaves_inputs_alone, expect_value_error, prop, returned_text

FUNCTION = "half_precision_attention"
#: The judge's messages: dojo/catalogue/katas/half_precision_attention/<lang>/judge.toml.
M = "judge.half_precision_attention"
#: The contract's accuracy, named once (dojo/catalogue/tolerances.py); the battery names the same one.
TOLERANCE = "float16_attention"
F16 = np.float16


def PROBE():
    return {
        "q": np.array([[1.0, 0.0]], dtype=F16),
        "k": np.array([[1.0, 0.0], [0.0, 1.0]], dtype=F16),
        "v": np.array([[1.0], [2.0]], dtype=F16),
    }


#: The arrays of the contract: q (n, d_k), k (m, d_k), v (m, d_v).
CONTRACT = Contract(QKV)


@oracle.memoised
def half_attention(q, k, v):
    """torch SDPA in float64 on the float16 values (upcast exactly), then rounded to float16."""
    t = oracle.torch()
    out = t.nn.functional.scaled_dot_product_attention(oracle.tensor(q), oracle.tensor(k), oracle.tensor(v))
    return (out.to(t.float16).to(t.float64).numpy(),)


def run(kata, q, k, v):
    """Call the candidate on a valid input; check it returns a float16 array of shape (n, d_v)
    with no NaN or inf (every valid input has a finite float16 answer: |out| <= max |v|)."""
    n, d_v = q.shape[0], v.shape[1]
    out = kata(q=q, k=k, v=v)
    if not isinstance(out, np.ndarray):
        raise KataMismatch(message("result.not-array", what="out", type=wire.type_name(out),
                                   repr_text=returned_text(out, 200)))
    if out.shape != (n, d_v):
        raise KataMismatch(message("result.shape", what="out", want=str((n, d_v)), got=str(out.shape)))
    if out.dtype != F16:
        raise KataMismatch(message(f"{M}.fail.dtype", got=str(out.dtype)))
    bad = np.argwhere(~np.isfinite(out))
    if bad.size:
        index = tuple(int(i) for i in bad[0])
        raise KataMismatch(message(f"{M}.fail.not-finite", index=str(list(index)), value=str(out[index]),
                                   array=array_param(out)),
                           hint=message(f"{M}.hint.not-finite", largest=f"{largest_product(q, k):.3g}"))
    return out


def largest_product(q, k) -> float:
    """The largest |q_i·k_j| unscaled (what overflows float16 above 65504)."""
    return float(np.max(np.abs(q.astype(np.float64) @ k.astype(np.float64).T)))


def check_within_bound(out, case, why):
    """out must be within the contract's allowance of the oracle's fp16(o*)."""
    want = half_attention(case["q"], case["k"], case["v"])
    ok = tolerances.within(TOLERANCE, out, want, case)
    if ok.all():
        return
    allowance = tolerances.TOLERANCES[TOLERANCE](case, want)
    first = tuple(int(i) for i in np.argwhere(~ok)[0])
    got = float(out[first])
    raise KataMismatch(message(
        f"{M}.fail.bound", index=str(first), got=got, want=float(want[first]),
        diff=f"{abs(got - float(want[first])):.3g}", allowed=f"{float(allowance[first]):.3g}", why=why,
        expected=array_param(want.astype(F16)), got_array=array_param(out),
    ))


def sizes(case) -> dict:
    (n, d_k), (m, d_v) = case["q"].shape, case["v"].shape
    return message(f"{M}.why.sizes", n=str(n), m=str(m), d_k=str(d_k), d_v=str(d_v))


# -- Strategies ------------------------------------------------------------------------------
# Arrays come from a drawn seed through NumPy (tests/strategies.py), rounded to float16.

DIMS = S.distinct_dims(4)  # n, m, d_k, d_v
PROBLEM_DIMS = S.sometimes_coinciding(DIMS, ((0, 1), (2, 3)))
KINDS = st.sampled_from(["ordinary", "large", "big values"])
LONG_KEYS = st.sampled_from([300, 700, 1500, 3000])
SMALL = st.integers(1, 4)
OFFSETS = st.sampled_from([1.0, -2.0, 4.0, -0.75])


def half(a) -> np.ndarray:
    return np.asarray(a, dtype=F16)


def draw_problem(draw, kind=None):
    """Valid inputs {q, k, v} (float16) and the generator that made them.

    ``kind``: "ordinary" (entries of size 0.3 to 10, scores mostly below 11), "large" (q and k
    entries ~10 to 30: scores in the hundreds, whose exp() overflows float16 without the max
    shift), "overflow" (q and k entries in [256, 300] along one sign pattern, with one key in
    every row aligned with it: each row's largest unscaled q·k is above 65504, and so is its
    scaled score), "long" (m of 300 to 3000 keys, soft scores, values with an offset: a
    float16 running sum of the weights drifts), "big values" (ordinary scores, values of size
    1e4 to 65504: an unnormalised weighted sum of them overflows float16, which dividing by the
    row's sum afterwards does not undo; a blind hostile round, stop 56).
    """
    kind = kind or draw(KINDS)
    rng = S.rng_for(draw(S.SEEDS))
    if kind == "long":
        n, d_k, d_v, m = draw(SMALL), draw(SMALL), draw(SMALL), draw(LONG_KEYS)
        offset = draw(OFFSETS)
        return {
            "q": half(S.normal(rng, (n, d_k), 0.5)),
            "k": half(S.normal(rng, (m, d_k), 0.5)),
            "v": half(offset + S.normal(rng, (m, d_v), 0.5)),
        }, rng
    n, m, d_k, d_v = draw(PROBLEM_DIMS)
    if kind == "overflow":
        sign = rng.choice([-1.0, 1.0], size=d_k)
        q = sign * rng.uniform(256, 300, size=(n, d_k))
        k = sign * rng.uniform(256, 300, size=(m, d_k)) * rng.choice([-1.0, 1.0], size=(m, 1))
        j = rng.integers(0, m)
        k[j] = np.abs(k[j]) * sign  # one key aligned with every query
        return {"q": half(q), "k": half(k), "v": half(S.normal(rng, (m, d_v), draw(S.SCALES)))}, rng
    if kind == "large":
        q_scale, k_scale = draw(st.sampled_from([10.0, 30.0])), 10.0
    else:
        q_scale, k_scale = draw(S.SCALES), draw(S.SCALES)
    if kind == "big values":
        v = rng.choice([-1.0, 1.0], size=(m, d_v)) * rng.uniform(1e4, 65504.0, size=(m, d_v))
    else:
        v = S.normal(rng, (m, d_v), draw(S.SCALES))
    return {
        "q": half(S.normal(rng, (n, d_k), q_scale)),
        "k": half(S.normal(rng, (m, d_k), k_scale)),
        "v": half(v),
    }, rng


@S.valid_inputs()
@st.composite
def problems(draw, kind=None):
    """Valid inputs {q, k, v} (see draw_problem)."""
    return draw_problem(draw, kind)[0]


# -- Properties of a correct answer -------------------------------------------------------


@prop(case=problems())
@example(case={
    "q": half([[1.0, 0.0, 2.0]]),
    "k": half([[1.0, 1.0, 0.0], [0.0, 2.0, 1.0]]),
    "v": half([[1.0, 2.0, 3.0, 4.0], [-1.0, 0.5, 0.0, 2.0]]),
})
# two scores near 256, 0.23 apart (out -0.088): q divided by np.float16(sqrt(2)) in float16 rounds
# both entries of q to one value, ties them, and gives 0 (a blind hostile round, stop 54)
@example(case={"q": half([[11.32, 11.33]]), "k": half([[32.0, 0.0], [0.0, 32.0]]), "v": half([[1.0], [-1.0]])})
# three equal scores and values of 30000: the weighted sum before its division is 90000, past
# float16's 65504 (an answer that multiplied unnormalised weights by v in float16 gave inf)
@example(case={"q": half([[0.0, 0.0]]), "k": half(np.zeros((3, 2))), "v": half(np.full((3, 1), 30000.0))})
# the softmax and the weighted sum done in float16 after a float64 shift by the row max: out[1]
# is 4.9e-4 off where the bound allows 3.9e-4 (a blind hostile round, stop 58: plain pytest's
# draws found it, three runs of `dojo test` did not)
@example(case={"q": half([[-0.749], [0.4316], [1.6836]]), "k": half([[0.624], [-0.581]]), "v": half([[-0.8647], [0.8779]])})
def test_matches_torch_within_the_float16_bound(kata, case):
    """Matches torch (float64, rounded to float16) within the contract's bound, for ordinary scores and scores whose exp() overflows float16"""
    out = run(kata, **case)
    check_within_bound(out, case, message(f"{M}.why.out", sizes=sizes(case)))


#: Properties that draw no input: they build a fixed one themselves (tests/strategies.py).
INPUT_BUILT_INSIDE = ("test_the_largest_realistic_case_matches_torch",)


@prop(seed=st.just(0))
def test_the_largest_realistic_case_matches_torch(kata, seed):
    """The compare battery's largest realistic case (n = 512) matches torch, checked as test_matches_torch_within_the_float16_bound checks its cases"""
    L.check_with(test_matches_torch_within_the_float16_bound, kata, L.largest_case("half_precision_attention"))


@prop(case=problems(kind="overflow"))
@example(case={  # d_k = 1024 entries of 8: q·k = 65536 > 65504
    "q": half(np.full((1, 1024), 8.0)),
    "k": half(np.vstack([np.full(1024, 8.0), np.full(1024, 7.0)])),
    "v": half([[1.0, -2.0, 0.5], [3.0, 1.0, -1.0]]),
})
def test_unscaled_scores_above_65504_are_computed_wider(kata, case):
    """Unscaled q·k above float16's 65504 in every row (entries near 256, or d_k = 1024 near 8) gives the right float16 result, not NaN"""
    out = run(kata, **case)
    check_within_bound(out, case, message(f"{M}.why.overflow", largest=f"{largest_product(case['q'], case['k']):.4g}",
                                          sizes=sizes(case)))


@prop(case=problems(kind="long"))
def test_long_key_sequences_do_not_drift(kata, case):
    """Hundreds to thousands of keys: the row sums and weighted sums stay accurate (a float16 running sum drifts)"""
    out = run(kata, **case)
    check_within_bound(out, case, message(f"{M}.why.long", m=str(case["k"].shape[0]), sizes=sizes(case)))


#: Widths whose 1/sqrt(d_k) is not a power of two (so q * fp16(1/sqrt(d_k)) rounds).
TIE_WIDTHS = st.sampled_from([2, 3, 5, 6, 7, 8, 12, 48, 96])


@S.valid_inputs()
@st.composite
def tied_scores(draw):
    """Query 0 ties exactly between two keys, and rounding q * fp16(1/sqrt(d_k)) in float16 would
    pull the tie apart (built so, not drawn by luck): q[0] = (a, b, ...), k = [(b t, 0, ...),
    (0, a t, ...)], so both scores are a b t / sqrt(d_k) (about 256 to 1024), where a * s rounds
    up and b * s down (or the other way) in float16 by at least 3/4 of the largest relative
    rounding, s = fp16(1/sqrt(d_k)). v[:, 0] is (V, -V): exact out[0, 0] is 0, and a gap of
    the rounding's size moves it by about twice the contract's allowance. Other rows of q and
    columns of v are ordinary."""
    d_k, n, d_v = draw(TIE_WIDTHS), draw(SMALL), draw(SMALL)
    rng = S.rng_for(draw(S.SEEDS))
    s = F16(1 / np.sqrt(d_k))
    values = np.arange(1024, 2048) * 2.0**-6  # every float16 in [16, 32)
    error = ((values.astype(F16) * s).astype(np.float64) - values * float(s)) / (values * float(s))
    a, b = rng.choice(values[error > 0.75 * 2**-11]), rng.choice(values[error < -0.75 * 2**-11])
    if rng.random() < 0.5:
        a, b = b, a
    t = 2.0 ** np.round(np.log2(rng.uniform(256, 1024) * np.sqrt(d_k) / (a * b)))  # exact in float16
    q = np.vstack([np.concatenate([[a, b], S.normal(rng, d_k - 2)]), S.normal(rng, (n - 1, d_k))])
    k = np.zeros((2, d_k))
    k[0, 0], k[1, 1] = b * t, a * t
    v = S.normal(rng, (2, d_v))
    v[:, 0] = np.round(rng.uniform(1.0, 8.0), 2) * np.array([1.0, -1.0])
    return {"q": half(q), "k": half(k), "v": half(v)}


@prop(case=tied_scores())
def test_tied_scores_stay_tied(kata, case):
    """Two keys whose exact scores tie share query 0's weight equally, within the bound (scale the scores in a wider type: q * float16(1/sqrt(d_k)) rounds them apart)"""
    out = run(kata, **case)
    check_within_bound(out, case, message(f"{M}.why.tie", sizes=sizes(case)))


@prop(case=problems(), seed=S.SEEDS)
def test_permuting_keys_with_their_values_keeps_out(kata, case, seed):
    """Reordering the keys together with their values leaves out within the bound"""
    p = np.random.default_rng(seed).permutation(case["k"].shape[0])
    moved = {"q": case["q"], "k": case["k"][p], "v": case["v"][p]}
    out = run(kata, **moved)
    check_within_bound(out, moved, message(f"{M}.why.keys-as-a-set", order=str(p.tolist())))


@prop(case=problems(kind="ordinary"))
def test_does_not_modify_its_inputs(kata, case):
    """q, k and v are left exactly as they were"""
    check_leaves_inputs_alone(lambda: run(kata, **case), case, FUNCTION)


# -- Contract violations -> ValueError ------------------------------------------------------

#: Each way an input can fail to be a float16 NumPy array, and how to make it from one.
NOT_FLOAT16 = {  # by the id of its words: judge.half_precision_attention.form.<id>
    "list": lambda a: a.tolist(),
    "float32": lambda a: a.astype(np.float32),
    "float64": lambda a: a.astype(np.float64),
    "int64": lambda a: np.round(a.astype(np.float64)).astype(np.int64),
    "tuple": lambda a: tuple(tuple(float(x) for x in row) for row in a),
    # np.asarray keeps float16 for these two: a dtype check after np.asarray lets them through
    "float16-rows": lambda a: list(a),
    "float16-scalars": lambda a: [[F16(x) for x in row] for row in a],
}
#: Forms built entry by entry, tried on an input of at most PER_ENTRY_MOST entries: the judge
#: sends each float16 scalar as an array of its own, and the 18 calls of a large example took
#: a quarter of a second. Which container holds the values is the rule here, not how many there
#: are; the small examples (most of them, and the explicit one) try every form.
PER_ENTRY = ("tuple", "float16-scalars")
PER_ENTRY_MOST = 256


@prop(case=problems(kind="ordinary"))
@example(case=PROBE())
def test_rejects_inputs_that_are_not_float16_arrays(kata, case):
    """q, k or v given as a list (even of float16 rows or float16 scalars), a tuple, or an array of float32, float64 or int64 raises ValueError (only float16 NumPy arrays are accepted)"""
    for name in ("q", "k", "v"):
        for form, make in NOT_FLOAT16.items():
            if form in PER_ENTRY and case[name].size > PER_ENTRY_MOST:
                continue
            bad = dict(case, **{name: make(case[name])})
            expect_value_error(lambda: kata(**bad), message(f"{M}.because.not-float16", name=name, form=message(f"{M}.form.{form}")))


def _zero_d(a):
    return np.asarray(a[0, 0])  # a 0-d float16 array


@CONTRACT.rejects_a_wrong_rank(problems(kind="ordinary"), forms=not_2d_forms() | {"{}[0, 0], a 0-d scalar": _zero_d})
def test_rejects_an_input_that_is_not_2d(kata, case):
    """q, k or v that is not 2-D (a scalar, a vector, a 3-D batch) raises ValueError"""


@st.composite
def a_call_with_a_zero_size(draw):
    """(call, because): float16 arrays of drawn sizes with one of n, m, d_k, d_v set to 0."""
    sizes = dict(zip(("n", "m", "d_k", "d_v"), draw(DIMS)))
    dim = draw(st.sampled_from(sorted(sizes)))
    sizes[dim] = 0
    rng = S.rng_for(draw(S.SEEDS))
    call = {name: half(S.normal(rng, tuple(sizes[d] for d in axes))) for name, axes in QKV.items()}
    return call, message("contract.zero-size", label=f"{dim} = 0", shapes=CONTRACT.shapes_of(call))


@rejects_each_call(a_call_with_a_zero_size())
def test_rejects_a_zero_dimension(kata, drawn):
    """An empty q, k or v (n, m, d_k or d_v equal to 0) raises ValueError"""


@st.composite
def a_call_with_sizes_that_disagree(draw):
    """(call, because): a valid call with k's width or v's row count changed (float16 kept)."""
    case, rng = draw_problem(draw, kind="ordinary")
    (m, d_k), d_v = case["k"].shape, case["v"].shape[1]
    if draw(st.booleans()):
        width = int(rng.choice([w for w in range(1, 8) if w != d_k]))
        case["k"] = half(S.normal(rng, (m, width), 3.0))
        return case, message(f"{M}.because.widths", q_width=str(d_k), k_width=str(width))
    rows = int(rng.choice([r for r in range(1, 8) if r != m]))
    case["v"] = half(S.normal(rng, (rows, d_v), 3.0))
    return case, message(f"{M}.because.rows", k_rows=str(m), v_rows=str(rows))


@rejects_each_call(a_call_with_sizes_that_disagree())
def test_rejects_sizes_that_disagree(kata, drawn):
    """q and k of different widths, or k and v with different numbers of rows, raise ValueError"""


@CONTRACT.rejects_non_finite(problems(kind="ordinary"))
def test_rejects_nan_or_inf_in_q_k_or_v(kata, case, value, seed):
    """NaN or inf anywhere in q, k or v raises ValueError"""
