"""The judge for katas/rope.py: apply_rope(x, positions, base=10000.0, interleaved=False).

Shapes: x (n, d) with d even, positions (n,) non-negative integers; the result is (n, d).
Every input the contract names varies in the draws: x (scales 0.3 to 10), positions (never
only ``arange``: shuffled, repeated, sparse, up to 10**6 in one property), base (0.5 to 10**4)
and both layouts. Pairing bugs only show with d >= 4, so the comparisons draw d >= 4, with
some d = 2 cases (one pair, the smallest legal width) in the contract's own example list.

Every bad input below breaks exactly one rule of the contract, so a ValueError is the only right
answer whatever a candidate checks first. Left open by the contract and never tested: positions
above 10**6, a bool base, and the wording of messages.
"""

import numpy as np
from hypothesis import example, strategies as st

from dojo.text.messages import is_message, message
from tests import oracle
from tests import largest as L
from tests import strategies as S
from tests.judge import (
    KataMismatch,
    check_array,
    check_close,
    check_leaves_inputs_alone,
    expect_value_error,
    prop,
    show,
)

FUNCTION = "apply_rope"


def said(key: str, **params) -> dict:
    """A sentence of this judge, ``judge.rope.<key>`` (dojo/catalogue/katas/rope/<lang>/judge.toml), its
    values as strings (a message stays a message)."""
    return message(f"judge.rope.{key}", **{k: v if is_message(v) else str(v) for k, v in params.items()})


def PROBE():
    return {"x": np.array([[1.0, 0.0, 0.5, 2.0]]), "positions": np.array([3]), "base": 10000.0, "interleaved": False}


# -- Oracle (torch, float64) ------------------------------------------------------------------


@oracle.memoised
def torch_rope(x, positions, *, base, interleaved):
    """RoPE with complex numbers in torch: each pair is a + ib, multiplied by exp(i p theta).

    Written independently of the reference: the LLaMA way of building the frequencies,
    1 / base^(arange(0, d, 2) / d), and torch.polar for the unit complex numbers.
    """
    t = oracle.torch()
    x = oracle.tensor(x)
    n, d = x.shape
    freqs = 1.0 / (float(base) ** (t.arange(0, d, 2, dtype=t.float64) / d))  # (d/2,)
    angles = t.outer(t.from_numpy(np.asarray(positions, dtype=np.int64)).to(t.float64), freqs)  # (n, d/2)
    turn = t.polar(t.ones_like(angles), angles)  # (n, d/2) complex
    if interleaved:
        z = t.view_as_complex(x.reshape(n, d // 2, 2).contiguous())  # pairs (2i, 2i+1)
        return (t.view_as_real(z * turn).reshape(n, d).numpy(),)
    z = t.complex(x[:, : d // 2], x[:, d // 2 :])  # pairs (i, i + d/2)
    r = z * turn
    return (t.cat([r.real, r.imag], dim=1).numpy(),)


# -- Strategies --------------------------------------------------------------------------------

N = S.dims(1, 6)  # mostly 1 to 6, sometimes 8 to 128 (tests/sizes.py)
#: d = 2 * pairs: mostly d in {4, 6, 8}, so pairing bugs show; sometimes 16 to 256, so a table
#: of frequencies built for 4 pairs shows too. d is even in every draw, by construction.
PAIRS = S.dims(2, 4)
#: An int base is a number too, and so are NumPy's integers and float64 (an answer that checks
#: isinstance(base, (int, float)) refuses np.int64: a blind hostile round, stop 54).
#: A base in (0, 1] is valid too ("a finite number > 0"; an answer that refused base <= 1 passed: a
#: blind hostile round, stop 56), and so is an example of each in every run.
#: NumPy integers of every width: np.log of an np.int16 base is a float32, so the frequencies are
#: off by 1e-3 at a position of 10**6 (a blind hostile round, stop 58).
BASES = st.sampled_from([10000.0, 100.0, 10.0, 2.0, 500.0, 1000, np.int64(10000), np.int32(1000), np.float64(10.0),
                         0.5, 1, np.int16(10000), np.uint16(500), np.int8(10), np.uint8(100)])
#: NumPy bools too: an answer that tests ``interleaved is True`` takes np.True_ for the half split.
BOOLS = S.FLAGS
POSITION_KINDS = st.sampled_from(["shuffled", "repeated", "sparse", "arange from an offset"])


def draw_positions(rng, n: int, kind: str, top: int = 60) -> np.ndarray:
    """Positions that are never plain ``arange(n)``: a shuffled range, repeats, sparse values up
    to ``top``, or a range starting past 0 (a KV-cache chunk)."""
    if kind == "shuffled":
        p = rng.permutation(n) + int(rng.integers(0, 5))
    elif kind == "repeated":
        p = rng.integers(0, max(2, n // 2), size=n)
    elif kind == "sparse":
        p = rng.integers(0, top, size=n)
    else:
        p = np.arange(n) + int(rng.integers(1, top))
    if n >= 2 and np.array_equal(p, np.arange(n)):
        p = p[::-1].copy()
    return p.astype(np.int64)


@S.valid_inputs()
@st.composite
def problems(draw, pairs=PAIRS, interleaved=None):
    """Keyword arguments of a valid call: x (n, d), positions (n,), base, interleaved."""
    n, d = draw(N), 2 * draw(pairs)
    rng = S.rng_for(draw(S.SEEDS))
    return {
        "x": S.normal(rng, (n, d), draw(S.SCALES)),
        "positions": draw_positions(rng, n, draw(POSITION_KINDS)),
        "base": draw(BASES),
        "interleaved": draw(BOOLS) if interleaved is None else interleaved,
    }


def run(kata, case):
    """Call the candidate on a valid call and check the result is float64 of x's shape."""
    got = kata(**case)
    return check_array(got, said("what.result", function=FUNCTION), np.shape(case["x"]))


def layout(case) -> dict:
    return said("part.interleaved" if case["interleaved"] else "part.half-split")


def about(case) -> dict:
    n, d = np.shape(case["x"])
    return said("part.about", n=n, d=d, base=f"{case['base']:g}", layout=layout(case),
                positions=np.asarray(case["positions"]).tolist())


def pair_columns(d: int, interleaved: bool) -> tuple[np.ndarray, np.ndarray]:
    """The columns (first, second) of every pair, in pair order."""
    i = np.arange(d // 2)
    return (2 * i, 2 * i + 1) if interleaved else (i, i + d // 2)



# -- Properties of a correct answer -------------------------------------------------------------

_SMALL = {"x": np.array([[1.0, 2.0], [0.5, -1.0], [3.0, 0.0]]), "positions": np.array([2, 0, 7])}


@prop(case=problems())
@example(case={**_SMALL, "base": 10000.0, "interleaved": False})
@example(case={**_SMALL, "base": 3.0, "interleaved": True})
@example(case={**_SMALL, "base": 0.5, "interleaved": False})
@example(case={**_SMALL, "base": 1, "interleaved": True})
@example(case={"x": np.array([[1.0, 2.0, 3.0, 4.0]] * 2), "positions": np.array([5, 5]), "base": 10.0, "interleaved": False})
def test_matches_a_complex_number_rope_in_torch(kata, case):
    """Matches torch RoPE built with complex numbers, both layouts, any base, positions that are not arange"""
    want = torch_rope(case["x"], case["positions"], base=case["base"], interleaved=case["interleaved"])
    check_close(run(kata, case), want, said("what.rotated"), said("why.rotation", about=about(case)))


#: Properties that draw no input: they build a fixed one themselves (tests/strategies.py).
INPUT_BUILT_INSIDE = ("test_the_largest_realistic_case_matches_torch",)


@prop(seed=st.just(0))
def test_the_largest_realistic_case_matches_torch(kata, seed):
    """The compare battery's largest realistic case (n = 1024) matches torch, checked as test_matches_a_complex_number_rope_in_torch checks its cases"""
    L.check_with(test_matches_a_complex_number_rope_in_torch, kata, L.largest_case("rope"))


@prop(case=problems())
def test_each_pair_keeps_its_length(kata, case):
    """A rotation keeps the length of every pair: |(a, b)| is the same before and after"""
    got = run(kata, case)
    first, second = pair_columns(case["x"].shape[1], case["interleaved"])
    x = case["x"]
    check_close(
        np.hypot(got[:, first], got[:, second]),
        np.hypot(x[:, first], x[:, second]),
        said("what.pair-length"),
        said("why.pair-length", about=about(case)),
    )


@prop(case=problems())
def test_position_zero_leaves_a_row_unchanged(kata, case):
    """A row at position 0 comes back unchanged (every angle is 0), in both layouts"""
    n = case["x"].shape[0]
    positions = case["positions"].copy()
    zero = np.arange(n) % 2 == 0  # every other row at position 0
    positions[zero] = 0
    got = run(kata, dict(case, positions=positions))
    check_close(
        got[zero], case["x"][zero], said("what.position-zero", rows=np.flatnonzero(zero).tolist()),
        said("why.position-zero", about=about(dict(case, positions=positions))),
    )


def _both_pairs_of_positions(case) -> list[dict]:
    """The two calls of a query_key_pairs case: q and k at positions a and b, then a + s and b + s."""
    x = np.stack([case["q"], case["k"]])
    a, b, s = case["a"], case["b"], case["shift"]
    kw = {"base": case["base"], "interleaved": case["interleaved"]}
    return [{"x": x, "positions": np.array([a, b]), **kw}, {"x": x, "positions": np.array([a + s, b + s]), **kw}]


@S.valid_inputs(calls=_both_pairs_of_positions)
@st.composite
def query_key_pairs(draw):
    """A query q and a key k (both (d,)), two positions a, b, a shift s, base and layout."""
    d = 2 * draw(PAIRS)
    rng = S.rng_for(draw(S.SEEDS))
    a, b, s = (int(v) for v in rng.integers(0, 200, size=3))
    return {
        "q": S.normal(rng, d), "k": S.normal(rng, d), "a": a, "b": b, "shift": s + 1,
        "base": draw(BASES), "interleaved": draw(BOOLS),
    }


@prop(case=query_key_pairs())
def test_the_score_of_a_rotated_query_and_key_depends_only_on_their_offset(kata, case):
    """<rope(q, a), rope(k, b)> equals <rope(q, a+s), rope(k, b+s)>: the score sees only a - b (why RoPE exists)"""
    q, k, a, b, s = case["q"], case["k"], case["a"], case["b"], case["shift"]
    x = np.stack([q, k])
    kw = {"base": case["base"], "interleaved": case["interleaved"]}
    before = run(kata, {"x": x, "positions": np.array([a, b]), **kw})
    after = run(kata, {"x": x, "positions": np.array([a + s, b + s]), **kw})
    check_close(
        after[0] @ after[1], before[0] @ before[1],
        said("what.score", a=a + s, b=b + s),
        said("why.offset", a=a, b=b, offset=a - b, base=f"{case['base']:g}", layout=layout(case)),
    )


@prop(case=problems(), seed=S.SEEDS)
def test_rotating_twice_adds_the_positions(kata, case, seed):
    """rope(rope(x, a), b) equals rope(x, a + b): rotations at one frequency compose by adding angles"""
    more = S.rng_for(seed).integers(0, 40, size=case["x"].shape[0])
    once = run(kata, case)
    twice = run(kata, dict(case, x=once, positions=more))
    both = run(kata, dict(case, positions=case["positions"] + more))
    check_close(
        twice, both, f"rope(rope(x, positions), {more.tolist()})",
        said("why.twice", more=more.tolist(), about=about(case)),
    )


@prop(case=problems(interleaved=False))
def test_interleaved_is_the_half_split_layout_with_columns_permuted(kata, case):
    """Interleaved RoPE of x equals half-split RoPE of x with columns reordered (the weight-porting permutation)"""
    d = case["x"].shape[1]
    to_half = np.concatenate([np.arange(0, d, 2), np.arange(1, d, 2)])  # interleaved -> half-split
    half = run(kata, dict(case, x=case["x"][:, to_half], interleaved=False))
    inter = run(kata, dict(case, interleaved=True))
    check_close(
        inter[:, to_half], half,
        said("what.reordered-columns"),
        said("why.interleaved", about=about(case)),
    )


@prop(case=problems(), seed=S.SEEDS)
def test_each_row_is_rotated_by_its_own_position(kata, case, seed):
    """Reordering the rows together with their positions reorders the result: the position of a row is positions[r], not r"""
    n = case["x"].shape[0]
    order = S.rng_for(seed).permutation(n)
    if n >= 2 and np.array_equal(order, np.arange(n)):
        order = order[::-1]
    got = run(kata, case)
    moved = run(kata, dict(case, x=case["x"][order], positions=case["positions"][order]))
    check_close(
        moved, got[order], said("what.rows-reordered", order=order.tolist()),
        said("why.own-position", about=about(case)),
    )


@S.valid_inputs()
@st.composite
def far_positions(draw):
    """A valid call whose positions reach up to 10**6 (the contract's limit)."""
    case = draw(problems())
    rng = S.rng_for(draw(S.SEEDS))
    n = case["x"].shape[0]
    case["positions"] = rng.integers(10**5, 10**6 + 1, size=n).astype(np.int64)
    case["positions"][0] = 10**6
    return case


@prop(case=far_positions())
@example(case={"x": np.array([[1.0, 0.0, 0.5, 2.0]]), "positions": np.array([10**6]), "base": np.int16(10000),
               "interleaved": False})
def test_positions_up_to_a_million_stay_accurate(kata, case):
    """Positions up to 10**6 match torch to 1e-8 × max |x| (angles computed in float64)"""
    want = torch_rope(case["x"], case["positions"], base=case["base"], interleaved=case["interleaved"])
    # An angle of 10**6 radians is only known to ~1e-10 in float64, so the tolerance is absolute
    # in |x|; float32 angles are off by ~0.05 radians there.
    scale = float(np.max(np.abs(case["x"])))
    check_close(
        run(kata, case), want, said("what.far"),
        said("why.far", about=about(case)),
        rtol=0.0, atol=1e-8 * scale,
    )


#: int8 and uint8 too, scaled to fill the dtype: an answer that never converts to float64 negates
#: half of x in uint8, which wraps (a blind hostile round, stop 56).
FORM_NAMES = ("float32", "int", "int8", "uint8", "list")
FORMS = st.sampled_from(FORM_NAMES)
POSITION_FORMS = st.sampled_from(["int64", "int32", "uint16", "list"])


@prop(case=problems(), form=FORMS, position_form=POSITION_FORMS)
def test_accepts_array_likes_and_any_integer_positions(kata, case, form, position_form):
    """Accepts x as a list, integer or float32 array (any memory layout) and positions as any integer dtype or a list; returns float64"""
    p = case["positions"]
    positions = p.tolist() if position_form == "list" else p.astype(position_form)
    # every form of x on every example, the drawn one first: a bug of one form never hides behind the draws
    for form in [form, *(f for f in FORM_NAMES if f != form)]:
        x, x64 = S.as_form(case["x"], form)
        got = run(kata, dict(case, x=x, positions=positions))
        want = torch_rope(x64, p, base=case["base"], interleaved=case["interleaved"])
        check_close(got, want, said("what.rotated"),
                    said("why.forms", form=form, position_form=position_form, about=about(case)))


@prop(case=problems())
def test_does_not_modify_its_inputs(kata, case):
    """x and positions are left exactly as they were"""
    check_leaves_inputs_alone(lambda: run(kata, case), case, FUNCTION)


# -- Contract violations -> ValueError ------------------------------------------------------------

NOT_2D = st.sampled_from(["0-d", "1-D", "3-D"])


@prop(case=problems(), how=NOT_2D)
def test_rejects_x_that_is_not_2d(kata, case, how):
    """x that is a scalar, a vector or a 3-D batch raises ValueError"""
    x = case["x"]
    bad = {"0-d": np.float64(x[0, 0]), "1-D": x[0].copy(), "3-D": x[None].copy()}[how]
    positions = case["positions"][:1] if how != "3-D" else case["positions"]
    expect_value_error(
        lambda: kata(**dict(case, x=bad, positions=positions)),
        said("because.not-2d", shape=np.shape(bad), how=said(f"part.rank.{how}")),
    )


@prop(case=problems(), which=st.sampled_from(["n", "d"]))
def test_rejects_an_empty_x(kata, case, which):
    """x with no rows (n = 0) or no columns (d = 0) raises ValueError"""
    n, d = case["x"].shape
    x = np.zeros((0, d)) if which == "n" else np.zeros((n, 0))
    positions = case["positions"][:0] if which == "n" else case["positions"]
    expect_value_error(
        lambda: kata(**dict(case, x=x, positions=positions)), said("because.empty", which=which, shape=x.shape)
    )


@prop(case=problems())
def test_rejects_an_odd_width(kata, case):
    """x of odd width d raises ValueError (its columns cannot all be paired)"""
    rng = S.rng_for(int(case["positions"].sum()))
    x = np.hstack([case["x"], S.normal(rng, (case["x"].shape[0], 1))])
    expect_value_error(
        lambda: kata(**dict(case, x=x)), said("because.odd", d=x.shape[1])
    )


@prop(case=problems(), value=S.non_finite_values(), seed=S.SEEDS)
def test_rejects_nan_or_inf_in_x(kata, case, value, seed):
    """NaN or inf anywhere in x raises ValueError"""
    x, index = case["x"].copy(), tuple(int(S.rng_for(seed).integers(0, s)) for s in case["x"].shape)
    x[index] = value
    expect_value_error(lambda: kata(**dict(case, x=x)), said("because.non-finite", index=index, value=value))


@st.composite
def positions_of_wrong_shape(draw):
    """positions of shape (n+1,), (n-1,) when n >= 2, (1, n) or (n, 1): never (n,)."""
    case = draw(problems())
    p = case["positions"]
    shapes = {
        "one too many": np.append(p, 3),
        "(1, n)": p[None].copy(),
        "(n, 1)": p[:, None].copy(),
        # a 0-d array or a NumPy scalar: np.atleast_1d turns it into (1,) and it broadcasts over
        # every row (a blind hostile round, stop 57)
        "()": np.asarray(p[0]),
        "np.int64": np.int64(p[0]),
    }
    if p.size >= 2:
        shapes["one too few"] = p[:-1].copy()
    name = draw(st.sampled_from(sorted(shapes)))
    return case, name, shapes[name]


#: The words among positions_of_wrong_shape's names, in each language.
_SHAPE_NAMES = {"one too many": said("part.one-too-many"), "one too few": said("part.one-too-few")}


@prop(bad=positions_of_wrong_shape())
@example(bad=(PROBE(), "()", np.asarray(3)))
def test_rejects_positions_not_of_shape_n(kata, bad):
    """positions whose shape is not exactly (n,) raises ValueError (no broadcasting)"""
    case, name, positions = bad
    expect_value_error(
        lambda: kata(**dict(case, positions=positions)),
        said("because.positions-shape", shape=positions.shape, name=_SHAPE_NAMES.get(name, name),
             n=case["x"].shape[0]),
    )


@prop(case=problems(), kind=st.sampled_from(["float64", "float32", "bool", "float list"]))
@example(case={**_SMALL, "positions": np.array([1, 0, 1]), "base": 10.0, "interleaved": False}, kind="bool")
def test_rejects_positions_that_are_not_integers(kata, case, kind):
    """positions of a float dtype (even 2.0), floats in a list, or bools raise ValueError"""
    p = case["positions"]
    bad = {
        "float64": p.astype(np.float64),
        "float32": p.astype(np.float32),
        "bool": (p % 2).astype(bool),
        "float list": [float(v) for v in p],
    }[kind]
    expect_value_error(
        lambda: kata(**dict(case, positions=bad)),
        said("because.not-integers", kind=said("part.float-list") if kind == "float list" else kind,
             shown=show(np.asarray(bad))),
    )


@prop(case=problems(), seed=S.SEEDS)
def test_rejects_a_negative_position(kata, case, seed):
    """A negative position raises ValueError"""
    p = case["positions"].copy()
    i = int(S.rng_for(seed).integers(0, p.size))
    p[i] = -1 - p[i]
    expect_value_error(lambda: kata(**dict(case, positions=p)), said("because.negative", i=i, value=p[i]))


# and the string "10000": float(base) takes it (a blind hostile round, stop 57)
@prop(case=problems(), base=st.sampled_from([0.0, -10000.0, -2.0, np.inf, np.nan, -np.inf, "10000"]))
@example(case=PROBE(), base="10000")
def test_rejects_a_base_that_is_not_a_finite_positive_number(kata, case, base):
    """base of 0, below 0, inf or NaN, or not a number (the string "10000") raises ValueError"""
    expect_value_error(lambda: kata(**dict(case, base=base)), said("because.base", base=base))
