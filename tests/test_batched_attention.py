"""The judge for katas/batched_attention.py: batched_multihead_attention(x, in_proj_weight,
in_proj_bias, out_proj_weight, out_proj_bias, num_heads, key_padding_mask=None, causal=False).

Layout: torch's nn.MultiheadAttention, batch first. x (B, n, E); out (B, n, E); weights
(B, num_heads, n, n). key_padding_mask (B, n) with True = PADDING. Most draws make B, n,
num_heads and d_head pairwise different (a batch axis confused with the head axis, or a scale by
sqrt(E) instead of sqrt(d_head), changes the answer); about a quarter use coinciding sizes.
Padding comes in the shapes real batches have: right padding, left padding (which, with causal,
leaves the first queries with no key at all), random holes, and whole sequences of padding.

Every bad input breaks exactly one rule, so a ValueError is the only right answer. Left open and
never tested: an overflow that only a blocked score would see, and the wording of messages.
"""

import numpy as np

from dojo.worker import wire
from dojo.text.messages import is_message, message
from hypothesis import example, strategies as st

from tests import oracle
from tests import largest as L
from tests import strategies as S
from tests.judge import KataMismatch, check_array, check_close, check_that, expect_value_error, prop, show

FUNCTION = "batched_multihead_attention"
PARAMS = ("in_proj_weight", "in_proj_bias", "out_proj_weight", "out_proj_bias")
ARRAYS = ("x",) + PARAMS


def said(key: str, **params) -> dict:
    """A sentence of this judge, ``judge.batched_attention.<key>`` (dojo/catalogue/katas/batched_attention/<lang>/
    judge.toml), its values as strings (a message stays a message)."""
    return message(f"judge.batched_attention.{key}", **{k: v if is_message(v) else str(v) for k, v in params.items()})


def PROBE():
    E = 2
    return dict(
        x=np.array([[[1.0, 0.0], [0.5, 2.0]]]), in_proj_weight=np.eye(3 * E, E), in_proj_bias=np.zeros(3 * E),
        out_proj_weight=np.eye(E), out_proj_bias=np.zeros(E), num_heads=1,
        key_padding_mask=None, causal=False,
    )


# -- Oracle (torch, float64) ------------------------------------------------------------------


@oracle.memoised
def torch_mha(x, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias, key_padding_mask, *, num_heads, causal):
    """(out, weights) from nn.MultiheadAttention (batch_first, per-head weights) on rows that have
    an allowed key; from SDPA with an explicit boolean mask on rows that have none (all-zero
    weights there, so the row is out_proj_bias: nn.MultiheadAttention itself returns NaN)."""
    t = oracle.torch()
    X = oracle.tensor(x)
    B, n, E = X.shape
    module = t.nn.MultiheadAttention(E, num_heads, batch_first=True, dtype=t.float64)
    with t.no_grad():
        module.in_proj_weight.copy_(oracle.tensor(in_proj_weight))
        module.in_proj_bias.copy_(oracle.tensor(in_proj_bias))
        module.out_proj.weight.copy_(oracle.tensor(out_proj_weight))
        module.out_proj.bias.copy_(oracle.tensor(out_proj_bias))
    module.eval()
    pad = None if key_padding_mask is None else t.from_numpy(np.asarray(key_padding_mask, dtype=bool))
    blocked = t.ones(n, n, dtype=t.bool).triu(1) if causal else None
    with t.no_grad():
        out, weights = module(X, X, X, key_padding_mask=pad, attn_mask=blocked,
                              need_weights=True, average_attn_weights=False)
        allowed = t.ones(B, 1, n, n, dtype=t.bool)
        if pad is not None:
            allowed = allowed & ~pad[:, None, None, :]
        if causal:
            allowed = allowed & t.ones(n, n, dtype=t.bool).tril()
        q, k, v = (X @ oracle.tensor(in_proj_weight).T + oracle.tensor(in_proj_bias)).chunk(3, dim=-1)
        split = lambda a: a.view(B, n, num_heads, -1).transpose(1, 2)  # noqa: E731  (B, h, n, d)
        heads = t.nn.functional.scaled_dot_product_attention(split(q), split(k), split(v), attn_mask=allowed)
        sdpa_out = heads.transpose(1, 2).reshape(B, n, E) @ oracle.tensor(out_proj_weight).T + oracle.tensor(out_proj_bias)
        empty = ~allowed.any(dim=-1)  # (B, 1, n): the query has no allowed key
        out = t.where(empty[:, 0, :, None], sdpa_out, out)
        weights = t.where(empty[..., None], t.zeros_like(weights), weights)
    return out.numpy(), weights.numpy()


def expected(case, **overrides):
    c = {**case, **overrides}
    return torch_mha(*(c[a] for a in ARRAYS), c["key_padding_mask"], num_heads=c["num_heads"], causal=c["causal"])


# -- Strategies --------------------------------------------------------------------------------

#: (B, n, num_heads, d_head): pairwise different, or the coinciding sizes real code meets; mostly
#: 1 to 4, sometimes 8 to 128 (tests/sizes.py), at most two of them above 4.
DISTINCT = S.distinct_dims(4, 1, 4, max_big=2)
#: The largest E = num_heads d_head drawn: the projections are (3E, E), so E bounds the cost.
MAX_E = 128
#: The most (sequence, head, query, key) quadruples B h n n one example may have: a correct answer
#: that loops over sequences, heads and queries (the contract allows it) must stay fast.
LOOP_BUDGET = 100_000
SAME = S.size_tuple(2, 1, 3, distinct=False, max_big=1)  # B, n (= num_heads = d_head, E kept <= MAX_E)
SHAPE_KINDS = st.sampled_from(["distinct"] * 3 + ["coinciding"])
PADDINGS = st.sampled_from(["none", "right", "left", "holes", "a sequence of padding"])
BOOLS = st.booleans()
X_SCALES = st.sampled_from([1.0, 0.3, 3.0])


def padding(rng, B: int, n: int, kind: str):
    """A (B, n) bool mask, True = padding, of the given kind (None for "none")."""
    if kind == "none":
        return None
    lengths = rng.integers(1, n + 1, size=B)
    cols = np.arange(n)
    if kind == "right":
        return cols[None, :] >= lengths[:, None]
    if kind == "left":
        return cols[None, :] < (n - lengths)[:, None]
    pad = rng.random((B, n)) < 0.4
    if kind == "holes":
        pad[np.arange(B), rng.integers(0, n, size=B)] = False  # every sequence keeps a token
    else:
        pad[int(rng.integers(0, B))] = True  # one sequence is all padding
    return pad


def build(B, n, h, d_head, x_scale, pad_kind, causal, seed) -> dict:
    E = h * d_head
    rng = S.rng_for(seed)
    return dict(
        x=S.normal(rng, (B, n, E), x_scale),
        in_proj_weight=S.normal(rng, (3 * E, E)),
        in_proj_bias=S.normal(rng, 3 * E, 0.3),
        out_proj_weight=S.normal(rng, (E, E)),
        out_proj_bias=S.normal(rng, E),
        num_heads=h,
        key_padding_mask=padding(rng, B, n, pad_kind),
        causal=causal,
    )


@S.valid_inputs()
@st.composite
def problems(draw, pad_kind=None, causal=None, min_n=1, batch=None):
    """The keyword arguments of a valid call."""
    if draw(SHAPE_KINDS) == "distinct":
        B, n, h, d_head = draw(DISTINCT)
    else:
        B, n = draw(SAME)
        h, d_head = n, n
    if h * d_head > MAX_E:  # many heads or wide ones, not both: the smaller becomes 1
        h, d_head = (h, 1) if h >= d_head else (1, d_head)
    while B * h * n * n > LOOP_BUDGET:  # fewer heads, then fewer of the smaller of B and n
        if h > 1:
            h = max(1, h // 2)
        elif B <= n:
            B = max(1, B // 2)
        else:
            n = max(1, n // 2)
    n = max(n, min_n)
    B = batch or B
    return build(B, n, h, d_head, draw(X_SCALES), pad_kind or draw(PADDINGS),
                 draw(S.FLAGS) if causal is None else causal, draw(S.SEEDS))


PROBLEMS = problems()


@S.valid_inputs()
@st.composite
def far_below_problems(draw):
    """A valid call, causal or padded or both, whose scores all lie far below -1e9, in every
    head (S.projected_scores_far_below, on the torch-layout blocks of in_proj_weight): a finite
    fill of -1e9 for the blocked keys takes all the weight."""
    case = draw(PROBLEMS)
    E = case["x"].shape[-1]
    w = case["in_proj_weight"]
    rng = S.rng_for(draw(S.SEEDS))
    x, w_q, w_k = S.projected_scores_far_below(rng, case["x"], w[:E].T, w[E : 2 * E].T, draw(S.FAR_DECADES))
    case["x"], case["in_proj_weight"] = x, np.concatenate([w_q.T, w_k.T, w[2 * E :]])
    return case


def allowed_of(case) -> np.ndarray:
    """(B, n, n) bool: query i of sequence b may attend key j."""
    B, n, _ = np.shape(case["x"])
    allowed = np.ones((B, n, n), dtype=bool)
    if case["key_padding_mask"] is not None:
        allowed &= ~np.asarray(case["key_padding_mask"])[:, None, :]
    if case["causal"]:
        allowed &= np.tril(np.ones((n, n), dtype=bool))
    return allowed


def about(case) -> dict:
    B, n, E = np.shape(case["x"])
    h = case["num_heads"]
    pad = case["key_padding_mask"]
    padding = (said("part.no-padding") if pad is None
               else said("part.padding", mask=np.asarray(pad).astype(int).tolist()))
    return said("part.about", b=B, n=n, e=E, h=h, d_head=E // h, causal=case["causal"], padding=padding)


def fresh(case):
    return {k: v.copy() if isinstance(v, np.ndarray) else v for k, v in case.items()}


def run(kata, case):
    """Call the candidate: (out (B, n, E), weights (B, num_heads, n, n)), float64, no NaN or inf."""
    result = kata(**fresh(case))
    B, n, E = np.shape(case["x"])
    if not isinstance(result, tuple) or len(result) != 2:
        raise KataMismatch(message("result.not-pair", function=FUNCTION, type=wire.type_name(result)))
    out = check_array(result[0], "out", (B, n, E))
    weights = check_array(result[1], said("what.weights"), (B, case["num_heads"], n, n))
    for what, a in (("weights", weights), ("out", out)):
        bad = np.argwhere(~np.isfinite(a))
        if bad.size:
            index = tuple(int(i) for i in bad[0])
            raise KataMismatch(message(
                "values.not-finite.explained", what=what, index=str(list(index)), value=str(a[index]),
                explanation_text=said("why.not-finite", about=about(case))))
    return out, weights


def compare(got, want, case, against):
    out, weights = got
    why = said("why.compare", about=about(case), against=against)
    check_close(weights, want[1], "weights", why)
    check_close(out, want[0], "out", why)


# -- Properties of a correct answer -------------------------------------------------------------

_EXAMPLE = build(2, 3, 2, 1, 1.0, "none", False, 7)
#: Every score far below -1e9 (x[..., 0] huge, in_proj_weight[:E, 0] = 1 and [E:2E, 0] = -1),
#: padding and causal: a finite fill of -1e9 for the blocked keys takes all the weight.
_FAR_BELOW = {
    **_EXAMPLE, "causal": True,
    "key_padding_mask": np.array([[False, True, False], [False, False, False]]),
    "x": _EXAMPLE["x"] + np.array([[2e6, 0.0], [1e6, 0.0], [3e6, 0.0]]),
    "in_proj_weight": np.concatenate([[[1.0, 0.5], [1.0, -0.5]], [[-1.0, 0.3], [-1.0, 0.8]], _EXAMPLE["in_proj_weight"][4:]]),
}


@prop(case=PROBLEMS | far_below_problems())
@example(case={**_EXAMPLE, "key_padding_mask": np.array([[False, False, True], [True, False, False]]), "causal": True})
@example(case=_EXAMPLE)
@example(case=_FAR_BELOW)
# head 0's one allowed score of query 0 is exactly finfo.min: a finfo.min fill of the future ties with it
@example(case={"x": np.array([[[1.0, 0.0], [1.0, 1.0]]]), "num_heads": 2, "key_padding_mask": None, "causal": True,
               "in_proj_weight": np.array([[S.FINFO_MIN_FACTORS[0], 0.0], [0.0, 0.0], [S.FINFO_MIN_FACTORS[1], -S.FINFO_MIN_FACTORS[1]],
                                           [0.0, 0.0], [1.0, 1.0], [1.0, 1.0]]),
               "in_proj_bias": np.zeros(6), "out_proj_weight": np.eye(2), "out_proj_bias": np.zeros(2)})
# two equal scores of -1e20 (two equal keys): weights 1/2 each. exp(s - logsumexp(s)) gives 1 each,
# since the log 2 is below float64's spacing out there (stop 57: a right file of ours)
@example(case={"x": np.array([[[1.0], [1.0]]]), "num_heads": 1, "key_padding_mask": None, "causal": False,
               "in_proj_weight": np.array([[1e20], [-1.0], [1.0]]), "in_proj_bias": np.array([0.0, 0.0, 0.5]),
               "out_proj_weight": np.array([[1.0]]), "out_proj_bias": np.zeros(1)})
def test_matches_torch_nn_multihead_attention(kata, case):
    """Matches torch's nn.MultiheadAttention (batch_first, per-head weights) with padding and causal, SDPA's zero rows where a query has no key, and scores far below zero (from about -1e9 down to the edge of overflow)"""
    compare(run(kata, case), expected(case), case,
            said("part.against-torch"))


#: Properties that draw no input: they build a fixed one themselves (tests/strategies.py).
INPUT_BUILT_INSIDE = ("test_the_largest_realistic_case_matches_torch",)


@prop(seed=st.just(0))
def test_the_largest_realistic_case_matches_torch(kata, seed):
    """The compare battery's largest realistic case (n = 64) matches torch, checked as test_matches_torch_nn_multihead_attention checks its cases"""
    L.check_with(test_matches_torch_nn_multihead_attention, kata, L.largest_case("batched_attention"))


@prop(case=problems(pad_kind="none"))
def test_an_all_false_padding_mask_is_no_padding(kata, case):
    """A key_padding_mask of all False (nothing is padding) gives the same answer as None: True means padding"""
    B, n, _ = case["x"].shape
    none = run(kata, case)
    nothing = run(kata, dict(case, key_padding_mask=np.zeros((B, n), dtype=bool)))
    why = said("why.all-false", about=about(case))
    check_close(nothing[1], none[1], said("what.weights-all-false"), why)
    check_close(nothing[0], none[0], said("what.out-all-false"), why)


@prop(case=problems(), seed=S.SEEDS)
def test_permuting_the_batch_permutes_the_results(kata, case, seed):
    """Reordering the sequences of the batch (with their padding rows) reorders out and weights: batch items are independent"""
    B = case["x"].shape[0]
    order = S.rng_for(seed).permutation(B)
    if B >= 2 and np.array_equal(order, np.arange(B)):
        order = order[::-1]
    out, weights = run(kata, case)
    pad = case["key_padding_mask"]
    moved = run(kata, dict(case, x=case["x"][order], key_padding_mask=None if pad is None else pad[order]))
    why = said("why.batch-order", order=order.tolist(), about=about(case))
    check_close(moved[1], weights[order], said("what.weights-batch-reordered"), why)
    check_close(moved[0], out[order], said("what.out-batch-reordered"), why)


@prop(case=problems(pad_kind="right", min_n=2))
def test_a_right_padded_sequence_matches_the_same_sequence_alone(kata, case):
    """A right-padded sequence gives, on its real tokens, what the same tokens give alone and unpadded"""
    out, weights = run(kata, case)
    pad = case["key_padding_mask"]
    lengths = (~pad).sum(axis=1)
    B = len(lengths)
    # A call per checked sequence: the first, the last, the middle, a shortest and a longest
    # (a loop that stops early, a fixed number of sequences, the padding of one length). All B
    # of them cost up to a hundred calls an example, half a second of a verdict.
    for b in sorted({0, B - 1, B // 2, int(np.argmin(lengths)), int(np.argmax(lengths))}):
        length = int(lengths[b])
        alone = dict(case, x=case["x"][b : b + 1, :length], key_padding_mask=None)
        out1, weights1 = run(kata, alone)
        why = said("why.right-padded", b=b, length=length, about=about(case))
        check_close(weights[b, :, :length, :length], weights1[0], f"weights[{b}, :, :{length}, :{length}]", why)
        check_close(out[b, :length], out1[0], f"out[{b}, :{length}]", why)


@S.valid_inputs(
    calls=lambda case: [case["call"], dict(case["call"], x=case["x with padded positions changed"])]
)
@st.composite
def padding_changed(draw):
    """A call with padding somewhere, and x with every padded position replaced by huge values (~1e9)."""
    case = draw(problems(pad_kind=draw(st.sampled_from(["right", "left", "holes"])), min_n=2))
    pad = case["key_padding_mask"]
    rng = S.rng_for(draw(S.SEEDS))
    if not pad.any():
        pad[0, -1] = True
    changed = case["x"].copy()
    changed[pad] = S.normal(rng, changed[pad].shape, 1e9)
    return {"call": case, "x with padded positions changed": changed}


@prop(case=padding_changed())
def test_padded_positions_cannot_change_any_real_token(kata, case):
    """Changing x at padded positions, even to ~1e9, changes no row of a real (non-padded) token"""
    case, changed = case["call"], case["x with padded positions changed"]
    real = ~case["key_padding_mask"]  # (B, n)
    out, weights = run(kata, case)
    out2, weights2 = run(kata, dict(case, x=changed))
    why = said("why.padding-changed", about=about(case))
    w, w2 = weights.transpose(0, 2, 1, 3)[real], weights2.transpose(0, 2, 1, 3)[real]  # (tokens, h, n)
    check_close(w2, w, said("what.weights-padding-changed"), why)
    check_close(out2[real], out[real], said("what.out-padding-changed"), why)


@prop(case=problems(causal=True, pad_kind=None))
def test_padding_and_causal_combine_and_a_query_with_no_key_outputs_the_bias(kata, case):
    """Blocked weights (future or padding) are exactly 0, other rows sum to 1, and a query with no allowed key has zero weights and out = out_proj_bias"""
    out, weights = run(kata, case)
    allowed = allowed_of(case)[:, None]  # (B, 1, n, n)
    leak = np.argwhere(~allowed & (weights != 0))
    if leak.size:
        b, h, i, j = (int(a) for a in leak[0])
        padded = case["key_padding_mask"] is not None and case["key_padding_mask"][b, j]
        check_that(False, said("why.blocked-weight", b=b, h=h, i=i, j=j, value=repr(weights[b, h, i, j]),
                               where=said("part.padding-key") if padded else said("part.future-key", i=i),
                               about=about(case)))
    has_key = allowed.any(axis=-1)  # (B, 1, n)
    sums = weights.sum(axis=-1)  # (B, h, n)
    check_close(sums, np.broadcast_to(has_key, sums.shape).astype(float), said("what.row-sums"),
                said("why.row-sums", about=about(case)))
    empty = ~has_key[:, 0]  # (B, n)
    if empty.any():
        rows = np.argwhere(empty)[:3].tolist()
        check_close(out[empty], np.broadcast_to(case["out_proj_bias"], out[empty].shape),
                    said("what.no-key", rows=rows),
                    said("why.no-key", about=about(case)))


FORM_NAMES = S.FORM_NAMES


#: One form for every input half the time (float32 x and float32 weights then meet in a product),
#: each its own otherwise, as the other katas draw them.
FORMS = st.one_of(st.sampled_from(FORM_NAMES).map(lambda f: (f,) * len(ARRAYS)),
                  st.tuples(*(st.sampled_from(FORM_NAMES) for _ in ARRAYS)))


@prop(case=problems(), forms=FORMS, as_int=S.INT_TYPES)
def test_accepts_array_likes_returns_float64_and_leaves_inputs_alone(kata, case, forms, as_int):
    """Accepts lists, integer and float32 arrays (any memory layout), and num_heads as a NumPy integer; returns float64; never writes into its inputs"""
    given, values = {"num_heads": as_int(case["num_heads"])}, {}
    for name, form in zip(ARRAYS, forms):
        given[name], values[name] = S.as_form(case[name], form)
    got = run(kata, dict(case, **given))  # the kata fixture fails any call that writes into an input
    # Compared with your own answer for the float64 values, as multi-head attention does: whether
    # that is right is what the other properties judge. Against torch, a right answer failed here
    # (stop 55's rehearsal: x as uint8, scaled to 255, with 97 heads of width 1 makes scores of
    # about 1e7, where float64's noise in the projections moves out by 1e-7).
    own = run(kata, dict(case, **values))
    compare(got, own, dict(case, **values), said("part.against-forms", **dict(zip(ARRAYS, forms))))


# -- Contract violations -> ValueError ----------------------------------------------------------
# Each bad call breaks exactly one rule.

#: The names of bad inputs that are words (the properties draw them), in each language.
_WORDS = {
    "2-D (n, E)": "part.word.2d", "4-D": "part.word.4d", "bool": "part.word.bool", "float": "part.word.float",
    "zero": "part.word.zero", "negative": "part.word.negative", "does not divide E": "part.word.not-dividing",
    "0/1 integers": "part.word.ints", "floats": "part.word.floats",
    "(n,), shared by the batch": "part.word.shared", "(n, B), transposed": "part.word.transposed",
    "a projection": "part.word.projection", "a score": "part.word.score", "out": "part.word.out",
}


def _words(how: str):
    """``how`` as a message when it has words in it (a shape or a size like "B = 0" stays)."""
    return said(_WORDS[how]) if how in _WORDS else how


@prop(case=problems(), how=st.sampled_from(["2-D (n, E)", "4-D", "B = 0", "n = 0", "E = 0"]))
def test_rejects_x_not_3d_or_empty(kata, case, how):
    """x that is not 3-D (B, n, E), or has B, n or E equal to 0, raises ValueError"""
    x = case["x"]
    B, n, E = x.shape
    bad = dict(case, key_padding_mask=None)
    if how == "2-D (n, E)":
        bad["x"] = x[0].copy()
    elif how == "4-D":
        bad["x"] = x[None].copy()
    elif how == "E = 0":
        bad.update(x=np.zeros((B, n, 0)), in_proj_weight=np.zeros((0, 0)), in_proj_bias=np.zeros(0),
                   out_proj_weight=np.zeros((0, 0)), out_proj_bias=np.zeros(0))
    else:
        bad["x"] = np.zeros((0, n, E)) if how == "B = 0" else np.zeros((B, 0, E))
    expect_value_error(lambda: kata(**bad), said("because.x", shape=np.shape(bad["x"]), how=_words(how)))


@st.composite
def bad_num_heads(draw):
    case = draw(problems())
    E = case["x"].shape[2]
    how = draw(st.sampled_from(["bool", "float", "zero", "negative", "does not divide E"]))
    if how == "bool":
        case = build(case["x"].shape[0], case["x"].shape[1], 1, E, 1.0, "none", case["causal"], draw(S.SEEDS))
        case["num_heads"] = draw(st.sampled_from([True, np.True_]))  # isinstance(h, bool) misses np.True_
    elif how == "float":
        case["num_heads"] = draw(st.sampled_from([float, np.float32]))(case["num_heads"])  # (stop 57)
    elif how == "zero":
        case["num_heads"] = 0
    elif how == "negative":
        case["num_heads"] = -case["num_heads"]
    else:
        case = build(case["x"].shape[0], case["x"].shape[1], 1, draw(st.sampled_from([3, 5])), 1.0, "none",
                     case["causal"], draw(S.SEEDS))
        case["num_heads"] = 2 if case["x"].shape[2] == 3 else draw(st.sampled_from([2, 3, 4]))
    return case, how


@prop(bad=bad_num_heads())
def test_rejects_a_num_heads_that_is_not_a_positive_int_dividing_e(kata, bad):
    """num_heads that is a bool, a float (2.0), 0, negative, or does not divide E raises ValueError"""
    case, how = bad
    expect_value_error(
        lambda: kata(**fresh(case)),
        said("because.num-heads-bool" if how == "bool" else "because.num-heads", value=repr(case["num_heads"]),
             how=_words(how), e=case["x"].shape[2]),
    )


@st.composite
def a_parameter_of_the_wrong_shape(draw):
    case = draw(problems())
    E = case["x"].shape[2]
    rng = S.rng_for(draw(S.SEEDS))
    shapes = {
        "in_proj_weight": [(E, E), (3 * E, E + 1), (E, 3 * E), (3 * E + 1, E)],
        "in_proj_bias": [(E,), (3 * E, 1), (1, 3 * E), (3 * E + 1,)],
        "out_proj_weight": [(E, E + 1), (E + 1, E), (3 * E, E)],
        "out_proj_bias": [(E + 1,), (1, E), (E, 1), (3 * E,)],
    }
    name = draw(st.sampled_from(PARAMS))
    options = [s for s in shapes[name] if s != np.shape(case[name])]
    shape = options[draw(st.integers(0, len(options) - 1))]
    case[name] = S.normal(rng, shape)
    return case, name


@prop(bad=a_parameter_of_the_wrong_shape())
def test_rejects_a_parameter_of_the_wrong_shape(kata, bad):
    """in_proj_weight not (3E, E), in_proj_bias not (3E,), out_proj_weight not (E, E) or out_proj_bias not (E,) raises ValueError, even if it would broadcast"""
    case, name = bad
    expect_value_error(lambda: kata(**fresh(case)),
                       said("because.parameter", name=name, shape=case[name].shape, e=case["x"].shape[2]))


@prop(case=problems(pad_kind="holes"))
def test_rejects_a_padding_mask_not_bool_or_not_of_shape_b_by_n(kata, case):
    """A key_padding_mask of 0/1 integers or floats, or of a shape other than (B, n), raises ValueError, even if it would broadcast"""
    pad = case["key_padding_mask"]
    B, n = pad.shape
    bad = {
        "0/1 integers": pad.astype(np.int64),
        "floats": pad.astype(np.float64),
        "(n,), shared by the batch": pad[0].copy(),
        "(B, n + 1)": np.hstack([pad, np.zeros((B, 1), dtype=bool)]),
        "(1, n)": pad[:1].copy(),
        "(B, n, n)": np.repeat(pad[:, None, :], n, axis=1),
        "(n, B), transposed": pad.T.copy(),
    }
    for how, mask in bad.items():
        if mask.dtype == np.bool_ and mask.shape == (B, n):
            continue  # B = 1 or B = n: this form is not wrong here
        expect_value_error(
            lambda: kata(**fresh(dict(case, key_padding_mask=mask))),
            said("because.padding-mask", how=_words(how), dtype=mask.dtype, shape=mask.shape, b=B, n=n),
        )


@prop(case=problems(), name=st.sampled_from(ARRAYS), value=S.non_finite_values(), seed=S.SEEDS)
def test_rejects_nan_or_inf_in_any_input(kata, case, name, value, seed):
    """NaN or inf in x or any parameter raises ValueError (even at a padded position)"""
    a = case[name].copy()
    index = tuple(int(S.rng_for(seed).integers(0, s)) for s in a.shape)
    a[index] = value
    expect_value_error(lambda: kata(**fresh(dict(case, **{name: a}))),
                       said("because.non-finite", name=name, index=index, value=value))


def overflowing(case, how, b, p):
    """``case`` (no padding) changed so that one thing overflows: a projection of x, an allowed
    score, out, the key projection of a padded position at (b, p), or the query projection at
    (b, p) of a sequence that is all padding; with the verdict's words."""
    B, n, E = case["x"].shape
    if how == "a projection":
        case["x"][b, p] = 1e155 * np.where(case["x"][b, p] >= 0, 1.0, -1.0)
        case["in_proj_weight"][2 * E] = 1e155 * np.where(case["x"][b, p] >= 0, 1.0, -1.0)
    elif how == "a padded key's projection":
        # only the padded key's K overflows: column 0 of x is 0 but at (b, p), and only the first
        # key row reads it (the query and value rows ignore column 0), so no score that takes
        # part in a softmax, and no value, is touched
        case["x"][:, :, 0] = 0.0
        case["x"][b, p, 0] = 1e155
        case["in_proj_weight"][:, 0] = 0.0
        case["in_proj_weight"][E, 0] = 1e155
        case["key_padding_mask"] = np.zeros((B, n), dtype=bool)
        case["key_padding_mask"][b, p] = True
        how = "a projection"  # the words of the verdict: a projection overflows
    elif how == "a query's projection with no key":
        # only Q overflows, at a query of a sequence that is all padding: it has no allowed key,
        # so no score of it enters a softmax (an answer that checked only K and V missed it)
        case["x"][:, :, 0] = 0.0
        case["x"][b, p, 0] = 1e155
        case["in_proj_weight"][:, 0] = 0.0
        case["in_proj_weight"][0, 0] = 1e155
        case["key_padding_mask"] = np.zeros((B, n), dtype=bool)
        case["key_padding_mask"][b, :] = True
        how = "a projection"
    elif how == "a score":  # query p and key p of the first head point the same huge way
        case["x"][b, p, 0] = 1e150
        case["in_proj_weight"][0] = case["in_proj_weight"][E] = 0.0
        case["in_proj_weight"][0, 0] = case["in_proj_weight"][E, 0] = 1e5
    else:  # V stays finite, but one column of out_proj_weight is so large that out overflows
        case["out_proj_weight"][:, :] = 1.7e308 * np.where(case["out_proj_weight"] >= 0, 1.0, -1.0)
        case["in_proj_bias"][2 * E:] = 10.0 * np.where(case["out_proj_weight"][0] >= 0, 1.0, -1.0)
        case["in_proj_weight"][2 * E:] = 0.0
    return case, how


@st.composite
def an_overflow(draw):
    """Finite inputs, no padding, and one overflow: a projection of x, an allowed score, or out;
    or a padding mask and the key projection of a padded position (which no score uses: an
    answer that checks only what enters the softmax misses it; a blind hostile round, stop 54)."""
    case = draw(problems(pad_kind="none"))
    B, n, E = case["x"].shape
    how = draw(st.sampled_from(["a projection", "a score", "out", "a padded key's projection",
                                "a query's projection with no key"]))
    return overflowing(case, how, draw(st.integers(0, B - 1)), draw(st.integers(0, n - 1)))


@prop(bad=an_overflow())
# The padded key's projection every run: drawn one example in four, it was missed by one CI run in
# its twenty examples (seed 165483445), and nothing else shows that overflow.
@example(bad=overflowing(fresh(_EXAMPLE), "a padded key's projection", 1, 2))
@example(bad=overflowing(fresh(_EXAMPLE), "a query's projection with no key", 0, 1))
def test_rejects_an_overflowing_projection_score_or_out(kata, bad):
    """Finite inputs whose projection, allowed score or out overflows to inf raise ValueError instead of returning NaN or inf"""
    case, how = bad
    expect_value_error(lambda: kata(**fresh(case)),
                       said("because.overflow", how=_words(how), about=about(case)))
