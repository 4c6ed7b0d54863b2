"""The judge for katas/causal_self_attention.py: causal_self_attention(x, w_q, w_k, w_v).

Shapes throughout: x (n, d_model), w_q and w_k (d_model, d_k), w_v (d_model, d_v);
out (n, d_v), weights (n, n). Valid inputs draw n, d_model, d_k and d_v all different, so a
scale by sqrt(d_model) instead of sqrt(d_k), or forgetting w_v, changes the answer.

Every bad input below breaks exactly one rule of the contract, so whichever check a candidate
runs first, a ValueError is the only right answer. Left open by the contract and therefore
never tested: what happens when only a blocked (future) score overflows, and the wording of
messages.
"""

import numpy as np
from hypothesis import example, strategies as st

from dojo.text.messages import message
from tests import oracle
from tests import largest as L
from tests import strategies as S
from tests.contract import Contract, not_2d_forms
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

FUNCTION = "causal_self_attention"
NAMES = ("x", "w_q", "w_k", "w_v")
#: The judge's messages: dojo/catalogue/katas/causal_self_attention/<lang>/judge.toml.
M = "judge.causal_self_attention"


def PROBE():
    return {
        "x": np.array([[1.0, 0.0], [0.0, 1.0]]),
        "w_q": np.eye(2),
        "w_k": np.eye(2),
        "w_v": np.eye(2),
    }


#: The arrays of the contract, with the named size on each axis.
CONTRACT = Contract({"x": ("n", "d_model"), "w_q": ("d_model", "d_k"), "w_k": ("d_model", "d_k"),
                     "w_v": ("d_model", "d_v")})


def run(kata, x, w_q, w_k, w_v):
    """Call the candidate on a valid input; check it returns (out, weights), float64, of shapes
    (n, d_v) and (n, n), with no NaN or inf."""
    n, d_v = np.shape(x)[0], np.shape(w_v)[1]
    out, weights = check_pair(kata(x=x, w_q=w_q, w_k=w_k, w_v=w_v), FUNCTION, (n, d_v), (n, n))
    return check_finite(out, weights, largest_score(x, w_q, w_k))


def largest_score(x, w_q, w_k) -> float:
    """The largest |score| query i ≥ key j takes part in the softmax with (for the NaN hint)."""
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(all="ignore"):
        q, k = x @ np.asarray(w_q, dtype=np.float64), x @ np.asarray(w_k, dtype=np.float64)
        scores = np.tril(q @ k.T / np.sqrt(q.shape[1]))
    return float(np.max(np.abs(scores)))



def sizes(case) -> dict:
    """The dimensions of a case, named, for failure messages (a message)."""
    (n, d_model), d_k, d_v = np.shape(case["x"]), np.shape(case["w_q"])[1], np.shape(case["w_v"])[1]
    return message(f"{M}.why.sizes", n=str(n), d_model=str(d_model), d_k=str(d_k), d_v=str(d_v))


def expected(case):
    return oracle.causal_self_attention(case["x"], case["w_q"], case["w_k"], case["w_v"])


# -- Strategies ------------------------------------------------------------------------------
# Each example draws a few small choices and one seed; the arrays come from the seed through
# NumPy (tests/strategies.py: S.rng_for, S.normal). Nested strategies are not built per
# example: Hypothesis validates every new strategy object, which would dominate the run time.

DIMS = S.distinct_dims(4)  # n, d_model, d_k, d_v
#: Valid inputs: mostly all different; one example in four d_k == d_v == d_model.
SEQUENCE_DIMS = S.sometimes_coinciding(DIMS, ((1, 2, 3),))
KINDS = st.sampled_from(["ordinary", "large"])
BOOLEANS = st.booleans()


def draw_sequence(draw, kind=None, min_len=1):
    """Valid inputs {x, w_q, w_k, w_v} and the generator that made them (for further choices).

    n, d_model, d_k, d_v are pairwise different (one example in four: d_k == d_v == d_model). ``kind``: "ordinary" (entries of size 0.3 to
    10, drawn per array) or "large" (x, w_q and w_k entries ~10, so scores are ~1e4 and
    exp() overflows without the max shift) or "far below" (every score from about -1e9 down to the
    edge of overflow:
    S.projected_scores_far_below). ``min_len``: at least this many positions.
    """
    dims = list(draw(SEQUENCE_DIMS))
    if dims[0] < min_len:  # n is too small: swap it with the largest of the other sizes
        other = max((1, 2, 3), key=lambda i: dims[i])
        dims[0], dims[other] = dims[other], dims[0]
    n, d_model, d_k, d_v = dims
    kind = kind or draw(KINDS)
    if kind == "large":
        scales = (10.0, 10.0, 10.0, draw(S.SCALES))
    else:
        scales = tuple(draw(S.SCALES) for _ in NAMES)
    rng = S.rng_for(draw(S.SEEDS))
    shapes = ((n, d_model), (d_model, d_k), (d_model, d_k), (d_model, d_v))
    case = {name: S.normal(rng, shape, scale) for name, shape, scale in zip(NAMES, shapes, scales)}
    if kind == "far below":
        case["x"], case["w_q"], case["w_k"] = S.projected_scores_far_below(rng, case["x"], case["w_q"], case["w_k"], draw(S.FAR_DECADES))
    return case, rng


@S.valid_inputs()
@st.composite
def sequences(draw, kind=None, min_len=1):
    """Valid inputs {x, w_q, w_k, w_v} (see draw_sequence)."""
    return draw_sequence(draw, kind, min_len)[0]


# -- Properties of a correct answer -------------------------------------------------------


@prop(case=sequences() | sequences(kind="far below", min_len=2))
@example(
    case={
        "x": np.array([[1.0, 0.0], [0.5, -1.0], [2.0, 1.0]]),
        "w_q": np.array([[1.0, 0.5, 0.0], [0.0, 1.0, -1.0]]),
        "w_k": np.array([[0.5, 1.0, 1.0], [1.0, 0.0, 2.0]]),
        "w_v": np.array([[1.0, 2.0, 0.0, -1.0], [0.0, 1.0, 3.0, 0.5]]),
    }
)
@example(  # every score far below -1e9 (x[:, 0] huge, w_q row 0 = 1, w_k row 0 = -1)
    case={
        "x": np.array([[2e6, 0.0], [1e6, -1.0], [3e6, 1.0]]),
        "w_q": np.array([[1.0, 1.0, 1.0], [0.0, 1.0, -1.0]]),
        "w_k": np.array([[-1.0, -1.0, -1.0], [1.0, 0.0, 2.0]]),
        "w_v": np.array([[1.0, 2.0, 0.0, -1.0], [0.0, 1.0, 3.0, 0.5]]),
    }
)
# allowed scores down to -1.44e308 (x[0] = 1.2e154, w_k = -w_q): a fill of -1e308 for the future
# lies above them and takes all the weight (a blind hostile round, stop 54)
@example(case={"x": np.array([[1.2e154], [1e154]]), "w_q": np.array([[1.0]]), "w_k": np.array([[-1.0]]),
               "w_v": np.array([[1.0]])})
# 1100 tokens: past nanoGPT's causal mask precomputed for block_size = 1024 (stop 55's blind round)
@example(case={"x": np.round(np.random.default_rng(55).standard_normal((1100, 6)), 2), "w_q": np.round(np.random.default_rng(56).standard_normal((6, 4)), 2), "w_k": np.round(np.random.default_rng(57).standard_normal((6, 4)), 2), "w_v": np.round(np.random.default_rng(58).standard_normal((6, 3)), 2)})
# equal allowed scores far below (about -1.2e24, from x of 2**40): weights 1/3 each, where
# exp(s - logsumexp(s)) gives 1 each (the log 3 rounds away out there; stop 56)
@example(case={"x": np.array([[2.0**40, 0.0], [2.0**40, 0.0], [2.0**40, 1.0]]), "w_q": np.array([[1.0], [0.0]]), "w_k": np.array([[-1.0], [0.0]]), "w_v": np.array([[0.0], [1.0]])})
# query 0's one allowed score is exactly finfo.min: a finfo.min fill of the future ties with it
# and takes half the weight (a blind hostile round, stop 57; multihead had this since stop 56)
@example(case={"x": np.array([[1.0, 0.0], [1.0, 1.0]]), "w_q": np.array([[S.FINFO_MIN_FACTORS[0]], [0.0]]),
               "w_k": np.array([[S.FINFO_MIN_FACTORS[1]], [-S.FINFO_MIN_FACTORS[1]]]), "w_v": np.array([[1.0], [1.0]])})
def test_matches_torch_causal_self_attention(kata, case):
    """Matches torch (projections, then scaled_dot_product_attention with is_causal=True), for ordinary, large (~1e4) and far-below-zero scores (from about -1e9 down to the edge of overflow)"""
    out, weights = run(kata, **case)
    want_out, want_weights = expected(case)
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
    """The compare battery's largest realistic case (n = 512) matches torch, checked as test_matches_torch_causal_self_attention checks its cases"""
    L.check_with(test_matches_torch_causal_self_attention, kata, L.largest_case("causal_self_attention"))


@prop(case=sequences())
def test_weights_are_lower_triangular_and_rows_sum_to_one(kata, case):
    """Position i puts weight only on positions j <= i (exactly 0 above the diagonal), and each row sums to 1"""
    out, weights = run(kata, **case)
    n = weights.shape[0]
    future = np.triu(np.ones((n, n), dtype=bool), k=1)
    leaked = np.argwhere(future & (weights != 0.0))
    if leaked.size:
        i, j = (int(x) for x in leaked[0])
        check_that(
            False,
            message(f"{M}.fail.future-not-zero", i=str(i), j=str(j), value=repr(float(weights[i, j])),
                    weights=show(weights)),
        )
    if not np.all((weights >= 0.0) & (weights <= 1.0)):
        check_that(
            False,
            message(f"{M}.fail.weights-in-range", min=repr(float(np.min(weights))),
                    max=repr(float(np.max(weights))), weights=show(weights)),
        )
    check_close(
        weights.sum(axis=1),
        np.ones(n),
        message(f"{M}.what.row-sums"),
        message(f"{M}.why.row-sums"),
    )


BIG = st.sampled_from([1e3, 1e6, 1e12])


def _before_and_after_the_change(case) -> list[dict]:
    """The two calls of a with_a_changed_future case: before, and with x[t+1:] replaced."""
    before = S.without(case, "t", "new_future")
    after = dict(before, x=case["x"].copy())
    after["x"][case["t"] + 1 :] = case["new_future"]
    return [before, after]


@S.valid_inputs(calls=_before_and_after_the_change)
@st.composite
def with_a_changed_future(draw):
    """A sequence, a cut ``t`` (0 <= t < n - 1), and new, huge rows for the future x[t+1:].

    The future rows are 1e3 to 1e12 in size; every score stays finite. Half the time they are
    built so that a past query scores hugely positive against them: adding -1e9 to blocked
    scores instead of -inf then leaks, and a softmax before masking underflows the past.
    """
    case, rng = draw_sequence(draw, kind="ordinary", min_len=2)
    big, aligned = draw(BIG), draw(BOOLEANS)
    x, w_q, w_k = case["x"], case["w_q"], case["w_k"]
    n, d_model = x.shape
    t = int(rng.integers(0, n - 1))
    future = S.normal(rng, (n - t - 1, d_model))
    if aligned:  # x_f ∝ w_k q_i, so q_i · k_f = |w_k q_i|² > 0 for a past query i
        q_i = x[rng.integers(0, t + 1)] @ w_q
        direction = w_k @ q_i
        if np.any(direction):
            future = np.outer(rng.uniform(0.5, 2.0, n - t - 1), direction / np.abs(direction).max())
    case["t"] = t
    case["new_future"] = np.round(future, 2) * big
    return case


@prop(case=with_a_changed_future())
@example(
    case={
        "x": np.array([[1.0, 0.5], [0.2, -1.0], [0.3, 0.3]]),
        "w_q": np.array([[1.0, 0.0, 0.5], [0.0, 1.0, 0.0]]),
        "w_k": np.array([[1.0, 0.0, 0.5], [0.0, 1.0, 0.0]]),
        "w_v": np.array([[1.0, 2.0, 0.0, 1.0], [0.0, -1.0, 1.0, 0.5]]),
        "t": 1,
        "new_future": np.array([[1e12, 5e11]]),
    }
)
def test_future_positions_cannot_change_the_past(kata, case):
    """Changing the later positions x[t+1:], even to huge values, leaves out[:t+1] and weights[:t+1] unchanged"""
    t = case["t"]
    before = {name: case[name] for name in NAMES}
    after = dict(before, x=case["x"].copy())
    after["x"][t + 1 :] = case["new_future"]
    out1, w1 = run(kata, **before)
    out2, w2 = run(kata, **after)
    why = lambda: message(  # noqa: E731
        f"{M}.why.future-change", t=str(t), next=str(t + 1), new_future=show(case["new_future"]),
    )
    past = slice(0, t + 1)
    check_close_or_explain(w2[past], w1[past], message(f"{M}.what.after-future", name=f"weights[:{t + 1}]"), why)
    check_close_or_explain(out2[past], out1[past], message(f"{M}.what.after-future", name=f"out[:{t + 1}]"), why)


@prop(case=sequences())
def test_the_first_position_attends_only_to_itself(kata, case):
    """Position 0 can only see itself: weights[0] is [1, 0, ..., 0] and out[0] is its own value x[0] @ w_v"""
    out, weights = run(kata, **case)
    n = weights.shape[0]
    one_hot = np.zeros(n)
    one_hot[0] = 1.0
    why = message(f"{M}.why.first-position")
    check_close(weights[0], one_hot, "weights[0]", why)
    own_value = case["x"][0] @ case["w_v"]
    check_close(out[0], own_value, "out[0]", message(f"{M}.why.first-position-out", why=why))


@prop(case=sequences(kind="ordinary"))
def test_the_scale_is_one_over_sqrt_d_k(kata, case):
    """Scores are divided by sqrt(d_k), the width of w_q and w_k: not sqrt(d_model), not sqrt(d_v)"""
    out, weights = run(kata, **case)
    (n, d_model), d_k, d_v = case["x"].shape, case["w_q"].shape[1], case["w_v"].shape[1]
    check_close(
        weights,
        expected(case)[1],
        "weights",
        message(f"{M}.why.scale", d_k=str(d_k), d_model=str(d_model), d_v=str(d_v), n=str(n)),
    )


#: How the four arrays arrive: all in one form (so float32 everywhere is tried), or mixed.
FORMS = st.one_of(S.INPUT_FORMS.map(lambda f: (f,) * 4), st.tuples(*[S.INPUT_FORMS] * 4))


#: Tried on every run in float32, int8 and uint8 (small, its numbers easy to follow).
_THREE_TOKENS = {
    "x": np.array([[1.5, -0.5], [0.25, 1.0], [2.0, 0.0]]),
    "w_q": np.array([[1.0], [0.5]]),
    "w_k": np.array([[0.5], [-1.0]]),
    "w_v": np.array([[1.0, 2.0, 3.0, 4.0], [0.5, 0.0, -1.0, 2.0]]),
}


@prop(case=sequences(kind="ordinary"), forms=FORMS)
@example(case=_THREE_TOKENS, forms=("float32",) * 4)
@example(case=_THREE_TOKENS, forms=("int8",) * 4)
@example(case=_THREE_TOKENS, forms=("uint8",) * 4)
def test_accepts_array_likes_and_returns_float64(kata, case, forms):
    """Accepts lists, integer and float32 arrays (any memory layout) for x and the weights, with the same answer as for float64 arrays of those values; returns float64"""
    args, values = {}, {}
    for name, form in zip(NAMES, forms):
        args[name], values[name] = S.as_form(case[name], form)
    out, weights = run(kata, **args)
    # Compared with your own answer for the float64 values: whether that answer is right is
    # what the other properties judge; this one only asks that the form changes nothing.
    want_out, want_weights = run(kata, **values)
    given = message(f"{M}.why.forms", **dict(zip(NAMES, forms)))
    why = message(f"{M}.why.same-as-float64", given=given)
    check_close(weights, want_weights, "weights", why)
    check_close(out, want_out, "out", why)


@prop(case=sequences())
def test_does_not_modify_its_inputs(kata, case):
    """x, w_q, w_k and w_v are left exactly as they were"""
    check_leaves_inputs_alone(lambda: run(kata, **case), case, FUNCTION)


# -- Contract violations -> ValueError ------------------------------------------------------
# Every bad input breaks exactly one rule and keeps everything else valid. Where a rule can be
# broken in several ways (which array, which shape), one example tries each way in turn, so
# none of them is left to chance.


def not_2d(name: str) -> dict:
    """Ways to make an array not 2-D. x's 1-D form is a row; a weight's is a column, so it
    keeps its d_model rows."""
    if name == "x":
        return not_2d_forms()
    return not_2d_forms(one_d=("{}[:, 0], 1-D", lambda a: a[:, 0].copy()))


@CONTRACT.rejects_a_wrong_rank(sequences(kind="ordinary"), forms=not_2d)
def test_rejects_an_input_that_is_not_2d(kata, case):
    """x or a weight matrix that is not 2-D (a scalar, a vector, a 3-D batch) raises ValueError"""


@CONTRACT.rejects_a_zero_size_of(DIMS, order=("n", "d_model", "d_k", "d_v"), zeros=("n", "d_model"),
                                 because=lambda label, shapes: message(f"{M}.because.empty-x", label=label, shapes=shapes))
def test_rejects_an_empty_x(kata, dims, seed):
    """An empty x (no positions, or d_model = 0) raises ValueError"""


@CONTRACT.rejects_a_size_that_disagrees(
    lambda draw: draw_sequence(draw, kind="ordinary"), "d_model", ("w_q", "w_k", "w_v"),
    choices=lambda case: range(1, 8),
    because=lambda x, name, size, **_: message(f"{M}.because.rows", d_model=str(x.shape[1]), name=name, size=str(size)),
)
def test_rejects_a_projection_whose_rows_are_not_d_model(kata, case):
    """A weight matrix whose row count differs from d_model (x.shape[1]) raises ValueError"""


@CONTRACT.rejects_a_size_that_disagrees(
    lambda draw: draw_sequence(draw, kind="ordinary"), "d_k", ("w_k",), choices=lambda case: range(1, 8),
    because=lambda w_q, w_k, **_: message(f"{M}.because.widths", q_width=str(w_q.shape[1]), k_width=str(w_k.shape[1])),
)
def test_rejects_w_q_and_w_k_of_different_widths(kata, case):
    """w_q and w_k of different widths raise ValueError (Q Kᵀ needs the same d_k)"""


@CONTRACT.rejects_a_zero_size(sequences(kind="ordinary"), labels={"d_k": "d_k = 0", "d_v": "d_v = 0"},
                              because=lambda label, shapes: message(f"{M}.because.zero-width", label=label, shapes=shapes))
def test_rejects_a_projection_of_width_zero(kata, case):
    """A projection of width 0 (d_k = 0 in w_q and w_k, or d_v = 0) raises ValueError"""


@CONTRACT.rejects_non_finite(sequences(kind="ordinary"))
def test_rejects_nan_or_inf_anywhere(kata, case, value, seed):
    """NaN or inf in x, w_q, w_k or w_v raises ValueError"""


@st.composite
def with_an_allowed_score_overflowing(draw):
    """x[t] = 1e170 u and w_k = w_q scaled by positive column factors: Q[t]·K[t] ~ 1e340 -> +inf;
    or (as often) some factors negative, so that the products overflow to +inf and -inf while the
    exact score stays past 1e338 (float64 gives inf, -inf or NaN: S.overflowing_pair).

    Q, K and V stay finite (~1e170), every other score is finite, and (t, t) is on the diagonal,
    so it takes part in the softmax: the overflow is the only thing wrong.
    """
    case, rng = draw_sequence(draw, kind="ordinary")
    n, d_model = case["x"].shape
    t = int(rng.integers(0, n))
    u = S.normal(rng, d_model)
    u[np.abs(u) < 0.1] = 0.5
    w = case["w_q"]
    if np.abs(u @ w).max() < 0.01:  # make sure u w is clearly non-zero
        w[:, 0] += u / (u @ u)
    factors = np.round(rng.uniform(0.5, 2.0, w.shape[1]), 2)
    if w.shape[1] >= 2 and draw(st.booleans()):  # products of both signs, as S.overflowing_pair's mixed
        factors = factors * S.opposite_signs(rng, (u @ w) ** 2 * factors)
    case["w_k"] = w * factors
    case["x"][t] = 1e170 * u
    return case, t


@prop(bad=with_an_allowed_score_overflowing())
def test_rejects_an_allowed_score_that_overflows(kata, bad):
    """An allowed score Q[i]·K[j] / sqrt(d_k) (j <= i) that overflows to inf raises ValueError (instead of NaN)"""
    case, t = bad
    why = S.mixed_overflow(message(f"{M}.because.overflow", t=str(t)), case["x"][t] @ case["w_q"],
                           case["x"][t] @ case["w_k"])
    expect_value_error(lambda: kata(**case), why)
