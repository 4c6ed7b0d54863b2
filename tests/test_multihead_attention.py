"""The judge for katas/multihead_attention.py: multihead_attention(x, w_q, w_k, w_v, w_o, num_heads, causal).

Every case is the exact dict of keyword arguments the candidate's function is called with, so
a shrunk failing example reads as the call that failed. Shapes: x (n, d_model), w_q and w_k
(d_model, num_heads * d_k), w_v (d_model, num_heads * d_v), w_o (num_heads * d_v, d_out). Sizes
come from tests/sizes.py: mostly 1 to 6, sometimes 8 to 128, at most three of them past 6 and
two of them 64 or more (fewer heads past a budget of multiply-adds). Except where a property
needs otherwise, num_heads, d_k and d_v all differ and d_model != d_k: a scale by the wrong
width, a V split by d_k, or a head axis confused with another axis changes the answer.

Order: the comparisons with torch (ordinary and large scores), then properties that pin a bug
down (one head, reordered heads, causality, row sums, array-likes), then the contract's errors,
each reached from generated bad calls that break exactly one rule. Left open and never tested:
a future (blocked) score that overflows, and the wording of messages.
"""


import numpy as np
from hypothesis import assume, example, strategies as st

from dojo.text.messages import message
from tests import oracle
from tests import largest as L
from tests import strategies as S
from tests.contract import Contract, fresh, rejects_each_call
from tests.judge import KataMismatch, check_close, check_pair, check_that, expect_value_error, prop

INPUTS = ("x", "w_q", "w_k", "w_v", "w_o")
#: The judge's messages: dojo/catalogue/katas/multihead_attention/<lang>/judge.toml.
M = "judge.multihead_attention"


def PROBE():
    return dict(
        x=np.array([[1.0, 0.0, -1.0], [0.5, 2.0, 0.0]]),
        w_q=np.eye(3, 4),
        w_k=np.eye(3, 4)[::-1],
        w_v=np.ones((3, 2)),
        w_o=np.ones((2, 3)),
        num_heads=2,
        causal=False,
    )


#: The arrays of the contract, with the named size on each axis.
CONTRACT = Contract({
    "x": ("n", "d_model"), "w_q": ("d_model", "num_heads * d_k"), "w_k": ("d_model", "num_heads * d_k"),
    "w_v": ("d_model", "num_heads * d_v"), "w_o": ("num_heads * d_v", "d_out"),
})


# -- Strategies ------------------------------------------------------------------------------


# Strategies are built once, at import: Hypothesis validates a strategy object the first time
# it is drawn from. Every draw costs time (the self-check runs each property against ~30
# implementations), so a case's sizes, x scale and causal flag come from one index into a
# table of sizes (below) and its arrays from one seed.
BOOLS = st.booleans()
PROJECTIONS = st.sampled_from(["w_q", "w_k", "w_v"])
SIZE_NAMES = st.sampled_from(["n", "d_model", "d_k", "d_v", "d_out"])
_INTS = {}


def ints(lo: int, hi: int):
    """``st.integers(lo, hi)``, built once per range."""
    if (lo, hi) not in _INTS:
        _INTS[lo, hi] = st.integers(lo, hi)
    return _INTS[lo, hi]


def _other_than(draw, lo: int, hi: int, avoid: int) -> int:
    """A drawn int in [lo, hi] other than ``avoid`` (no rejection sampling)."""
    if not lo <= avoid <= hi:
        return draw(ints(lo, hi))
    value = draw(ints(lo, hi - 1))
    return value + 1 if value >= avoid else value


#: n, d_model, num_heads, d_k, d_v, d_out: mostly 1 to 6, sometimes 8 to 128 (tests/sizes.py),
#: at most three of them past 6 and two of them 64 or more.
_DIMS = S.size_tuple(6, 1, 6, distinct=False, max_big=3)
#: The most work one example's sizes may ask for (multiply-adds of one call); past it, fewer heads.
BUDGET = 8_000_000


def _apart(value: int, *others: int) -> int:
    """``value``, or the next size above it that is none of ``others``."""
    while value in others:
        value += 1
    return value


@st.composite
def mha_sizes(draw, kind: str):
    """Sizes {n, d_model, h (num_heads), d_k, d_v, d_out} of a valid call, by construction:

    - "any": num_heads, d_k and d_v pairwise different (d_k != d_v catches a V split by d_k; a
      head count unlike the head widths catches axes mixed up in a reshape), d_model != d_k
      (catches a scale by sqrt(d_model));
    - "multi-head" (the same, at least two heads), "sequence" (the same, at least two positions);
    - "one head": d_k != d_v, d_model != d_k;
    - "torch module": what torch's nn.MultiheadAttention supports, d_model = num_heads * d_k =
      num_heads * d_v <= 128, not 1 x 1.
    """
    n, d_model, h, d_k, d_v, d_out = draw(_DIMS)
    if kind == "torch module":
        if h * d_k > 128:  # many heads or wide ones, not both: the smaller becomes 1
            h, d_k = (h, 1) if h >= d_k else (1, d_k)
        if (h, d_k) == (1, 1):
            d_k = 2
        return dict(n=n, d_model=h * d_k, h=h, d_k=d_k, d_v=d_k, d_out=d_out)
    h = {"one head": 1, "multi-head": max(h, 2)}.get(kind, h)
    n = max(n, 2) if kind == "sequence" else n
    per_head = n * (n * (d_k + d_v) + d_model * (2 * d_k + d_v) + d_v * d_out)
    fewest = 2 if kind == "multi-head" else 1
    while kind != "one head" and h > fewest and h * per_head > BUDGET:
        h = max(fewest, h // 2)  # (3 // 2 would leave a multi-head case one head)
    d_v = _apart(d_v, d_k)
    if kind != "one head":
        h = _apart(h, d_k, d_v)
    d_model = _apart(d_model, d_k)
    return dict(n=n, d_model=d_model, h=h, d_k=d_k, d_v=d_v, d_out=d_out)


#: Any valid sizes (see ``mha_sizes``).
SIZES = mha_sizes("any")
#: At least two heads.
MULTI_HEAD_SIZES = mha_sizes("multi-head")
#: At least two positions.
SEQUENCE_SIZES = mha_sizes("sequence")
#: One head, d_k != d_v, d_model != d_k.
ONE_HEAD_SIZES = mha_sizes("one head")
#: What torch's nn.MultiheadAttention supports: d_model = num_heads * d_k = num_heads * d_v.
TORCH_MODULE_SIZES = mha_sizes("torch module")
#: Typical magnitudes of x's entries: 0.3 gives soft attention, 3 peaky attention.
X_SCALES = st.sampled_from((1.0, 0.3, 3.0))


def uniform_index(draw, m: int) -> int:
    """A uniformly drawn int in range(m), m <= 2**16, that shrinks towards 0.

    Hypothesis draws an int from a range of up to 256 values uniformly, but from a larger range
    with a strong bias towards small values (st.integers(0, 40000) gives 0-255 most of the
    time), which would make the first rows of a table, the tiniest sizes, most of the examples.
    So: two draws below 256, scaled to range(m).
    """
    if m <= 256:
        return draw(ints(0, m - 1))
    assert m <= 2**16
    return (draw(ints(0, 255)) * 256 + draw(ints(0, 255))) * m >> 16


def _spec(draw, table, causal=None):
    """(sizes, x scale, causal, seed) of a valid call: sizes from the strategy ``table``."""
    z = dict(draw(table))
    x_scale = draw(X_SCALES)
    if causal is None:
        causal = draw(S.FLAGS)
    return z, x_scale, causal, draw(S.SEEDS)


def build(z, x_scale, causal, seed) -> dict:
    """The keyword arguments of a call with sizes ``z``: N(0, 1) projections rounded to two
    decimals, x with typical magnitude ``x_scale``, all from one seed (no repeated fills)."""
    n, d_model, h, d_k, d_v, d_out = (z[k] for k in ("n", "d_model", "h", "d_k", "d_v", "d_out"))
    rng = S.rng_for(seed)
    return dict(
        x=S.normal(rng, (n, d_model), x_scale),
        w_q=S.normal(rng, (d_model, h * d_k)),
        w_k=S.normal(rng, (d_model, h * d_k)),
        w_v=S.normal(rng, (d_model, h * d_v)),
        w_o=S.normal(rng, (h * d_v, d_out)),
        num_heads=h,
        causal=causal,
    )


@S.valid_inputs()
@st.composite
def problems(draw, table=None, causal=None):
    """The keyword arguments of a valid call: x, w_q, w_k, w_v, w_o, num_heads, causal.

    Sizes come from ``table`` (default: ``SIZES``, where num_heads, d_k and d_v differ);
    ``causal`` is drawn unless given.
    """
    return build(*_spec(draw, SIZES if table is None else table, causal))


def sizes_of(case) -> dict:
    """The sizes {n, d_model, h, d_k, d_v, d_out} of a valid case."""
    n, d_model = np.shape(case["x"])
    h = case["num_heads"]
    return dict(
        n=n, d_model=d_model, h=h, d_k=np.shape(case["w_q"])[1] // h,
        d_v=np.shape(case["w_v"])[1] // h, d_out=np.shape(case["w_o"])[1],
    )


PROBLEMS = problems()
MULTI_HEAD_PROBLEMS = problems(MULTI_HEAD_SIZES)
ONE_HEAD_PROBLEMS = problems(ONE_HEAD_SIZES)


@S.valid_inputs()
@st.composite
def large_score_problems(draw):
    """A valid call whose largest |score| is between about 1e3 and 1e4.

    w_q is multiplied by the power of ten that brings the largest |score| closest to 3e3
    (scores are linear in w_q), so entries stay readable.
    exp() of such scores overflows unless the softmax is shifted by its row maximum.
    """
    case = draw(PROBLEMS)
    h = case["num_heads"]
    n = case["x"].shape[0]
    q = (case["x"] @ case["w_q"]).reshape(n, h, -1)
    k = (case["x"] @ case["w_k"]).reshape(n, h, -1)
    biggest = np.abs(np.einsum("nhd,mhd->hnm", q, k)).max() / np.sqrt(q.shape[-1])
    assume(biggest > 0)
    case["w_q"] = case["w_q"] * 10.0 ** np.round(np.log10(3e3 / biggest))
    return case


CAUSAL_PROBLEMS = problems(causal=True)


@S.valid_inputs()
@st.composite
def far_below_problems(draw):
    """A valid causal call whose scores all lie far below -1e9, in every head
    (S.projected_scores_far_below): a finite fill of -1e9 for the future keys takes all the weight."""
    case = draw(CAUSAL_PROBLEMS)
    rng = S.rng_for(draw(S.SEEDS))
    case["x"], case["w_q"], case["w_k"] = S.projected_scores_far_below(rng, case["x"], case["w_q"], case["w_k"], draw(S.FAR_DECADES))
    return case


def dims_of(case) -> dict:
    """The sizes of a (valid) case, for failure messages (a message)."""
    z = sizes_of(case)
    return message(f"{M}.why.dims", **{k: str(v) for k, v in z.items()}, causal=str(case["causal"]))


# -- Calling and comparing ---------------------------------------------------------------------


def run(kata, case):
    """Call the candidate with ``case`` and check the result is (out (n, d_out), weights (h, n, n)),
    both float64. (The ``kata`` fixture also fails the call if it writes into an input array.)"""
    result = kata(**fresh(case))
    n = np.shape(case["x"])[0]
    h = case["num_heads"]
    d_out = np.shape(case["w_o"])[1]
    try:
        return check_pair(result, "multihead_attention", (n, d_out), (h, n, n))
    except KataMismatch as e:
        if e.message["id"] != "result.shape":  # not a pair, or a dtype: check_pair's message says it all
            raise
        if e.message["params"]["what"] == "out":
            note = message(f"{M}.why.note-out")
        else:
            note = message(f"{M}.why.note-weights")
        raise KataMismatch(message("result.shape.explained", shape=e.message, note_text=note,
                                   dims_text=dims_of(case))) from None


#: What to check when the weights (or, with the weights right, out) differ: a message each.
WEIGHTS_HINT = f"{M}.why.weights-hint"
OUT_HINT = f"{M}.why.out-hint"


def compare(got, want, case, against: dict):
    """Weights first (they locate a bug in the split, scale, mask or softmax), then out.
    ``against``: where the expected values come from (a message)."""
    out, weights = got
    want_out, want_weights = want
    dims = dims_of(case)
    check_close(weights, want_weights, "weights",
                message(f"{M}.why.compare", hint=message(WEIGHTS_HINT), dims=dims, against=against))
    check_close(out, want_out, "out", message(f"{M}.why.compare", hint=message(OUT_HINT), dims=dims, against=against))


def torch_answer(case, **overrides):
    args = {**case, **overrides}
    return oracle.multihead_attention(
        *(args[k] for k in INPUTS), num_heads=args["num_heads"], causal=args["causal"]
    )


# -- What it computes -------------------------------------------------------------------------

_EXAMPLE = dict(  # n=3, d_model=4, num_heads=2, d_k=1, d_v=3, d_out=2
    x=np.array([[0.5, -1.0, 0.2, 1.5], [1.0, 0.3, -0.7, 0.0], [-0.4, 0.8, 1.1, -1.2]]),
    w_q=np.array([[1.0, 0.2], [-0.5, 1.0], [0.3, -0.8], [0.9, 0.4]]),
    w_k=np.array([[0.7, -1.0], [0.1, 0.6], [-1.2, 0.5], [0.4, 0.9]]),
    w_v=np.array(
        [
            [1.0, 0.0, 0.5, -0.3, 0.8, 0.1],
            [0.2, 1.0, -0.4, 0.6, 0.0, -0.9],
            [-0.7, 0.3, 1.0, 0.2, -0.5, 0.4],
            [0.0, -0.6, 0.1, 1.0, 0.3, 0.7],
        ]
    ),
    w_o=np.array([[1.0, 0.0], [0.0, 1.0], [0.5, -0.5], [-1.0, 0.3], [0.2, 0.8], [0.6, -0.4]]),
    num_heads=2,
)


@prop(case=PROBLEMS | far_below_problems())
@example(case={**_EXAMPLE, "causal": False})
@example(case={**_EXAMPLE, "causal": True})
@example(case={  # every score far below -1e9 (x[:, 0] huge, w_q row 0 = 1, w_k row 0 = -1)
    **_EXAMPLE, "causal": True,
    "x": np.array([[2e6, -1.0, 0.2, 1.5], [1e6, 0.3, -0.7, 0.0], [3e6, 0.8, 1.1, -1.2]]),
    "w_q": np.array([[1.0, 1.0], [-0.5, 1.0], [0.3, -0.8], [0.9, 0.4]]),
    "w_k": np.array([[-1.0, -1.0], [0.1, 0.6], [-1.2, 0.5], [0.4, 0.9]]),
})
# query 0's one allowed score is exactly finfo.min: a finfo.min fill of the future ties with it
# (query 1's scores are finfo.min and 0: no two allowed scores tie out there)
@example(case={"x": np.array([[1.0, 0.0], [1.0, 1.0]]), "w_q": np.array([[S.FINFO_MIN_FACTORS[0]], [0.0]]),
               "w_k": np.array([[S.FINFO_MIN_FACTORS[1]], [-S.FINFO_MIN_FACTORS[1]]]), "w_v": np.array([[1.0], [1.0]]),
               "w_o": np.array([[1.0]]), "num_heads": 1, "causal": True})
# 1030 tokens, causal: past nanoGPT's mask precomputed for block_size = 1024 (stop 55's blind round)
@example(case={"x": np.round(np.random.default_rng(59).standard_normal((1030, 4)), 2), "w_q": np.round(np.random.default_rng(60).standard_normal((4, 4)), 2), "w_k": np.round(np.random.default_rng(61).standard_normal((4, 4)), 2), "w_v": np.round(np.random.default_rng(62).standard_normal((4, 4)), 2), "w_o": np.round(np.random.default_rng(63).standard_normal((4, 4)), 2), "num_heads": 2, "causal": True})
# equal allowed scores far below (about -1.2e24, from x of 2**40): weights 1/3 each, where
# exp(s - logsumexp(s)) gives 1 each (the log 3 rounds away out there; stop 56)
@example(case={"x": np.array([[2.0**40, 0.0], [2.0**40, 0.0], [2.0**40, 1.0]]), "w_q": np.array([[1.0], [0.0]]), "w_k": np.array([[-1.0], [0.0]]), "w_v": np.array([[0.0], [1.0]]), "w_o": np.array([[1.0]]), "num_heads": 1, "causal": False})
def test_matches_torch_multihead_attention(kata, case):
    """Matches torch (scaled dot-product attention per head, heads concatenated in order, then w_o), causal or not, with d_k != d_v, scores far below zero (from about -1e9 down to the edge of overflow) included"""
    compare(run(kata, case), torch_answer(case), case, message(f"{M}.why.against-torch"))


#: Properties that draw no input: they build a fixed one themselves (tests/strategies.py).
INPUT_BUILT_INSIDE = ("test_the_largest_realistic_case_matches_torch",)


@prop(seed=st.just(0))
def test_the_largest_realistic_case_matches_torch(kata, seed):
    """The compare battery's largest realistic case (n = 256) matches torch, checked as test_matches_torch_multihead_attention checks its cases"""
    L.check_with(test_matches_torch_multihead_attention, kata, L.largest_case("multihead_attention"))


@prop(case=problems(TORCH_MODULE_SIZES))
def test_matches_torchs_own_nn_multihead_attention_code_path(kata, case):
    """Matches torch's own nn.MultiheadAttention code path when d_model = num_heads * d_k = num_heads * d_v"""
    want = oracle.torch_multihead_module(
        *(case[k] for k in INPUTS), num_heads=case["num_heads"], causal=case["causal"]
    )
    compare(
        run(kata, case),
        want,
        case,
        message(f"{M}.why.against-torch-module"),
    )


@prop(case=large_score_problems())
def test_large_scores_stay_finite_and_match_torch(kata, case):
    """Scores around 1e3-1e4 give finite answers that match torch (shift each softmax row by its max)"""
    got = run(kata, case)
    check_that(
        all(np.isfinite(a).all() for a in got),
        message(f"{M}.fail.large-not-finite", dims=dims_of(case)),
    )
    compare(got, torch_answer(case), case, message(f"{M}.why.against-torch"))


# -- Properties that pin a bug down --------------------------------------------------------


@prop(case=ONE_HEAD_PROBLEMS)
def test_one_head_is_plain_single_head_attention(kata, case):
    """With num_heads=1 it is single-head attention on Q = x w_q, K = x w_k, V = x w_v, then times w_o"""
    want = oracle.projected_attention(case["x"], case["w_q"], case["w_k"], case["w_v"], case["w_o"],
                                      causal=bool(case["causal"]))
    compare(
        run(kata, case),
        want,
        case,
        message(f"{M}.why.against-one-head"),
    )




def _head_columns(order, width):
    """Column indices of the heads in ``order``, each a block of ``width`` columns."""
    return np.concatenate([np.arange(g * width, (g + 1) * width) for g in order])


@S.valid_inputs(calls=lambda case: [case["call"]])
@st.composite
def reordered_heads(draw):
    """A valid call with at least two heads, and a new order of its heads (not the identity)."""
    case = draw(MULTI_HEAD_PROBLEMS)
    order = S.rng_for(draw(S.SEEDS)).permutation(case["num_heads"])
    if (order == np.arange(order.size)).all():  # never the original order (by construction)
        order[[0, 1]] = order[[1, 0]]
    return {"call": case, "new head order": [int(g) for g in order]}


@prop(case=reordered_heads())
def test_permuting_the_heads_permutes_the_weights_and_leaves_out_unchanged(kata, case):
    """Reordering the heads (w_q, w_k, w_v column blocks with the matching w_o row blocks) permutes weights and leaves out unchanged"""
    case, order = case["call"], case["new head order"]
    h = case["num_heads"]
    d_k = case["w_q"].shape[1] // h
    d_v = case["w_v"].shape[1] // h
    permuted = dict(
        case,
        w_q=case["w_q"][:, _head_columns(order, d_k)],
        w_k=case["w_k"][:, _head_columns(order, d_k)],
        w_v=case["w_v"][:, _head_columns(order, d_v)],
        w_o=case["w_o"][_head_columns(order, d_v), :],
    )
    out, weights = run(kata, case)
    out_p, weights_p = run(kata, permuted)
    why = message(f"{M}.why.heads-reordered", order=str(order), dims=dims_of(case))
    check_close(weights_p, weights[order], message(f"{M}.what.heads-reordered", name="weights"), why)
    check_close(out_p, out, message(f"{M}.what.heads-reordered", name="out"), why)


@S.valid_inputs(
    calls=lambda case: [case["call"], dict(case["call"], x=case["x with rows t+1: changed"])]
)
@st.composite
def later_tokens_changed(draw):
    """A valid causal call with n >= 2, a position t < n - 1, and x with rows t+1: redrawn."""
    case = draw(problems(SEQUENCE_SIZES, causal=True))
    x = case["x"]
    t = draw(ints(0, x.shape[0] - 2))
    changed = x.copy()
    changed[t + 1 :] = S.normal(S.rng_for(draw(S.SEEDS)), changed[t + 1 :].shape)
    return {"call": case, "t": t, "x with rows t+1: changed": changed}


def _check_zero_above_the_diagonal(weights, case):
    n = weights.shape[1]
    above = np.triu(np.ones((n, n), dtype=bool), 1)
    leaked = np.argwhere(weights[:, above] != 0)
    if leaked.size:
        head, k = (int(i) for i in leaked[0])
        i, j = (int(a) for a in np.argwhere(above)[k])
        raise KataMismatch(message(f"{M}.fail.future-not-zero", head=str(head), i=str(i), j=str(j),
                                   value=repr(weights[head, i, j]), dims=dims_of(case)))


@prop(case=later_tokens_changed())
def test_causal_attends_only_to_earlier_positions(kata, case):
    """Causal: weights above the diagonal are exactly 0, and changing the tokens after position t leaves out[:t+1] and weights[:, :t+1] unchanged"""
    case, t, changed = case["call"], case["t"], case["x with rows t+1: changed"]
    out, weights = run(kata, case)
    _check_zero_above_the_diagonal(weights, case)
    out_c, weights_c = run(kata, dict(case, x=changed))
    why = message(f"{M}.why.later-tokens", t=str(t), dims=dims_of(case))
    check_close(weights_c[:, : t + 1], weights[:, : t + 1], f"weights[:, :{t + 1}]", why)
    check_close(out_c[: t + 1], out[: t + 1], f"out[:{t + 1}]", why)


@prop(case=PROBLEMS)
def test_every_heads_weight_rows_sum_to_one(kata, case):
    """Every head's weights are in [0, 1] and each row (one query) sums to 1"""
    _, weights = run(kata, case)
    check_that(
        np.all((weights >= 0) & (weights <= 1)),
        message(f"{M}.fail.weights-in-range", min=repr(np.min(weights)), max=repr(np.max(weights)),
                dims=dims_of(case)),
    )
    h, n = weights.shape[:2]
    check_close(
        weights.sum(axis=-1),
        np.ones((h, n)),
        message(f"{M}.what.row-sums"),
        message(f"{M}.why.row-sums", dims=dims_of(case)),
    )


FORM_NAMES = S.FORM_NAMES


def _as_drawn_and_in_its_forms(case) -> list[dict]:
    """The calls of an array_likes case: the float64 call, and the call with each input in its form."""
    call = case["call"]
    return [call, dict(call, **{name: S.as_form(call[name], form)[0] for name, form in case["forms"].items()})]


@S.valid_inputs(calls=_as_drawn_and_in_its_forms)
@st.composite
def array_likes(draw):
    """A valid call and, for each of x, w_q, w_k, w_v, w_o, the form it is passed in
    (float64, float32, int or list), all five picked by one index (shrinks to all float64)."""
    case = draw(PROBLEMS)
    i = uniform_index(draw, len(FORM_NAMES) ** len(INPUTS))
    forms = [FORM_NAMES[(i // len(FORM_NAMES) ** j) % len(FORM_NAMES)] for j in range(len(INPUTS))]
    return {"call": case, "forms": dict(zip(INPUTS, forms))}


@prop(case=array_likes(), as_int=S.INT_TYPES)
def test_accepts_array_likes_returns_float64_and_leaves_inputs_alone(kata, case, as_int):
    """Accepts lists, integer and float32 arrays (any memory layout), and num_heads as a NumPy integer, with the same answer as for float64 arrays of those values; returns float64 out (n, d_out) and weights (num_heads, n, n); never writes into its inputs"""
    case, forms = case["call"], case["forms"]
    given, values = {"num_heads": as_int(case["num_heads"])}, {}
    for name, form in forms.items():
        given[name], values[name] = S.as_form(case[name], form)
    # The kata fixture fails any call that writes into an input array (float64 ones included).
    got = run(kata, dict(case, **given))
    # Compared with your own answer for the float64 values: whether that answer is right is
    # what the other properties judge; this one only asks that the form changes nothing.
    shown = message(f"{M}.why.forms", **forms)
    compare(got, run(kata, dict(case, **values)), dict(case, **values),
            message(f"{M}.why.against-own-float64", given=shown))


# -- Contract violations -> ValueError ---------------------------------------------------------
# Each generated bad call breaks exactly one rule, so any order of checks is fine.


def _call(kata, case):
    return lambda: kata(**fresh(case))


def bad_call(case, because: dict) -> tuple[dict, dict]:
    """A generated bad call and the one rule it breaks (shown with the failing input)."""
    return case, because


@st.composite
def num_heads_bool_or_float(draw):
    """A call that is valid except that num_heads is True (for one head) or a float like 2.0."""
    if draw(BOOLS):
    # NumPy's bool and float32 too: isinstance(h, (bool, float)) lets them through (stop 57)
        case = draw(ONE_HEAD_PROBLEMS)
        case["num_heads"] = draw(st.sampled_from([True, np.True_]))
    else:
        case = draw(PROBLEMS)
        case["num_heads"] = draw(st.sampled_from([float, np.float32]))(case["num_heads"])
    return case


@prop(case=num_heads_bool_or_float())
@example(case={**_EXAMPLE, "num_heads": 2.0, "causal": False})
@example(case={**_EXAMPLE, "num_heads": np.float32(2.0), "causal": True})
def test_rejects_a_bool_or_float_num_heads(kata, case):
    """num_heads that is a bool (True) or a float (2.0) raises ValueError, even though the shapes would fit"""
    h = case["num_heads"]
    expect_value_error(
        _call(kata, case),
        message(f"{M}.because.num-heads-bool" if isinstance(h, (bool, np.bool_)) else f"{M}.because.num-heads-type",
                value=repr(h), type=type(h).__name__),
    )


@st.composite
def num_heads_not_positive(draw):
    """A call whose num_heads is 0 or negative; the arrays are shaped for |num_heads| heads."""
    case = draw(PROBLEMS)
    case["num_heads"] = -case["num_heads"] if draw(BOOLS) else 0
    return case


@prop(case=num_heads_not_positive())
def test_rejects_zero_or_negative_num_heads(kata, case):
    """num_heads of 0 or below raises ValueError"""
    expect_value_error(_call(kata, case), message(f"{M}.because.num-heads-not-positive", value=str(case["num_heads"])))


@st.composite
def widths_not_divisible(draw):
    """A call valid except that w_q and w_k, or w_v, have a width not divisible by num_heads.

    When w_v's width is off, w_o has that many rows (what a caller would pass).
    """
    case = draw(MULTI_HEAD_PROBLEMS)
    z = sizes_of(case)
    h = z["h"]
    extra = draw(ints(1, h - 1))
    rng = S.rng_for(draw(S.SEEDS))
    if draw(BOOLS):
        d_model, width = z["d_model"], h * z["d_k"] + extra
        case["w_q"] = S.normal(rng, (d_model, width))
        case["w_k"] = S.normal(rng, (d_model, width))
        what = f"{M}.because.q-k-not-divisible"
    else:
        width = h * z["d_v"] + extra
        case["w_v"] = S.normal(rng, (z["d_model"], width))
        case["w_o"] = S.normal(rng, (width, z["d_out"]))
        what = f"{M}.because.v-not-divisible"
    return bad_call(case, message(what, width=str(width), h=str(h)))


@rejects_each_call(widths_not_divisible())
def test_rejects_widths_not_divisible_by_num_heads(kata, case):
    """A width of w_q/w_k or of w_v that num_heads does not divide raises ValueError (no silent truncation)"""


@st.composite
def q_and_k_widths_differ(draw):
    """A call valid except that w_k's width is num_heads * d_k' with d_k' != d_k."""
    case = draw(PROBLEMS)
    z = sizes_of(case)
    d_k2 = _other_than(draw, 1, 5, z["d_k"])
    case["w_k"] = S.normal(S.rng_for(draw(S.SEEDS)), (z["d_model"], z["h"] * d_k2))
    return bad_call(case, message(f"{M}.because.widths", q_width=str(case["w_q"].shape[1]),
                                  k_width=str(case["w_k"].shape[1])))


@rejects_each_call(q_and_k_widths_differ())
def test_rejects_w_q_and_w_k_of_different_widths(kata, case):
    """w_q and w_k of different widths raise ValueError"""


@st.composite
def a_projection_with_wrong_rows(draw):
    """A call valid except that one of w_q, w_k, w_v has a row count other than d_model."""
    case = draw(PROBLEMS)
    z = sizes_of(case)
    name = draw(PROJECTIONS)
    rows = _other_than(draw, 1, 9, z["d_model"])
    case[name] = S.normal(S.rng_for(draw(S.SEEDS)), (rows, case[name].shape[1]))
    return bad_call(case, message(f"{M}.because.rows", name=name, rows=str(rows), d_model=str(z["d_model"])))


@rejects_each_call(a_projection_with_wrong_rows())
def test_rejects_a_projection_whose_rows_differ_from_d_model(kata, case):
    """w_q, w_k or w_v whose row count is not d_model (x's width) raises ValueError"""


@st.composite
def w_o_rows_wrong(draw):
    """A call valid except that w_o's row count is not num_heads * d_v."""
    case = draw(PROBLEMS)
    z = sizes_of(case)
    product = z["h"] * z["d_v"]
    # Fewer rows or more, whatever the sizes: code that slices each head's block of w_o
    # raises by itself on too few, and only extra rows show that it never checks.
    fewer = product > 1 and draw(st.booleans())
    rows = draw(ints(1, product - 1)) if fewer else product + draw(ints(1, 4))
    case["w_o"] = S.normal(S.rng_for(draw(S.SEEDS)), (rows, z["d_out"]))
    return bad_call(case, message(f"{M}.because.w-o-rows", rows=str(rows), h=str(z["h"]), d_v=str(z["d_v"]),
                                  product=str(z["h"] * z["d_v"])))


@rejects_each_call(w_o_rows_wrong())
def test_rejects_w_o_whose_rows_are_not_num_heads_times_d_v(kata, case):
    """w_o whose row count is not num_heads * d_v raises ValueError"""


@rejects_each_call(CONTRACT.a_call_of_a_wrong_rank(PROBLEMS, forms={  # the first row, or a batch axis in front
    "1-D": lambda a: a[0], "3-D batch of 1": lambda a: a[None], "3-D batch of 2": lambda a: np.stack([a, a]),
}))
def test_rejects_an_input_that_is_not_2d(kata, case):
    """An input that is 1-D or 3-D raises ValueError"""


@st.composite
def a_zero_dimension(draw):
    """A call with consistent shapes in which one size (n, d_model, d_k, d_v or d_out) is 0."""
    z, x_scale, causal, seed = _spec(draw, SIZES)
    which = draw(SIZE_NAMES)
    z[which] = 0
    case = build(z, x_scale, causal, seed)
    shapes = ", ".join(f"{k} {np.shape(case[k])}" for k in INPUTS)
    return bad_call(case, message(f"{M}.because.zero-size", which=which, shapes=shapes))


@rejects_each_call(a_zero_dimension())
def test_rejects_a_zero_dimension(kata, case):
    """An input with a zero-length dimension (n, d_model, d_k, d_v or d_out = 0) raises ValueError"""


@rejects_each_call(CONTRACT.a_call_with_a_non_finite_entry(PROBLEMS, index_from_seed=False))  # Hypothesis draws the index
def test_rejects_nan_or_inf_in_any_input(kata, case):
    """NaN, inf or -inf anywhere in x, w_q, w_k, w_v or w_o raises ValueError"""


@st.composite
def an_overflowing_score(draw):
    """A call with finite inputs and projections in which a diagonal score overflows to +inf.

    Position p gets x[p, 0] = 1e156 and w_k's row 0 is set equal to w_q's row 0 (with a 1.0 in
    head g's first column), so Q[p] and K[p] are huge in the same direction: head g's score
    (p, p) is about 1e312 / sqrt(d_k) = +inf, while every entry of x w_q, x w_k stays below 1e157.
    The diagonal is allowed with or without causal, so this score takes part in the softmax.
    """
    case = draw(PROBLEMS)
    z = sizes_of(case)
    p = draw(ints(0, z["n"] - 1))
    g = draw(ints(0, z["h"] - 1))
    case["w_q"][0, g * z["d_k"]] = 1.0
    case["w_k"][0] = case["w_q"][0]
    case["x"][p, 0] = 1e156
    return bad_call(case, message(f"{M}.because.overflow", g=str(g), p=str(p)))


@rejects_each_call(an_overflowing_score())
def test_rejects_a_score_that_overflows_to_inf(kata, case):
    """A score that takes part in the softmax overflowing to +inf raises ValueError (instead of NaN)"""
