"""The judge for katas/masked_attention.py: scaled_dot_product_attention(q, k, v, mask=None).

Shapes throughout: q (n, d_k), k (m, d_k), v (m, d_v), mask (n, m) bool with True = may
attend; out (n, d_v), weights (n, m). Valid inputs draw n, m, d_k and d_v all different, so a
scale by the wrong width or a softmax over the wrong axis changes the answer.

Every bad input below breaks exactly one rule of the contract, so whichever check a candidate
runs first, a ValueError is the only right answer. Left open by the contract and therefore
never tested: what happens when only a blocked score overflows, and the wording of messages.
"""

import numpy as np
from hypothesis import example, strategies as st

from dojo.text.messages import message
from tests import oracle
from tests import largest as L
from tests import strategies as S
from tests.contract import QKV, Contract, not_2d_forms
from tests.judge import (
    check_leaves_inputs_alone,
    check_close_or_explain,
    check_finite,
    check_close,
    check_pair,
    check_that,
    expect_value_error,
    prop,
    show,
)

FUNCTION = "scaled_dot_product_attention"
#: The judge's messages: dojo/catalogue/katas/masked_attention/<lang>/judge.toml.
M = "judge.masked_attention"


def PROBE():
    return {
        "q": np.array([[1.0, 0.0]]),
        "k": np.array([[1.0, 0.0], [0.0, 1.0]]),
        "v": np.array([[1.0], [2.0]]),
        "mask": None,
    }


#: The arrays of the contract: q (n, d_k), k (m, d_k), v (m, d_v).
CONTRACT = Contract(QKV)


def run(kata, q, k, v, mask=None):
    """Call the candidate on a valid input; check it returns (out, weights), float64, of shapes
    (n, d_v) and (n, m), with no NaN or inf."""
    n, m, d_v = np.shape(q)[0], np.shape(k)[0], np.shape(v)[1]
    out, weights = check_pair(kata(q=q, k=k, v=v, mask=mask), FUNCTION, (n, d_v), (n, m))
    return check_finite(out, weights, largest_score(q, k, mask))


def largest_score(q, k, mask) -> float:
    """The largest |score| that takes part in the softmax (for the NaN hint)."""
    q, k = np.asarray(q, dtype=np.float64), np.asarray(k, dtype=np.float64)
    with np.errstate(all="ignore"):
        scores = np.abs(q @ k.T / np.sqrt(q.shape[1]))
    return float(np.max(scores if mask is None else np.where(mask, scores, 0.0)))



def sizes(case) -> dict:
    """The dimensions of a case, named, for failure messages (a message)."""
    (n, d_k), (m, d_v) = np.shape(case["q"]), np.shape(case["v"])
    masked = message(f"{M}.why.no-mask" if case.get("mask") is None else f"{M}.why.mask-meaning")
    return message(f"{M}.why.sizes", n=str(n), m=str(m), d_k=str(d_k), d_v=str(d_v), masked=masked)


def allowed_of(case) -> np.ndarray:
    n, m = np.shape(case["q"])[0], np.shape(case["k"])[0]
    return np.ones((n, m), dtype=bool) if case.get("mask") is None else np.asarray(case["mask"])


# -- Strategies ------------------------------------------------------------------------------
# Each example draws a few small choices and one seed; the arrays come from the seed through
# NumPy (tests/strategies.py: S.rng_for, S.normal). Nested strategies are not built per
# example: Hypothesis validates every new strategy object, which would dominate the run time.

DIMS = S.distinct_dims(4)  # n, m, d_k, d_v
#: Valid inputs: mostly all different; one example in four n == m and d_k == d_v.
PROBLEM_DIMS = S.sometimes_coinciding(DIMS, ((0, 1), (2, 3)))
KINDS = st.sampled_from(["ordinary", "large"])
DENSITIES = st.sampled_from([0.2, 0.5, 0.8, 1.0])
BOOLEANS = st.booleans()


def draw_problem(draw, kind=None, masked=None, min_keys=1):
    """Valid inputs {q, k, v, mask} and the generator that made them (for further choices).

    n, m, d_k, d_v are pairwise different (one example in four: n == m and d_k == d_v); mask is None or a bool (n, m) with an allowed key
    in every row. ``kind``: "ordinary" (entries of size 0.3 to 10, drawn per array) or
    "large" (q and k entries ~100, so scores are ~1e4 and exp() overflows without the max
    shift) or "far below" (masked with a blocked key (m >= 2 whenever some size is), every score from about -1e10 down to
    the edge of overflow: S.scores_far_below). ``min_keys``: at least this many keys, so a key can be blocked while every row
    keeps one.
    """
    dims = list(draw(PROBLEM_DIMS))
    kind = kind or draw(KINDS)
    if kind == "far below":  # blocked keys are what such scores test: at least two keys, one blocked
        masked, min_keys = True, max(min_keys, 2)
    if dims[1] < min_keys:  # m is too small: swap it with the largest of the other sizes
        other = max((0, 2, 3), key=lambda i: dims[i])
        dims[1], dims[other] = dims[other], dims[1]
    n, m, d_k, d_v = dims
    masked = draw(BOOLEANS) if masked is None else masked
    q_scale, k_scale = (100.0, 100.0) if kind == "large" else (draw(S.SCALES), draw(S.SCALES))
    v_scale = draw(S.SCALES)
    density = draw(DENSITIES) if masked else None
    rng = S.rng_for(draw(S.SEEDS))
    case = {
        "q": S.normal(rng, (n, d_k), q_scale),
        "k": S.normal(rng, (m, d_k), k_scale),
        "v": S.normal(rng, (m, d_v), v_scale),
        "mask": S.valid_mask(rng, n, m, density) if masked else None,
    }
    if kind == "far below":
        if m >= 2 and case["mask"].all():  # block one key of a row (it keeps the others)
            case["mask"][draw(st.integers(0, n - 1)), draw(st.integers(0, m - 1))] = False
        case["q"], case["k"] = S.scores_far_below(rng, case["q"], case["k"], draw(S.FAR_DECADES))
    return case, rng


@S.valid_inputs()
@st.composite
def problems(draw, kind=None, masked=None):
    """Valid inputs {q, k, v, mask} (see draw_problem)."""
    return draw_problem(draw, kind, masked)[0]


# -- Properties of a correct answer -------------------------------------------------------


@prop(case=problems() | problems(kind="far below"))
@example(
    case={
        "q": np.array([[1.0, 0.0, 2.0]]),
        "k": np.array([[1.0, 1.0, 0.0], [0.0, 2.0, 1.0]]),
        "v": np.array([[1.0, 2.0, 3.0, 4.0], [-1.0, 0.5, 0.0, 2.0]]),
        "mask": None,
    }
)
@example(
    case={
        "q": np.array([[1.0, 0.0], [0.5, -1.0], [2.0, 1.0]]),
        "k": np.array([[1.0, 1.0], [0.0, 2.0], [-1.0, 0.5], [0.3, 0.3]]),
        "v": np.array([[1.0], [2.0], [3.0], [4.0]]),
        "mask": np.array(
            [[True, False, True, True], [False, False, True, False], [True, True, True, False]]
        ),
    }
)
@example(  # every allowed score lies far below -1e9: a finite fill of -1e9 takes all the weight
    case={
        "q": np.array([[1e6 + 1.0, 0.5], [1e6 - 0.5, 2.0]]),
        "k": np.array([[-1e6, 1.0], [-2e6, 0.0], [-3e6, 1.0]]),
        "v": np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 0.0], [2.0, -2.0, 1.0]]),
        "mask": np.array([[False, True, True], [True, False, True]]),
    }
)
# an allowed score of exactly finfo.min, the most negative float64: a fill of finfo.min for the
# blocked key ties with it and takes half the weight (a blind hostile round, stop 54)
@example(case={"q": np.array([[np.finfo(np.float64).min]]), "k": np.array([[1.0], [1.0]]), "v": np.array([[1.0], [5.0]]),
               "mask": np.array([[True, False]])})
# two equal scores of -1e20 (two equal keys): weights 1/2 each. exp(s - logsumexp(s)) gives 1 each,
# since the log 2 in logsumexp is below float64's spacing out there (stop 56: a right file of ours)
@example(case={"q": np.array([[1e20]]), "k": np.array([[-1.0], [-1.0], [0.5]]), "v": np.array([[1.0], [3.0], [7.0]]),
               "mask": np.array([[True, True, False]])})
# 520 queries and 530 keys: loops over query chunks or key blocks of 512 that drop the rest (a
# blind hostile round, stop 57: sizes stopped at 512 here)
@example(case={"q": np.round(np.random.default_rng(81).standard_normal((520, 4)), 2), "k": np.round(np.random.default_rng(82).standard_normal((530, 4)), 2), "v": np.round(np.random.default_rng(83).standard_normal((530, 2)), 2), "mask": None})
# q's and k's entries sum past float64's largest (1e308 twice), their scores are 0: a check for NaN
# or inf written as np.isfinite(a.sum()) refuses this valid input (a blind hostile round, stop 57)
@example(case={"q": np.array([[1e308, 1e308, 0.0, 0.0]]), "k": np.array([[0.0, 0.0, 1e308, 1e308], [0.0, 0.0, 1e308, -1e308], [0.0, 0.0, 0.0, 0.0]]),
               "v": np.array([[1.0], [3.0], [8.0]]), "mask": None})
def test_matches_torch_attention(kata, case):
    """Matches torch's scaled_dot_product_attention, with and without a mask, for ordinary, large (~1e4) and far-below-zero scores (from about -1e9 down to the edge of overflow)"""
    out, weights = run(kata, **case)
    want_out, want_weights = oracle.attention(case["q"], case["k"], case["v"], case["mask"])
    check_close(
        weights,
        want_weights,
        "weights",
        message(f"{M}.why.weights", sizes=sizes(case)),
    )
    check_close(out, want_out, "out", message(f"{M}.why.out", sizes=sizes(case)))


#: Properties that draw no input: they build a fixed one themselves (tests/strategies.py).
INPUT_BUILT_INSIDE = ("test_the_largest_realistic_case_matches_torch",)


@prop(seed=st.just(0))
def test_the_largest_realistic_case_matches_torch(kata, seed):
    """The compare battery's largest realistic case (n = 512) matches torch, checked as test_matches_torch_attention checks its cases"""
    L.check_with(test_matches_torch_attention, kata, L.largest_case("masked_attention"))


@prop(case=problems())
def test_rows_sum_to_one_and_blocked_weights_are_exactly_zero(kata, case):
    """Each query's weights lie in [0, 1] and sum to 1 over the keys; blocked weights are exactly 0"""
    out, weights = run(kata, **case)
    allowed = allowed_of(case)
    leaked = np.argwhere(~allowed & (weights != 0.0))
    if leaked.size:
        i, j = (int(x) for x in leaked[0])
        check_that(
            False,
            message(f"{M}.fail.blocked-not-zero", i=str(i), j=str(j), value=repr(float(weights[i, j])),
                    mask=show(allowed), weights=show(weights)),
        )
    if not np.all((weights >= 0.0) & (weights <= 1.0)):
        check_that(
            False,
            message(f"{M}.fail.weights-in-range", min=repr(float(np.min(weights))),
                    max=repr(float(np.max(weights))), weights=show(weights)),
        )
    check_close(
        weights.sum(axis=1),
        np.ones(weights.shape[0]),
        message(f"{M}.what.row-sums"),
        message(f"{M}.why.row-sums"),
    )


BIG = st.sampled_from([1e6, 1e10, 1e150])



@S.valid_inputs(calls=S.calls_with_one_key_replaced)
@st.composite
def with_a_blocked_key_changed(draw):
    """A masked problem, one key ``key`` blocked for some rows, and extreme new k[key], v[key].

    The new key is huge (1e6 to 1e150 times a vector) but every score stays finite. Half the
    time it points along a blocking query, so that blocked score is hugely positive: adding
    -1e9 instead of -inf then leaks, and a softmax before masking underflows the allowed keys.
    """
    case, rng = draw_problem(draw, kind="ordinary", masked=True, min_keys=2)
    big, aligned = draw(BIG), draw(BOOLEANS)
    q, mask = case["q"], case["mask"]
    n, m = mask.shape
    key = int(rng.integers(0, m))
    blocking = rng.random(n) < 0.5
    blocking[rng.integers(0, n)] = True  # at least one row blocks the key
    mask[blocking, key] = False
    for i in np.flatnonzero(~mask.any(axis=1)):  # give such a row another key
        mask[i, (key + 1 + rng.integers(0, m - 1)) % m] = True
    if aligned:  # along a query that blocks the key: that blocked score is hugely positive
        direction = q[rng.choice(np.flatnonzero(~mask[:, key]))]
    else:
        direction = S.normal(rng, q.shape[1])
    if not np.any(direction):
        direction = S.normal(rng, q.shape[1]) + 0.5
    case["key"] = key
    case["new_k"] = np.round(direction, 2) * big
    case["new_v"] = S.normal(rng, case["v"].shape[1], 1e6)
    return case


@prop(case=with_a_blocked_key_changed())
@example(
    case={
        "q": np.array([[1.0, 0.5], [0.2, -1.0]]),
        "k": np.array([[0.3, 0.1], [1.0, 2.0], [-0.5, 0.4]]),
        "v": np.array([[1.0, 0.0, 2.0], [0.5, 1.0, -1.0], [2.0, 3.0, 0.5]]),
        "mask": np.array([[True, False, True], [True, True, True]]),
        "key": 1,
        "new_k": np.array([1e10, 5e9]),
        "new_v": np.array([1e6, -2e6, 3e6]),
    }
)
def test_blocked_keys_and_values_cannot_change_the_rows_that_block_them(kata, case):
    """Changing a key and value that a query blocks, even to huge finite values, leaves that query's row unchanged"""
    j = case["key"]
    before = {name: case[name] for name in ("q", "k", "v", "mask")}
    after = dict(before, k=case["k"].copy(), v=case["v"].copy())
    after["k"][j] = case["new_k"]
    after["v"][j] = case["new_v"]
    out1, w1 = run(kata, **before)
    out2, w2 = run(kata, **after)
    rows = np.flatnonzero(~case["mask"][:, j])
    why = lambda: message(  # noqa: E731
        f"{M}.why.blocked-change", rows=str(rows.tolist()), j=str(j),
        new_k=show(case["new_k"]), new_v=show(case["new_v"]),
    )
    check_close_or_explain(w2[rows], w1[rows], message(f"{M}.what.after-change", name=f"weights[{rows.tolist()}]"), why)
    check_close_or_explain(out2[rows], out1[rows], message(f"{M}.what.after-change", name=f"out[{rows.tolist()}]"), why)


@prop(case=problems(), seed=S.SEEDS)
def test_permuting_keys_with_their_values_permutes_the_weight_columns(kata, case, seed):
    """Reordering the keys together with their values (and mask columns) reorders the weight columns and keeps out"""
    out1, w1 = run(kata, **case)
    m = case["k"].shape[0]
    p = np.random.default_rng(seed).permutation(m)
    mask = None if case["mask"] is None else case["mask"][:, p]
    out2, w2 = run(kata, q=case["q"], k=case["k"][p], v=case["v"][p], mask=mask)
    why = message(f"{M}.why.keys-as-a-set", order=str(p.tolist()))
    check_close(w2, w1[:, p], message(f"{M}.what.keys-reordered", name="weights"), why)
    check_close(out2, out1, message(f"{M}.what.keys-reordered", name="out"), why)


@prop(case=problems(masked=False))
def test_no_mask_is_the_same_as_an_all_true_mask(kata, case):
    """mask=None gives the same answer as a mask that allows every key"""
    n, m = case["q"].shape[0], case["k"].shape[0]
    out1, w1 = run(kata, **case)
    out2, w2 = run(kata, q=case["q"], k=case["k"], v=case["v"], mask=np.ones((n, m), dtype=bool))
    why = message(f"{M}.why.all-true")
    check_close(w2, w1, message(f"{M}.what.all-true", name="weights"), why)
    check_close(out2, out1, message(f"{M}.what.all-true", name="out"), why)


@S.valid_inputs(calls=lambda case: [S.without(case, "row", "key")])
@st.composite
def with_a_single_allowed_key(draw):
    """A masked problem whose row ``row`` allows exactly one key, ``key``."""
    case, rng = draw_problem(draw, masked=True)
    n, m = case["mask"].shape
    row, key = int(rng.integers(0, n)), int(rng.integers(0, m))
    case["mask"][row] = False
    case["mask"][row, key] = True
    case["row"], case["key"] = row, key
    return case


@prop(case=with_a_single_allowed_key())
def test_a_query_with_a_single_allowed_key_copies_that_value(kata, case):
    """A query allowed to see only key j puts weight 1 on it and outputs exactly v[j]"""
    i, j = case["row"], case["key"]
    out, weights = run(kata, q=case["q"], k=case["k"], v=case["v"], mask=case["mask"])
    one_hot = np.zeros(case["k"].shape[0])
    one_hot[j] = 1.0
    why = message(f"{M}.why.single-key", i=str(i), j=str(j))
    check_close(weights[i], one_hot, f"weights[{i}]", why)
    check_close(out[i], case["v"][j], f"out[{i}]", message(f"{M}.why.single-key-out", j=str(j), why=why))


#: How q, k and v arrive: all three in one form (so float32 everywhere is tried), or mixed.
FORMS = st.one_of(
    S.INPUT_FORMS.map(lambda f: (f, f, f)), st.tuples(S.INPUT_FORMS, S.INPUT_FORMS, S.INPUT_FORMS)
)


#: Tried on every run in float32, int8 and uint8 (small, its numbers easy to follow).
_ONE_QUERY_THREE_KEYS = {
    "q": np.array([[1.5, -0.5]]),
    "k": np.array([[1.0, 2.0], [0.25, -1.0], [3.0, 0.5]]),
    "v": np.array([[1.0, 2.0, 3.0, 4.0], [0.5, 0.0, -1.0, 2.0], [1.0, 1.0, 0.0, -2.0]]),
    "mask": None,
}


@prop(case=problems(kind="ordinary"), forms=FORMS)
@example(case=_ONE_QUERY_THREE_KEYS, forms=("float32", "float32", "float32"))
@example(case=_ONE_QUERY_THREE_KEYS, forms=("int8", "int8", "int8"))
@example(case=_ONE_QUERY_THREE_KEYS, forms=("uint8", "uint8", "uint8"))
def test_accepts_array_likes_and_returns_float64(kata, case, forms):
    """Accepts lists, integer and float32 arrays (any memory layout) for q, k and v, with the same answer as for float64 arrays of those values; returns float64"""
    args, values = {}, {}
    for name, form in zip(("q", "k", "v"), forms):
        args[name], values[name] = S.as_form(case[name], form)
    out, weights = run(kata, **args, mask=case["mask"])
    # Compared with your own answer for the float64 values: whether that answer is right is
    # what the other properties judge; this one only asks that the form changes nothing.
    want_out, want_weights = run(kata, **values, mask=case["mask"])
    given = message(f"{M}.why.forms", **dict(zip(("q", "k", "v"), forms)))
    why = message(f"{M}.why.same-as-float64", given=given)
    check_close(weights, want_weights, "weights", why)
    check_close(out, want_out, "out", why)


@prop(case=problems())
def test_does_not_modify_its_inputs(kata, case):
    """q, k, v and mask are left exactly as they were"""
    check_leaves_inputs_alone(lambda: run(kata, **case), case, FUNCTION)


# -- Contract violations -> ValueError ------------------------------------------------------
# Every bad input breaks exactly one rule and keeps everything else valid. Where a rule can be
# broken in several ways (which array, which shape, which dtype), one example tries each way
# in turn, so none of them is left to chance.


@CONTRACT.rejects_a_wrong_rank(problems(kind="ordinary", masked=False), forms=not_2d_forms())
def test_rejects_an_input_that_is_not_2d(kata, case):
    """q, k or v that is not 2-D (a scalar, a vector, a 3-D batch) raises ValueError"""


@CONTRACT.rejects_a_zero_size_of(DIMS, order=("n", "m", "d_k", "d_v"), zeros=("n", "m", "d_k", "d_v"), extra={"mask": None})
def test_rejects_a_zero_dimension(kata, dims, seed):
    """An empty q, k or v (n, m, d_k or d_v equal to 0) raises ValueError"""


@CONTRACT.rejects_a_size_that_disagrees(
    lambda draw: draw_problem(draw, kind="ordinary"), "d_k", ("k",), choices=lambda case: range(1, 8),
    because=lambda q, k, **_: message(f"{M}.because.widths", q_width=str(q.shape[1]), k_width=str(k.shape[1])),
)
def test_rejects_q_and_k_of_different_widths(kata, case):
    """q and k of different widths (d_k) raise ValueError"""


@CONTRACT.rejects_a_size_that_disagrees(  # no mask: its width would be ambiguous
    lambda draw: draw_problem(draw, kind="ordinary", masked=False), "m", ("v",), choices=lambda case: range(1, 8),
    because=lambda k, v, **_: message(f"{M}.because.rows", k_rows=str(k.shape[0]), v_rows=str(v.shape[0])),
)
def test_rejects_k_and_v_with_different_numbers_of_rows(kata, case):
    """k and v with different numbers of rows raise ValueError"""


@CONTRACT.rejects_non_finite(problems(kind="ordinary"), examples=[dict(
    case={
        "q": np.array([[1.0, 0.0]]),
        "k": np.array([[0.5, 1.0], [1.0, -1.0]]),
        "v": np.array([[1.0, 2.0, 3.0], [2.0, 0.0, 1.0]]),
        "mask": np.array([[True, False]]),
    },
    value=np.nan,
    seed=1,
)])
def test_rejects_nan_or_inf_in_q_k_or_v(kata, case, value, seed):
    """NaN or inf anywhere in q, k or v raises ValueError (even in a key or value that is blocked)"""


NOT_BOOL = (np.int64, np.int32, np.uint8, np.float64, np.float32)


@prop(case=problems(kind="ordinary", masked=True))
def test_rejects_a_mask_that_is_not_bool(kata, case):
    """A mask of 0/1 integers or floats raises ValueError (only dtype bool is a mask)"""
    for dtype in NOT_BOOL:
        bad = dict(case, mask=case["mask"].astype(dtype))
        expect_value_error(
            lambda: kata(**bad),
            message(f"{M}.because.mask-dtype", dtype=str(np.dtype(dtype))),
        )


#: The name of the transposed wrong mask (shown with the input; in a message, in its language).
TRANSPOSED = "(m, n), transposed"


@st.composite
def with_wrongly_shaped_masks(draw):
    """A problem and bool masks whose shape is not (n, m): broadcastable ((1, m), (n, 1), (m,),
    (1, n, m)), transposed (m, n), or one row or column too many.

    Their entries are chosen so that, broadcast or cut to (n, m), every row would still have an
    allowed key: the shape is the only thing wrong.
    """
    case, rng = draw_problem(draw, kind="ordinary", masked=True)
    valid = case["mask"]
    n, m = valid.shape
    wrong = {
        "(1, m)": valid[:1],
        "(n, 1)": np.ones((n, 1), dtype=bool),
        "(m,)": valid[0],
        "(1, n, m)": valid[None],
        TRANSPOSED: S.valid_mask(rng, m, n, 0.5),
        "(n + 1, m)": np.vstack([valid, valid[:1]]),
        "(n, m + 1)": np.hstack([valid, valid[:, :1]]),
    }
    case["mask"] = None
    case["masks"] = {k: np.array(v) for k, v in wrong.items() if np.shape(v) != (n, m)}
    return case


@prop(case=with_wrongly_shaped_masks())
def test_rejects_a_mask_whose_shape_is_not_n_by_m(kata, case):
    """A mask whose shape is not exactly (n, m) raises ValueError, even if it would broadcast"""
    n, m = case["q"].shape[0], case["k"].shape[0]
    for name, mask in case["masks"].items():
        expect_value_error(
            lambda: kata(q=case["q"], k=case["k"], v=case["v"], mask=mask),
            message(f"{M}.because.mask-shape", shape=str(mask.shape), n=str(n), m=str(m),
                    form=message(f"{M}.because.mask-transposed") if name == TRANSPOSED else name),
        )


@st.composite
def with_a_fully_blocked_row(draw):
    """A bool mask in which one row is all False (S.masks_with_a_blocked_row)."""
    case, _ = draw_problem(draw, kind="ordinary", masked=False)
    n, m = case["q"].shape[0], case["k"].shape[0]
    case["mask"], row = draw(S.masks_with_a_blocked_row(n, m))
    return case, row


@prop(bad=with_a_fully_blocked_row())
def test_rejects_a_query_with_no_allowed_key(kata, bad):
    """A query whose mask row is all False raises ValueError (instead of returning NaN)"""
    case, row = bad
    expect_value_error(
        lambda: kata(**case),
        message(f"{M}.because.no-allowed-key", row=str(row)),
    )


@CONTRACT.rejects_an_overflowing_score(
    lambda draw: draw_problem(draw, kind="ordinary"),
    because=lambda i, j, **_: message(f"{M}.because.overflow", i=str(i), j=str(j)),
)
def test_rejects_an_allowed_score_that_overflows(kata, bad):
    """An allowed score q[i]·k[j] / sqrt(d_k) that overflows to inf raises ValueError (instead of NaN)"""
