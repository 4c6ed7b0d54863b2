"""The judge for katas/attention_backward.py: attention_backward(q, k, v, d_out, mask=None).

Shapes: q (n, d_k), k (m, d_k), v (m, d_v), d_out (n, d_v), mask (n, m) bool, True = may
attend; the result is (dq, dk, dv) of the shapes of q, k and v. Most draws make n, m, d_k and
d_v pairwise different (so a transposed product or a scale by the wrong width shows); about a
quarter use the coinciding sizes real code meets (n == m, d_k == d_v), where a branch on shapes
or a transpose that happens to fit would hide.

Tolerances. A gradient that is 0 in exact arithmetic comes out around 1e-17 from a correct
formula, so exact zeros are demanded only where the contract promises them (a key every query
blocks). Elsewhere the absolute tolerance scales with the size of what the gradient is made of
(|d_out|·|v| times |q| or |k|), not only with the answer: large scores make the answer tiny
while the rounding stays the size of its parts.

Every bad input below breaks exactly one rule of the contract. Left open and never tested: an
overflow that only a blocked score or an exactly-zero gradient would see, and message wording.
"""

import numpy as np

from dojo.worker import wire
from dojo.text.messages import is_message, message
from hypothesis import example, strategies as st

from tests import oracle
from tests import largest as L
from tests import strategies as S
from tests.contract import QKV, Contract
from tests.judge import (
    KataMismatch,
    check_array,
    check_close,
    check_leaves_inputs_alone,
    check_that,
    expect_value_error,
    prop,
    show,
)

FUNCTION = "attention_backward"
GRADS = ("dq", "dk", "dv")


def said(key: str, **params) -> dict:
    """A sentence of this judge, ``judge.attention_backward.<key>`` (dojo/catalogue/katas/attention_backward/<lang>/
    judge.toml), its values as strings (a message stays a message)."""
    return message(f"judge.attention_backward.{key}", **{k: v if is_message(v) else str(v) for k, v in params.items()})


#: The words in the names of bad forms ("(1, m), broadcastable"), in each language.
_LABELS = {"broadcastable": "part.broadcastable", "transposed": "part.transposed"}


def _form(name: str):
    """``"(1, d_v), broadcastable"`` as a message (a name without such a word stays as it is)."""
    expr, _, label = name.rpartition(", ")
    return said("part.form", expr=expr, label=said(_LABELS[label])) if label in _LABELS else name


def PROBE():
    return {
        "q": np.array([[1.0, 0.0]]),
        "k": np.array([[1.0, 0.0], [0.0, 1.0]]),
        "v": np.array([[1.0], [2.0]]),
        "d_out": np.array([[1.0]]),
        "mask": None,
    }


#: The arrays of the contract: q (n, d_k), k (m, d_k), v (m, d_v), d_out (n, d_v).
CONTRACT = Contract({**QKV, "d_out": ("n", "d_v")})


# -- Oracle (torch, float64) ------------------------------------------------------------------


@oracle.memoised
def torch_gradients(q, k, v, d_out, mask):
    """(dq, dk, dv) by torch autograd through F.scaled_dot_product_attention, float64."""
    t = oracle.torch()
    q, k, v = (oracle.tensor(a).requires_grad_(True) for a in (q, k, v))
    allowed = None if mask is None else t.from_numpy(np.asarray(mask, dtype=bool))
    out = t.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=allowed)
    out.backward(oracle.tensor(d_out))
    return q.grad.numpy(), k.grad.numpy(), v.grad.numpy()


# -- A second oracle that shares nothing with torch: central finite differences -----------------


def loss(q, k, v, d_out, allowed) -> float:
    """L = sum(out * d_out), the forward pass in plain NumPy (masked softmax, then P v)."""
    s = np.where(allowed, q @ k.T / np.sqrt(q.shape[1]), -np.inf)
    p = np.exp(s - s.max(axis=1, keepdims=True))
    return float(np.sum((p / p.sum(axis=1, keepdims=True)) @ v * d_out))


def finite_differences(case, h: float = 1e-5):
    """(dq, dk, dv) by central differences of ``loss``, one entry at a time."""
    arrays = {name: case[name].copy() for name in ("q", "k", "v")}
    allowed = allowed_of(case)
    grads = []
    for name in ("q", "k", "v"):
        a, g = arrays[name], np.zeros_like(arrays[name])
        for index in np.ndindex(a.shape):
            keep = a[index]
            a[index] = keep + h
            up = loss(arrays["q"], arrays["k"], arrays["v"], case["d_out"], allowed)
            a[index] = keep - h
            down = loss(arrays["q"], arrays["k"], arrays["v"], case["d_out"], allowed)
            a[index] = keep
            g[index] = (up - down) / (2 * h)
        grads.append(g)
    return grads


# -- Strategies --------------------------------------------------------------------------------

DISTINCT = S.distinct_dims(4)  # n, m, d_k, d_v
SAME = st.tuples(S.dims(1, 5), S.dims(1, 5))
SHAPE_KINDS = st.sampled_from(["distinct"] * 3 + ["n == m, d_k == d_v"])
KINDS = st.sampled_from(["ordinary", "ordinary", "large"])
DENSITIES = st.sampled_from([0.3, 0.6, 1.0])
BOOLS = st.booleans()


def draw_problem(draw, kind=None, masked=None, min_keys=1, max_side=None):
    """Valid inputs {q, k, v, d_out, mask} and the generator that made them.

    ``kind``: "ordinary" (entries of size 0.3 to 10), "large" (q and k ~100: scores ~1e4) or
    "far below" (masked, every score from about -1e9 down to the edge of overflow: S.scores_far_below).
    """
    if draw(SHAPE_KINDS) == "distinct":
        n, m, d_k, d_v = draw(DISTINCT)
    else:
        n, d = draw(SAME)
        m, d_k, d_v = n, d, d
    if max_side is not None:  # finite differences cost a forward pass per input entry
        n, m, d_k, d_v = (min(s, max_side) for s in (n, m, d_k, d_v))
    m = max(m, min_keys)
    kind = kind or draw(KINDS)
    if kind == "far below":  # blocked keys are what such scores test
        masked = True
    masked = draw(BOOLS) if masked is None else masked
    q_scale, k_scale = (100.0, 100.0) if kind == "large" else (draw(S.SCALES), draw(S.SCALES))
    v_scale, d_scale = draw(S.SCALES), draw(S.SCALES)
    density = draw(DENSITIES) if masked else None
    rng = S.rng_for(draw(S.SEEDS))
    case = {
        "q": S.normal(rng, (n, d_k), q_scale),
        "k": S.normal(rng, (m, d_k), k_scale),
        "v": S.normal(rng, (m, d_v), v_scale),
        "d_out": S.normal(rng, (n, d_v), d_scale),
        "mask": S.valid_mask(rng, n, m, density) if masked else None,
    }
    if kind == "far below":
        case["q"], case["k"] = S.scores_far_below(rng, case["q"], case["k"], draw(S.FAR_DECADES))
    return case, rng


@S.valid_inputs()
@st.composite
def problems(draw, kind=None, masked=None, max_side=None):
    return draw_problem(draw, kind, masked, max_side=max_side)[0]


def allowed_of(case) -> np.ndarray:
    n, m = np.shape(case["q"])[0], np.shape(case["k"])[0]
    return np.ones((n, m), dtype=bool) if case.get("mask") is None else np.asarray(case["mask"])


def sizes(case) -> dict:
    (n, d_k), (m, d_v) = np.shape(case["q"]), np.shape(case["v"])
    masked = said("part.no-mask" if case.get("mask") is None else "part.mask")
    return said("part.sizes", n=n, m=m, d_k=d_k, d_v=d_v, masked=masked)


def run(kata, case):
    """Call the candidate on a valid input: a tuple (dq, dk, dv), float64, of the shapes of q, k, v, finite."""
    result = kata(**case)
    if not isinstance(result, tuple) or len(result) != 3:
        raise KataMismatch(message("result.not-tuple", function=FUNCTION, names="dq, dk, dv",
                                   type=wire.type_name(result)))
    grads = [
        check_array(g, name, np.shape(case[name[1:]])) for g, name in zip(result, GRADS)
    ]
    for g, name in zip(grads, GRADS):
        bad = np.argwhere(~np.isfinite(g))
        if bad.size:
            index = tuple(int(i) for i in bad[0])
            raise KataMismatch(message(
                "values.not-finite.explained", what=name, index=str(list(index)), value=str(g[index]),
                explanation_text=said("why.not-finite", name=name, shown=show(g))))
    return grads


def parts_scale(case) -> dict:
    """How large rounding errors in each gradient can be: the sizes of what it is made of."""
    big = lambda a: float(np.max(np.abs(a), initial=0.0))  # noqa: E731
    dp = big(case["d_out"]) * big(case["v"]) * case["v"].shape[1]  # bounds |dP|
    return {"dq": dp * big(case["k"]), "dk": dp * big(case["q"]), "dv": big(case["d_out"]) * case["q"].shape[0]}


def check_grads(got, want, case, what, why, rtol=1e-9, atol=1e-12):
    """Each gradient within rtol of ``want``, plus atol × the size of its parts."""
    scales = parts_scale(case)
    for g, w, name in zip(got, want, GRADS):
        tol = atol * max(1.0, scales[name]) / max(1.0, float(np.max(np.abs(w), initial=0.0)))
        check_close(g, w, said("what.grad", name=name, what=what), why, rtol=rtol, atol=tol)


# -- Properties of a correct answer -------------------------------------------------------------

_EXAMPLE = {
    "q": np.array([[1.0, 0.0, 2.0], [0.5, -1.0, 0.3]]),
    "k": np.array([[1.0, 1.0, 0.0], [0.0, 2.0, 1.0], [-1.0, 0.5, 0.5], [0.2, 0.1, -0.4]]),
    "v": np.array([[1.0, 2.0], [-1.0, 0.5], [0.3, 0.0], [2.0, -1.0]]),
    "d_out": np.array([[1.0, -0.5], [0.25, 2.0]]),
    "mask": None,
}


@prop(case=problems() | problems(kind="far below"))
@example(case=_EXAMPLE)
@example(case={**_EXAMPLE, "mask": np.array([[True, False, True, False], [False, True, True, False]])})
@example(case={  # every allowed score far below -1e9: a finite fill of -1e9 takes all the weight
    **_EXAMPLE,
    "q": np.array([[1e6, 0.0, 2.0], [1e6, -1.0, 0.3]]),
    "k": np.array([[-1e6, 1.0, 0.0], [-2e6, 2.0, 1.0], [-3e6, 0.5, 0.5], [-4e6, 0.1, -0.4]]),
    "mask": np.array([[False, True, True, False], [True, False, False, True]]),
})
# 100 keys: a loop over key blocks of 64 (FlashAttention-2's backward) that drops the last 36
# (stop 55's blind round: sizes here stopped at 7 then)
@example(case={"q": np.round(np.random.default_rng(51).standard_normal((3, 4)), 2), "k": np.round(np.random.default_rng(52).standard_normal((100, 4)), 2), "v": np.round(np.random.default_rng(53).standard_normal((100, 2)), 2), "d_out": np.round(np.random.default_rng(54).standard_normal((3, 2)), 2), "mask": None})
# two equal allowed scores of -1e20: weights 1/2 each. P rebuilt as exp(S - logsumexp(S)) gives 1
# each, since the log 2 is below float64's spacing out there (stop 57: a right file of ours)
@example(case={"q": np.array([[1e20]]), "k": np.array([[-1.0], [-1.0], [0.5]]), "v": np.array([[1.0], [3.0], [7.0]]),
               "d_out": np.array([[1.0]]), "mask": np.array([[True, True, False]])})
# an allowed score of exactly finfo.min (S.FINFO_MIN_FACTORS): a blocked key filled with finfo.min
# instead of -inf ties with it and takes half the weight (a blind hostile round, stop 58)
@example(case={"q": np.array([[S.FINFO_MIN_FACTORS[0]]]), "k": np.array([[S.FINFO_MIN_FACTORS[1]], [1.0]]),
               "v": np.array([[1.0], [5.0]]), "d_out": np.array([[1.0]]), "mask": np.array([[True, False]])})
def test_matches_torch_autograd(kata, case):
    """Matches torch autograd through scaled_dot_product_attention (float64), with and without a mask, for ordinary, large and far-below-zero scores (from about -1e9 down to the edge of overflow)"""
    want = torch_gradients(case["q"], case["k"], case["v"], case["d_out"], case["mask"])
    check_grads(run(kata, case), want, case, said("what.torch"), said("why.torch", sizes=sizes(case)))


#: Properties that draw no input: they build a fixed one themselves (tests/strategies.py).
INPUT_BUILT_INSIDE = ("test_the_largest_realistic_case_matches_torch",)


@prop(seed=st.just(0))
def test_the_largest_realistic_case_matches_torch(kata, seed):
    """The compare battery's largest realistic case (n = 512) matches torch, checked as test_matches_torch_autograd checks its cases"""
    L.check_with(test_matches_torch_autograd, kata, L.largest_case("attention_backward"))


@prop(case=problems(kind="ordinary", max_side=3))
def test_matches_central_finite_differences(kata, case):
    """Matches central finite differences of L = sum(out * d_out), an oracle that shares nothing with torch"""
    want = finite_differences(case)
    check_grads(
        run(kata, case), want, case, said("what.finite-differences"),
        said("why.finite-differences", sizes=sizes(case)),
        rtol=1e-5, atol=1e-6,
    )


@prop(case=problems())
def test_the_key_gradients_sum_to_zero(kata, case):
    """dk summed over the keys is 0: shifting every key by the same vector changes no softmax"""
    _, dk, _ = run(kata, case)
    total = dk.sum(axis=0)
    check_close(
        total, np.zeros_like(total), "dk.sum(axis=0)",
        said("why.key-gradients", sizes=sizes(case)),
        rtol=0.0, atol=1e-12 * dk.shape[0] * max(1.0, parts_scale(case)["dk"]),
    )


@prop(case=problems())
def test_the_value_gradients_add_up_to_the_output_gradients(kata, case):
    """dv summed over the keys equals d_out summed over the queries (each row of P sums to 1)"""
    _, _, dv = run(kata, case)
    check_close(
        dv.sum(axis=0), case["d_out"].sum(axis=0), "dv.sum(axis=0)",
        said("why.value-gradients", sizes=sizes(case)),
        atol=1e-12 * max(1.0, float(np.abs(case["d_out"]).sum())),
    )


BIG = st.sampled_from([1e6, 1e10, 1e150])



@S.valid_inputs(calls=S.calls_with_one_key_replaced)
@st.composite
def with_a_key_nobody_sees(draw):
    """A masked problem with one key ``key`` blocked for every query, and extreme new k[key], v[key].

    The new key is huge and, half the time, points along a query, so its blocked score is far
    above 1e9 (adding -1e9 instead of -inf then leaks); every score stays finite.
    """
    case, rng = draw_problem(draw, kind="ordinary", masked=True, min_keys=2)
    mask = case["mask"]
    n, m = mask.shape
    key = int(rng.integers(0, m))
    mask[:, key] = False
    for i in np.flatnonzero(~mask.any(axis=1)):
        mask[i, (key + 1 + rng.integers(0, m - 1)) % m] = True
    direction = case["q"][int(rng.integers(0, n))] if draw(BOOLS) else S.normal(rng, case["q"].shape[1])
    if not np.any(direction):
        direction = S.normal(rng, case["q"].shape[1]) + 0.5
    case["key"] = key
    case["new_k"] = np.round(direction, 2) * draw(BIG)
    case["new_v"] = S.normal(rng, case["v"].shape[1], 1e6)
    return case


@prop(case=with_a_key_nobody_sees())
def test_a_key_every_query_blocks_gets_exactly_zero_gradient_and_changes_nothing(kata, case):
    """A key every query blocks gets dk = dv = 0 exactly, and even huge values there leave every other gradient unchanged"""
    j = case["key"]
    base = {name: case[name] for name in ("q", "k", "v", "d_out", "mask")}
    changed = dict(base, k=case["k"].copy(), v=case["v"].copy())
    changed["k"][j], changed["v"][j] = case["new_k"], case["new_v"]
    dq1, dk1, dv1 = run(kata, base)
    dq2, dk2, dv2 = run(kata, changed)
    for name, g in (("dk", dk1), ("dv", dv1), ("dk", dk2), ("dv", dv2)):
        check_that(
            np.all(g[j] == 0.0),
            said("why.blocked-key-zero", name=name, j=j, shown=show(g[j]), sizes=sizes(case)),
        )
    others = np.arange(case["k"].shape[0]) != j
    why = said("why.blocked-key", j=j, new_k=show(case["new_k"]), new_v=show(case["new_v"]), sizes=sizes(case))
    check_grads((dq2, dk2[others], dv2[others]), (dq1, dk1[others], dv1[others]),
                dict(base, k=base["k"][others], v=base["v"][others]), said("what.blocked-key"), why)


COEFFICIENTS = st.sampled_from([(2.0, -1.0), (0.5, 3.0), (-1.5, 0.25)])


@prop(case=problems(), coefficients=COEFFICIENTS, seed=S.SEEDS)
def test_the_gradients_are_linear_in_d_out(kata, case, coefficients, seed):
    """The gradients for a d_out + b e are a times those for d_out plus b times those for e"""
    a, b = coefficients
    e = S.normal(S.rng_for(seed), case["d_out"].shape, 2.0)
    g1 = run(kata, case)
    g2 = run(kata, dict(case, d_out=e))
    mixed = run(kata, dict(case, d_out=a * case["d_out"] + b * e))
    want = [a * x + b * y for x, y in zip(g1, g2)]
    bigger = dict(case, d_out=np.abs(case["d_out"]) * abs(a) + np.abs(e) * abs(b))
    check_grads(
        mixed, want, bigger, said("what.mixed", a=f"{a:g}", b=f"{b:g}"),
        said("why.linear", sizes=sizes(case)),
    )


FORMS = st.sampled_from(["float32", "int", "list"])


@prop(case=problems(kind="ordinary"), form=FORMS, name=st.sampled_from(["q", "k", "v", "d_out"]))
def test_accepts_array_likes_and_returns_float64(kata, case, form, name):
    """Accepts lists, integer and float32 arrays (any memory layout) for q, k, v and d_out, all four int8 or uint8 too; computes and returns float64"""
    given, value = S.as_form(case[name], form)
    values = dict(case, **{name: value})
    got = run(kata, dict(case, **{name: given}))
    want = torch_gradients(values["q"], values["k"], values["v"], values["d_out"], values["mask"])
    check_grads(got, want, values, said("what.form", name=name, form=form), said("why.convert"))
    # every array in int8, then in uint8 (scaled to fill the dtype): q kᵀ of two int8 arrays
    # wraps unless converted (a blind hostile round, stop 56: one array at a time never shows it).
    # Compared with your own answer for the float64 values: scores of 1e4 and more make the
    # gradients' rounding too large to hold against torch's at this tolerance.
    for narrow in ("int8", "uint8"):
        given, values = {}, dict(case)
        for key in ("q", "k", "v", "d_out"):
            given[key], values[key] = S.as_form(case[key], narrow)
        check_grads(run(kata, dict(case, **given)), run(kata, values), values,
                    said("what.all-forms", form=narrow), said("why.convert"))


@prop(case=problems())
def test_does_not_modify_its_inputs(kata, case):
    """q, k, v, d_out and mask are left exactly as they were"""
    check_leaves_inputs_alone(lambda: run(kata, case), case, FUNCTION)


# -- Contract violations -> ValueError ----------------------------------------------------------
# Every bad input breaks exactly one rule, so whichever check runs first, ValueError is right.

SHAPE_BREAKS = st.sampled_from(
    ["q 1-D", "k 3-D", "v 0-d", "n = 0", "m = 0", "d_k = 0", "d_v = 0", "k wider", "v rows"]
)


@prop(case=problems(kind="ordinary", masked=False), how=SHAPE_BREAKS)
def test_rejects_what_the_masked_kata_rejects_about_shapes(kata, case, how):
    """q, k or v not 2-D, a zero dimension, q and k of different widths, or k and v of different lengths raise ValueError"""
    q, k, v, d_out = (case[a] for a in ("q", "k", "v", "d_out"))
    (n, d_k), (m, d_v) = q.shape, v.shape
    other = lambda s: s + 1 if s < 7 else s - 1  # noqa: E731
    bad = {
        "q 1-D": dict(q=q[0].copy(), d_out=d_out[:1]),
        "k 3-D": dict(k=k[None].copy()),
        "v 0-d": dict(v=np.float64(v[0, 0])),
        "n = 0": dict(q=np.zeros((0, d_k)), d_out=np.zeros((0, d_v))),
        "m = 0": dict(k=np.zeros((0, d_k)), v=np.zeros((0, d_v))),
        "d_k = 0": dict(q=np.zeros((n, 0)), k=np.zeros((m, 0))),
        "d_v = 0": dict(v=np.zeros((m, 0)), d_out=np.zeros((n, 0))),
        "k wider": dict(k=np.hstack([k, k[:, :1] + 1.0])),
        "v rows": dict(v=np.resize(v, (other(m), d_v))),
    }[how]
    call = dict(case, **bad)
    shapes = ", ".join(f"{a} {np.shape(call[a])}" for a in ("q", "k", "v", "d_out"))
    expect_value_error(lambda: kata(**call), said("because.shapes", how=said(f"part.break.{how}"), shapes=shapes))


@st.composite
def wrongly_shaped_d_out(draw):
    """d_out of a shape other than (n, d_v), most of them shapes that broadcast against (n, d_v)."""
    case = draw(problems(kind="ordinary"))
    d = case["d_out"]
    n, d_v = d.shape
    shapes = {
        "(1, d_v), broadcastable": d[:1].copy(),
        "(d_v,), broadcastable": d[0].copy(),
        "(n, 1), broadcastable": d[:, :1].copy(),
        "(1, n, d_v)": d[None].copy(),
        "(n + 1, d_v)": np.vstack([d, d[:1]]),
        "(n, d_v + 1)": np.hstack([d, d[:, :1]]),
        "(d_v, n), transposed": d.T.copy(),
    }
    options = sorted(name for name, a in shapes.items() if a.shape != (n, d_v))
    name = options[draw(st.integers(0, len(options) - 1))]
    return case, name, shapes[name]


@prop(bad=wrongly_shaped_d_out())
def test_rejects_d_out_not_of_shape_n_by_d_v(kata, bad):
    """d_out whose shape is not exactly (n, d_v) raises ValueError, even if it would broadcast"""
    case, name, d_out = bad
    n, d_v = case["d_out"].shape
    expect_value_error(
        lambda: kata(**dict(case, d_out=d_out)),
        said("because.d-out", shape=d_out.shape, name=_form(name), n=n, d_v=d_v),
    )


@prop(case=problems(kind="ordinary"), name=st.sampled_from(["q", "k", "v", "d_out"]),
      value=S.non_finite_values(), seed=S.SEEDS)
def test_rejects_nan_or_inf_in_any_input(kata, case, name, value, seed):
    """NaN or inf anywhere in q, k, v or d_out raises ValueError"""
    a = case[name].copy()
    index = tuple(int(S.rng_for(seed).integers(0, s)) for s in a.shape)
    a[index] = value
    expect_value_error(lambda: kata(**dict(case, **{name: a})), said("because.non-finite", name=name, index=index, value=value))


@prop(case=problems(kind="ordinary", masked=True), seed=S.SEEDS)
def test_rejects_a_bad_mask(kata, case, seed):
    """A mask not of dtype bool, not of shape (n, m) (even if it would broadcast), or with a query that may see no key raises ValueError"""
    mask = case["mask"]
    n, m = mask.shape
    rng = S.rng_for(seed)
    bad = {
        "0/1 integers": mask.astype(np.int64),
        "floats": mask.astype(np.float64),
        "(1, m), broadcastable": np.ones((1, m), dtype=bool),
        "(m,), broadcastable": np.ones(m, dtype=bool),
        "(m, n), transposed": S.valid_mask(rng, m, n, 0.5),
        "(n, m + 1)": np.hstack([mask, mask[:, :1]]),
        "a query row that is all False": _with_empty_row(mask, int(rng.integers(0, n))),
    }
    for how, b in bad.items():
        if b.dtype == np.bool_ and b.shape == (n, m) and b.any(axis=1).all():
            continue  # n = 1 or n = m: this form is a valid mask here
        expect_value_error(
            lambda: kata(**dict(case, mask=b)),
            said("because.mask", how=_MASK_WORDS[how] if how in _MASK_WORDS else _form(how), dtype=b.dtype,
                 shape=b.shape, n=n, m=m),
        )


#: The bad masks' names that are words, in each language.
_MASK_WORDS = {"0/1 integers": said("part.ints"), "floats": said("part.floats"),
               "a query row that is all False": said("part.empty-row")}


def _with_empty_row(mask, row):
    mask = mask.copy()
    mask[row] = False
    return mask


@CONTRACT.rejects_an_overflowing_score(
    lambda draw: draw_problem(draw, kind="ordinary"),
    because=lambda i, j, **_: said("because.overflow", i=i, j=j),
)
def test_rejects_an_allowed_score_that_overflows(kata, bad):
    """An allowed score q[i]·k[j] / sqrt(d_k) that overflows to inf raises ValueError"""


@st.composite
def with_an_overflowing_gradient(draw):
    """Finite inputs and scores, soft attention (m >= 2, no mask), but d_out and v ~1e200, so
    dP = d_out vᵀ and with it dS, dq and dk are about 1e400: not representable."""
    case, rng = draw_problem(draw, kind="ordinary", masked=False, min_keys=2)
    case["q"], case["k"] = case["q"] * 0.1, case["k"] * 0.1  # soft weights: dS is not 0
    case["v"] = np.where(case["v"] == 0, 1.0, np.sign(case["v"])) * 1e200
    case["d_out"] = np.ones_like(case["d_out"]) * 1e200
    case["v"][0] = -case["v"][0]  # the keys' values differ, so dP - rowsum(dP * P) is ~1e400
    if draw(st.integers(0, 2)) == 2:
        # dv alone: one key (every weight 1, so dS = 0: dq = dk = 0) and d_out = 1e308 in every
        # row of at least two queries, so dv = Pᵀ d_out = n · 1e308 overflows while dP stays
        # finite. An answer that checks dq and dk only (dv "is an average": P's rows sum to 1,
        # its columns need not) returns inf (a blind hostile round, stop 54).
        q = case["q"] if len(case["q"]) >= 2 else np.vstack([case["q"], case["q"] * 0.5])
        case = {"q": q, "k": case["k"][:1], "v": np.full((1, case["v"].shape[1]), 1e-3),
                "d_out": np.full((len(q), case["v"].shape[1]), 1e308), "mask": None}
    return case


@prop(case=with_an_overflowing_gradient())
# dk alone overflows (q ~1e308 over two keys ~1e-308 with opposite values): dq, dv and the scores
# stay finite, and an answer that checks dq and dv only returns inf (stop 58's blind round)
@example(case={"q": np.array([[1e308], [1e308]]), "k": np.array([[1e-308], [-1e-308]]), "v": np.array([[1.0], [-1.0]]),
               "d_out": np.array([[10.0], [10.0]]), "mask": None})
def test_rejects_a_gradient_that_overflows(kata, case):
    """Finite inputs whose gradients overflow (d_out and v ~1e200, so dP ~1e400; or d_out ~1e308 over one key, so dv alone) raise ValueError instead of returning inf or NaN"""
    expect_value_error(
        lambda: kata(**case),
        said("because.gradient-overflow-dv" if len(case["k"]) == 1 else "because.gradient-overflow"),
    )
