"""The judge for katas/latent_attention.py: latent_attention(x, w_dkv, w_uk, w_uv, w_q, w_qr, w_kr, w_o, num_heads, positions).

Every case is the exact dict of keyword arguments the candidate's function is called with, so
a shrunk failing example reads as the call that failed. Shapes: x (n, d_model), w_dkv
(d_model, d_c), w_uk (d_c, num_heads * d_h), w_uv (d_c, num_heads * d_v), w_q (d_model,
num_heads * d_h), w_qr (d_model, num_heads * d_r), w_kr (d_model, d_r), w_o (num_heads * d_v,
d_model), positions (n,). Sizes come from tests/sizes.py: mostly 1 to 5, sometimes 8 to 128, at
most three of them past 5 and two of them 64 or more (fewer heads past a budget of
multiply-adds), and num_heads, d_h and d_v all differ, so a head axis confused with a width,
or a V split by d_h, changes the answer. Positions are drawn
out of order (below 64), so a mask by position value or a RoPE by row index shows.

Order: the comparisons with torch (ordinary scores, large scores, allowed scores far below
-1e9), then properties that pin a bug down (RoPE is relative, reordered heads, causality by
row index, array-likes), then the contract's errors, each from generated bad calls that break
exactly one rule. Left open and never tested: a future (blocked) score that overflows, inputs
where another order of the matrix products would give a finite out although the contract's
order overflows, and the wording of messages.
"""


import numpy as np
from hypothesis import assume, example, strategies as st

from dojo.text.messages import message
from tests import oracle
from tests import largest as L
from tests import strategies as S
from tests.contract import Contract, fresh, rejects_each_call
from tests.judge import KataMismatch, check_array, check_close, check_that, expect_value_error, prop

INPUTS = ("x", "w_dkv", "w_uk", "w_uv", "w_q", "w_qr", "w_kr", "w_o")
OUTPUTS = ("out", "c_kv", "k_rope")
#: The judge's messages: dojo/catalogue/katas/latent_attention/<lang>/judge.toml.
M = "judge.latent_attention"

CONTRACT = Contract({
    "x": ("n", "d_model"), "w_dkv": ("d_model", "d_c"), "w_uk": ("d_c", "h * d_h"),
    "w_uv": ("d_c", "h * d_v"), "w_q": ("d_model", "h * d_h"), "w_qr": ("d_model", "h * d_r"),
    "w_kr": ("d_model", "d_r"), "w_o": ("h * d_v", "d_model"),
})


# -- Oracle --------------------------------------------------------------------------------


@oracle.memoised
def torch_latent_attention(x, w_dkv, w_uk, w_uv, w_q, w_qr, w_kr, w_o, positions, *, num_heads):
    """(out, c_kv, k_rope): torch's projections, rotate_half RoPE (base 10000), then per head one
    SDPA over the concatenated [q_c, q_r] and [k_c, k_rope] with a causal bool mask."""
    t = oracle.torch()
    x, w_dkv, w_uk, w_uv, w_q, w_qr, w_kr, w_o = (oracle.tensor(a) for a in (x, w_dkv, w_uk, w_uv, w_q, w_qr, w_kr, w_o))
    n, h, d_r = x.shape[0], num_heads, w_kr.shape[1]
    freqs = 1.0 / 10000.0 ** (t.arange(0, d_r, 2, dtype=t.float64) / d_r)  # (d_r/2,)
    angles = t.outer(t.from_numpy(np.asarray(positions, dtype=np.int64)).to(t.float64), freqs)  # (n, d_r/2)
    cos, sin = t.cat([angles.cos(), angles.cos()], -1), t.cat([angles.sin(), angles.sin()], -1)  # (n, d_r)

    def rope(a):  # (..., n, d_r)
        rotate_half = t.cat([-a[..., d_r // 2:], a[..., : d_r // 2]], -1)
        return a * cos + rotate_half * sin

    c_kv = x @ w_dkv  # (n, d_c)
    k_c = (c_kv @ w_uk).view(n, h, -1).transpose(0, 1)  # (h, n, d_h)
    v = (c_kv @ w_uv).view(n, h, -1).transpose(0, 1)  # (h, n, d_v)
    q_c = (x @ w_q).view(n, h, -1).transpose(0, 1)  # (h, n, d_h)
    q_r = rope((x @ w_qr).view(n, h, d_r).transpose(0, 1))  # (h, n, d_r)
    k_rope = rope(x @ w_kr)  # (n, d_r)
    q = t.cat([q_c, q_r], -1)
    k = t.cat([k_c, k_rope.expand(h, n, d_r)], -1)
    allowed = t.ones(n, n, dtype=t.bool).tril()
    heads = t.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=allowed)  # (h, n, d_v)
    out = heads.transpose(0, 1).reshape(n, -1) @ w_o
    return out.numpy(), c_kv.numpy(), k_rope.numpy()


def torch_answer(case):
    return torch_latent_attention(*(case[k] for k in INPUTS), np.asarray(case["positions"]), num_heads=case["num_heads"])


# -- Strategies ------------------------------------------------------------------------------

BOOLS = st.booleans()
_INTS = {}


def ints(lo: int, hi: int):
    """``st.integers(lo, hi)``, built once per range."""
    if (lo, hi) not in _INTS:
        _INTS[lo, hi] = st.integers(lo, hi)
    return _INTS[lo, hi]


KEYS = ("n", "d_model", "h", "d_c", "d_h", "d_v", "d_r")


#: n, d_model, num_heads, d_c, d_h, d_v, d_r / 2: mostly 1 to 5, sometimes 8 to 128
#: (tests/sizes.py), at most three of them past 5 and two of them 64 or more.
_DIMS = S.size_tuple(7, 1, 5, distinct=False, max_big=3)
#: The most work one example's sizes may ask for (multiply-adds of one call); past it, fewer heads.
BUDGET = 8_000_000


def _apart(value: int, *others: int) -> int:
    """``value``, or the next size above it that is none of ``others``."""
    while value in others:
        value += 1
    return value


@st.composite
def latent_sizes(draw, kind: str = "any", heads: int | None = None):
    """Sizes of a valid call, by construction: num_heads, d_h and d_v pairwise different, d_r
    even; ``kind`` "multi-head" (at least two heads) or "sequence" (at least two positions);
    ``heads``: that many heads exactly."""
    n, d_model, h, d_c, d_h, d_v, r = draw(_DIMS)
    d_r = 2 * r
    h = heads or (max(h, 2) if kind == "multi-head" else h)
    n = max(n, 2) if kind == "sequence" else n
    per_head = n * (n * (d_h + d_r + d_v) + d_model * (d_h + d_r + d_v) + d_c * (d_h + d_v))
    fewest = 2 if kind == "multi-head" else 1
    while heads is None and h > fewest and h * per_head > BUDGET:
        h = max(fewest, h // 2)  # (3 // 2 would leave a multi-head case one head)
    d_v = _apart(d_v, d_h)
    if heads is None:
        h = _apart(h, d_h, d_v)
    else:
        d_h, d_v = _apart(d_h, h), _apart(_apart(d_v, d_h, h), d_h, h)
    return dict(n=n, d_model=d_model, h=h, d_c=d_c, d_h=d_h, d_v=d_v, d_r=d_r)


#: num_heads, d_h and d_v pairwise different.
SIZES = latent_sizes()
MULTI_HEAD_SIZES = latent_sizes("multi-head")
SEQUENCE_SIZES = latent_sizes("sequence")
ONE_HEAD_SIZES = latent_sizes(heads=1)
X_SCALES = st.sampled_from((1.0, 0.3, 3.0))
#: The smallest valid sizes (num_heads, d_h and d_v pairwise different).
SMALLEST = dict(n=1, d_model=1, h=1, d_c=1, d_h=2, d_v=3, d_r=2)


def _spec(draw, table):
    """(sizes, x scale, seed) of a valid call: sizes from the strategy ``table``, and a seed."""
    return dict(draw(table)), draw(X_SCALES), draw(S.SEEDS)


def build(z, x_scale, seed) -> dict:
    """The keyword arguments of a call with sizes ``z``: N(0, 1) weights rounded to two decimals,
    x with typical magnitude ``x_scale``, positions distinct integers below max(64, n + 8) in no order."""
    n, d_model, h, d_c, d_h, d_v, d_r = (z[k] for k in KEYS)
    rng = S.rng_for(seed)
    return dict(
        x=S.normal(rng, (n, d_model), x_scale),
        w_dkv=S.normal(rng, (d_model, d_c)),
        w_uk=S.normal(rng, (d_c, h * d_h)),
        w_uv=S.normal(rng, (d_c, h * d_v)),
        w_q=S.normal(rng, (d_model, h * d_h)),
        w_qr=S.normal(rng, (d_model, h * d_r)),
        w_kr=S.normal(rng, (d_model, d_r)),
        w_o=S.normal(rng, (h * d_v, d_model)),
        num_heads=h,
        positions=rng.permutation(max(64, n + 8))[:n],
    )


@S.valid_inputs()
@st.composite
def problems(draw, table=None):
    """The keyword arguments of a valid call (sizes from ``table``, default ``SIZES``)."""
    return build(*_spec(draw, SIZES if table is None else table))


def sizes_of(case) -> dict:
    h = int(case["num_heads"])  # a NumPy integer of any width (S.INT_TYPES): 128 // np.int8(2) overflows
    n, d_model = np.shape(case["x"])
    return dict(n=n, d_model=d_model, h=h, d_c=np.shape(case["w_dkv"])[1], d_h=np.shape(case["w_q"])[1] // h,
                d_v=np.shape(case["w_uv"])[1] // h, d_r=np.shape(case["w_kr"])[1])


PROBLEMS = problems()
MULTI_HEAD_PROBLEMS = problems(MULTI_HEAD_SIZES)
SEQUENCE_PROBLEMS = problems(SEQUENCE_SIZES)


def dims_of(case) -> dict:
    return message(f"{M}.why.dims", **{k: str(v) for k, v in sizes_of(case).items()},
                   positions=str(np.asarray(case["positions"]).tolist()))


# -- Calling and comparing ---------------------------------------------------------------------


def run(kata, case):
    """Call the candidate and check it returns (out (n, d_model), c_kv (n, d_c), k_rope (n, d_r)), float64."""
    result = kata(**fresh(case))
    z = sizes_of(case)
    if not isinstance(result, tuple) or len(result) != 3:
        raise KataMismatch(message(f"{M}.fail.not-triple", type=type(result).__name__))
    shapes = ((z["n"], z["d_model"]), (z["n"], z["d_c"]), (z["n"], z["d_r"]))
    return tuple(check_array(r, what, shape) for r, what, shape in zip(result, OUTPUTS, shapes))


def compare(got, want, case, against):
    """c_kv and k_rope first (they locate a bug in the projections or RoPE), then out."""
    dims = dims_of(case)
    for name, g, w in zip(("c_kv", "k_rope", "out"), got[1:] + got[:1], want[1:] + want[:1]):
        check_close(g, w, name, message(f"{M}.why.compare", hint=message(f"{M}.why.hint-{name.replace('_', '-')}"),
                                          dims=dims, against=against))


AGAINST_TORCH = message(f"{M}.why.against-torch")

# n=3, d_model=4, num_heads=2, d_c=3, d_h=1, d_v=3, d_r=2; positions out of order.
_EXAMPLE = build(dict(n=3, d_model=4, h=2, d_c=3, d_h=1, d_v=3, d_r=2), 1.0, 7)
_EXAMPLE["positions"] = np.array([5, 2, 9])


def PROBE():
    """A valid call, made once before the properties (an untouched stub is reported once)."""
    return fresh(_EXAMPLE)


# -- What it computes -------------------------------------------------------------------------


@prop(case=PROBLEMS)
@example(case=_EXAMPLE)
def test_matches_torch_latent_attention(kata, case):
    """Matches torch (c_kv = x w_dkv, rotate_half RoPE on the decoupled parts, one causal softmax per head over [q_c, q_r]·[k_c, k_rope] / sqrt(d_h + d_r), heads concatenated, then w_o)"""
    compare(run(kata, case), torch_answer(case), case, AGAINST_TORCH)


#: Properties that draw no input: they build a fixed one themselves (tests/strategies.py).
INPUT_BUILT_INSIDE = ("test_the_largest_realistic_case_matches_torch",)


@prop(seed=st.just(0))
def test_the_largest_realistic_case_matches_torch(kata, seed):
    """The compare battery's largest realistic case (n = 128) matches torch, checked as test_matches_torch_latent_attention checks its cases"""
    L.check_with(test_matches_torch_latent_attention, kata, L.largest_case("latent_attention"))


@S.valid_inputs()
@st.composite
def large_score_problems(draw):
    """A valid call whose largest |allowed score| is about 1e3-1e4: w_q and w_qr scaled by the power
    of ten that brings it closest to 3e3 (scores are linear in them). exp() then overflows unless
    each softmax row is shifted by its max."""
    case = draw(PROBLEMS)
    z = sizes_of(case)
    n, h = z["n"], z["h"]
    q = np.concatenate([(case["x"] @ case["w_q"]).reshape(n, h, -1), (case["x"] @ case["w_qr"]).reshape(n, h, -1)], -1)
    k = np.concatenate([(case["x"] @ case["w_dkv"] @ case["w_uk"]).reshape(n, h, -1),
                        np.broadcast_to((case["x"] @ case["w_kr"])[:, None], (n, h, z["d_r"]))], -1)
    biggest = np.abs(np.einsum("nhd,mhd->hnm", q, k)).max() / np.sqrt(z["d_h"] + z["d_r"])
    assume(biggest > 1e-3)
    factor = 10.0 ** np.round(np.log10(3e3 / biggest))
    case["w_q"] = case["w_q"] * factor
    case["w_qr"] = case["w_qr"] * factor
    return case


@prop(case=large_score_problems())
def test_large_scores_stay_finite_and_match_torch(kata, case):
    """Scores around 1e3-1e4 give a finite out that matches torch (shift each softmax row by its max)"""
    got = run(kata, case)
    check_that(np.isfinite(got[0]).all(), message(f"{M}.fail.large-not-finite", dims=dims_of(case)))
    compare(got, torch_answer(case), case, AGAINST_TORCH)


@S.valid_inputs()
@st.composite
def far_below_minus_1e9(draw):
    """A valid call with n >= 2 in which query 0's only allowed score, (0, 0), lies far below
    -1e9 in every head (anywhere down to the edge of overflow), while its blocked scores are
    moderate (about X, the square root of that score's size).

    x[0, 0] = X (S.far_magnitude, S.FAR_DECADES), and the rows 0 of w_q and w_qr point against
    those of w_dkv w_uk and w_kr (every entry of w_kr's row 0 at least 0.5 in size): then
    q_c·k_c + q_r·k_rope at (0, 0) is about -X² times a sum of squares (query 0 and key 0 share a
    position, so the rotation cancels), every product in it at most 1e306 in size. A softmax that
    blocks with a finite fill (-1e9, -1e20, ...) above it gives those blocked keys all of row 0's
    weight; -inf gives none.
    """
    case = draw(SEQUENCE_PROBLEMS)
    h = case["num_heads"]
    w_kr = case["w_kr"]
    w_kr[0] = np.where(np.abs(w_kr[0]) < 0.5, np.where(w_kr[0] < 0, -0.5, 0.5), w_kr[0])
    case["w_q"][0] = -np.round(case["w_dkv"][0] @ case["w_uk"], 2)
    case["w_qr"][0] = -np.tile(w_kr[0], h)
    # score (0, 0) of head h is about -X² c_h; every partial sum of it is at most X² times largest
    k_c0 = case["w_dkv"][0] @ case["w_uk"]
    content, rotary = case["w_q"][0] * k_c0, case["w_qr"][0] * np.tile(w_kr[0], h)
    c = -(content.reshape(h, -1).sum(axis=1) + rotary.reshape(h, -1).sum(axis=1))
    c /= np.sqrt(content.size // h + rotary.size // h)
    largest = np.abs(content).sum() + np.abs(rotary).sum()
    case["x"][0, 0] = S.far_magnitude(draw(S.FAR_DECADES), float(c.min()), float(largest))
    return case


@prop(case=far_below_minus_1e9())
# query 1's two scores are equal, -1e20 / sqrt(3): weights 1/2 each. exp(s - logsumexp(s)) gives 1
# each, since the log 2 is below float64's spacing out there (stop 57: a right file of ours)
@example(case={"x": np.array([[1.0, 0.0], [1.0, 1.0]]), "w_dkv": np.eye(2), "w_uk": np.array([[-1.0], [0.0]]),
               "w_uv": np.array([[1.0], [2.0]]), "w_q": np.array([[1e20], [0.0]]), "w_qr": np.array([[0.0, 0.0], [0.5, 0.0]]),
               "w_kr": np.zeros((2, 2)), "w_o": np.array([[1.0, -1.0]]), "num_heads": 1, "positions": np.array([0, 1])})
def test_allowed_scores_far_below_minus_1e9_keep_all_the_weight(kata, case):
    """An allowed score far below -1e9 (down to the edge of overflow) still takes all the weight from blocked keys (block with -inf, not a finite fill like -1e9 or -1e20)"""
    compare(run(kata, case), torch_answer(case), case, message(f"{M}.why.against-torch-far-below"))


# -- Properties that pin a bug down --------------------------------------------------------


@S.valid_inputs()
@st.composite
def far_positions(draw):
    """A valid call whose positions reach 10**6, the contract's limit (distinct, in no order)."""
    case = dict(draw(PROBLEMS))
    n = np.shape(case["x"])[0]
    rng = S.rng_for(draw(S.SEEDS))
    case["positions"] = np.concatenate([[10**6], 10**5 + rng.choice(9 * 10**5, n - 1, replace=False)])[rng.permutation(n)]
    return case


#: A RoPE table precomputed for some most positions (max_position_embeddings, say 2048) is right
#: below them and raises or wraps above (a blind hostile round, stop 54: positions stayed
#: below about 1200).
@prop(case=far_positions())
def test_positions_up_to_a_million_match_torch(kata, case):
    """Positions up to 10**6 match torch: k_rope to 1e-8 and out to 1e-7 of their largest entries (an angle of 10**6 radians is known to about 1e-10 in float64)"""
    (out, c_kv, k_rope), (want_out, want_c_kv, want_k_rope) = run(kata, case), torch_answer(case)
    why = message(f"{M}.why.compare", hint=message(f"{M}.why.hint-k-rope"), dims=dims_of(case), against=AGAINST_TORCH)
    check_close(c_kv, want_c_kv, "c_kv", why)
    check_close(k_rope, want_k_rope, "k_rope", why, rtol=0.0, atol=1e-8)
    check_close(out, want_out, "out", why, rtol=0.0, atol=1e-7)


@S.valid_inputs(calls=lambda case: [case["call"], dict(case["call"], positions=case["call"]["positions"] + case["shift"])])
@st.composite
def shifted_positions(draw):
    """A valid call and an offset in 1..1000 added to every position."""
    return {"call": draw(PROBLEMS), "shift": draw(ints(1, 1000))}


@prop(case=shifted_positions())
def test_shifting_every_position_changes_neither_out_nor_c_kv(kata, case):
    """Adding the same offset to every position leaves out and c_kv unchanged (RoPE scores depend only on position differences; the latent carries no position)"""
    call, shift = case["call"], case["shift"]
    out, c_kv, _ = run(kata, call)
    out_s, c_kv_s, _ = run(kata, dict(call, positions=call["positions"] + shift))
    why = message(f"{M}.why.shifted", shift=str(shift), dims=dims_of(call))
    check_close(c_kv_s, c_kv, message(f"{M}.what.shifted", name="c_kv"), why)
    check_close(out_s, out, message(f"{M}.what.shifted", name="out"), why)




def _head_columns(order, width):
    return np.concatenate([np.arange(g * width, (g + 1) * width) for g in order])


def _reordered(case, order):
    z = sizes_of(case)
    cols = {d: _head_columns(order, z[d]) for d in ("d_h", "d_v", "d_r")}
    return dict(case, w_uk=case["w_uk"][:, cols["d_h"]], w_q=case["w_q"][:, cols["d_h"]],
                w_uv=case["w_uv"][:, cols["d_v"]], w_qr=case["w_qr"][:, cols["d_r"]], w_o=case["w_o"][cols["d_v"]])


@S.valid_inputs(calls=lambda case: [case["call"], _reordered(case["call"], case["new head order"])])
@st.composite
def reordered_heads(draw):
    """A valid call with at least two heads, and a new order of its heads (not the identity)."""
    case = draw(MULTI_HEAD_PROBLEMS)
    order = S.rng_for(draw(S.SEEDS)).permutation(case["num_heads"])
    if (order == np.arange(order.size)).all():  # never the original order (by construction)
        order[[0, 1]] = order[[1, 0]]
    return {"call": case, "new head order": [int(g) for g in order]}


@prop(case=reordered_heads())
def test_reordering_the_heads_leaves_everything_unchanged(kata, case):
    """Reordering the heads (column blocks of w_uk, w_q, w_uv, w_qr with the matching row blocks of w_o) changes neither out, c_kv nor k_rope"""
    call, order = case["call"], case["new head order"]
    got = run(kata, call)
    got_p = run(kata, _reordered(call, order))
    why = message(f"{M}.why.heads-reordered", order=str(order), dims=dims_of(call))
    for name, a, b in zip(OUTPUTS, got_p, got):
        check_close(a, b, message(f"{M}.what.heads-reordered", name=name), why)


def _later_rows_changed(case):
    call = case["call"]
    changed = call["x"].copy()
    changed[case["t"] + 1:] = case["new rows"]
    return dict(call, x=changed)


@S.valid_inputs(calls=lambda case: [case["call"], _later_rows_changed(case)])
@st.composite
def later_rows_changed(draw):
    """A valid call with n >= 2, a row t < n - 1, and new rows t+1: of x. The positions are out of
    order, so a later row often has an earlier position."""
    case = draw(SEQUENCE_PROBLEMS)
    n = case["x"].shape[0]
    t = draw(ints(0, n - 2))
    return {"call": case, "t": t, "new rows": S.normal(S.rng_for(draw(S.SEEDS)), (n - t - 1, case["x"].shape[1]))}


@prop(case=later_rows_changed())
def test_causal_by_row_index_whatever_the_positions(kata, case):
    """Query i sees keys j <= i by row index, whatever the positions: changing rows t+1: of x leaves out[:t+1] unchanged"""
    call, t = case["call"], case["t"]
    out = run(kata, call)[0]
    out_c = run(kata, _later_rows_changed(case))[0]
    check_close(out_c[: t + 1], out[: t + 1], f"out[:{t + 1}]",
                message(f"{M}.why.later-rows", t=str(t), dims=dims_of(call)))


FORM_NAMES = S.FORM_NAMES
#: positions as a list or an array of any integer dtype, unsigned ones too: an answer that took only
#: signed dtypes passed when only int64 and lists were drawn (a blind hostile round, stop 56).
POSITION_FORMS = ("int64", "list", "int32", "uint32", "uint64")


def _positions_as(p: np.ndarray, form: str):
    return p.tolist() if form == "list" else p.astype(form)


def _in_forms(case) -> list[dict]:
    call = case["call"]
    return [call, dict(call, **{name: S.as_form(call[name], form)[0] for name, form in case["forms"].items()},
                       positions=_positions_as(call["positions"], case["positions as"]),
                       num_heads=case["num_heads as numpy int"](call["num_heads"]) if case["num_heads as numpy int"] else call["num_heads"])]


@S.valid_inputs(calls=_in_forms)
@st.composite
def array_likes(draw):
    """A valid call and, for each array, the form it is passed in (float64, float32, int or list);
    positions as a list or an array of any integer dtype; num_heads as a Python int or a NumPy integer."""
    case = draw(PROBLEMS)
    forms = {name: FORM_NAMES[draw(ints(0, 3))] for name in INPUTS}
    return {"call": case, "forms": forms, "positions as": draw(st.sampled_from(POSITION_FORMS)),
            "num_heads as numpy int": draw(st.none() | S.INT_TYPES)}


@prop(case=array_likes())
@example(case={"call": _EXAMPLE, "forms": dict.fromkeys(INPUTS, "float64"), "positions as": "uint32", "num_heads as numpy int": None})
def test_accepts_array_likes_returns_float64_and_leaves_inputs_alone(kata, case):
    """Accepts lists, integer and float32 arrays (any memory layout) (positions as a list or of any integer dtype, unsigned too) and a NumPy integer num_heads, with the same answer as for float64 arrays and a Python int; returns float64; never writes into its inputs"""
    call, forms = case["call"], case["forms"]
    given, values = {}, {}
    for name, form in forms.items():
        given[name], values[name] = S.as_form(call[name], form)
    positions = _positions_as(call["positions"], case["positions as"])
    num_heads = case["num_heads as numpy int"](call["num_heads"]) if case["num_heads as numpy int"] else call["num_heads"]
    got = run(kata, dict(call, **given, positions=positions, num_heads=num_heads))
    want = run(kata, dict(call, **values))
    shown = message(f"{M}.why.forms", **forms, positions=case["positions as"],
                    num_heads=type(num_heads).__name__)
    for name, a, b in zip(OUTPUTS, got, want):
        check_close(a, b, name, message(f"{M}.why.against-own-float64", given=shown))


# -- Contract violations -> ValueError ---------------------------------------------------------


def bad_call(case, because) -> tuple[dict, dict]:
    return case, because


@st.composite
def num_heads_bool_or_float(draw):
    """A call valid except that num_heads is True (for one head) or a float like 2.0."""
    if draw(BOOLS):
        case = build(*_spec(draw, ONE_HEAD_SIZES))
        case["num_heads"] = draw(st.sampled_from([True, np.True_]))  # isinstance(h, bool) misses np.True_
        return bad_call(case, message(f"{M}.because.num-heads-bool", value="True"))
    case = draw(PROBLEMS)
    case["num_heads"] = draw(st.sampled_from([float, np.float32]))(case["num_heads"])  # (stop 57)
    return bad_call(case, message(f"{M}.because.num-heads-type", value=repr(case["num_heads"]), type="float"))


@rejects_each_call(num_heads_bool_or_float())
def test_rejects_a_bool_or_float_num_heads(kata, case):
    """num_heads that is a bool (True) or a float (2.0) raises ValueError, even though the shapes would fit"""


@st.composite
def num_heads_not_positive(draw):
    """A call whose num_heads is 0 or negative; the arrays are shaped for |num_heads| heads."""
    case = draw(PROBLEMS)
    case["num_heads"] = -case["num_heads"] if draw(BOOLS) else 0
    return bad_call(case, message(f"{M}.because.num-heads-not-positive", value=str(case["num_heads"])))


@rejects_each_call(num_heads_not_positive())
def test_rejects_zero_or_negative_num_heads(kata, case):
    """num_heads of 0 or below raises ValueError"""


@st.composite
def shapes_that_do_not_chain(draw):
    """A call valid except for one size: a row count of a projection, w_kr's width, w_uk's width
    against w_q's, a width not divisible by num_heads, or w_o's shape."""
    case = draw(MULTI_HEAD_PROBLEMS)
    z = sizes_of(case)
    rng = S.rng_for(draw(S.SEEDS))
    h = z["h"]
    kind = draw(ints(0, 6))
    if kind == 0:  # a projection from x with a row count other than d_model
        name = ("w_dkv", "w_q", "w_qr", "w_kr")[draw(ints(0, 3))]
        rows = z["d_model"] + draw(ints(1, 3))
        case[name] = S.normal(rng, (rows, case[name].shape[1]))
        what = message(f"{M}.because.rows", name=name, rows=str(rows), want=str(z["d_model"]), of="d_model")
    elif kind == 1:  # an up-projection with a row count other than d_c
        name = ("w_uk", "w_uv")[draw(ints(0, 1))]
        rows = z["d_c"] + draw(ints(1, 3))
        case[name] = S.normal(rng, (rows, case[name].shape[1]))
        what = message(f"{M}.because.rows", name=name, rows=str(rows), want=str(z["d_c"]), of="d_c")
    elif kind == 2:  # w_kr's width is not d_r
        width = z["d_r"] + 2 * draw(ints(1, 2))
        case["w_kr"] = S.normal(rng, (z["d_model"], width))
        what = message(f"{M}.because.w-kr-width", width=str(width), d_r=str(z["d_r"]))
    elif kind == 3:  # w_uk and w_q of different widths, both divisible by num_heads
        width = h * (z["d_h"] + draw(ints(1, 2)))
        case["w_uk"] = S.normal(rng, (z["d_c"], width))
        what = message(f"{M}.because.uk-q-widths", uk=str(width), q=str(h * z["d_h"]))
    elif kind == 4:  # w_uk and w_q with a width num_heads does not divide
        width = h * z["d_h"] + draw(ints(1, h - 1))
        case["w_uk"] = S.normal(rng, (z["d_c"], width))
        case["w_q"] = S.normal(rng, (z["d_model"], width))
        what = message(f"{M}.because.not-divisible", name="w_uk and w_q", width=str(width), h=str(h))
    elif kind == 5:  # w_uv's width not divisible (w_o with as many rows)
        width = h * z["d_v"] + draw(ints(1, h - 1))
        case["w_uv"] = S.normal(rng, (z["d_c"], width))
        case["w_o"] = S.normal(rng, (width, z["d_model"]))
        what = message(f"{M}.because.not-divisible", name="w_uv", width=str(width), h=str(h))
    else:  # w_o's rows or columns wrong
        rows, cols = h * z["d_v"], z["d_model"]
        if draw(BOOLS):
            rows += draw(ints(1, 3))
        else:
            cols += draw(ints(1, 3))
        case["w_o"] = S.normal(rng, (rows, cols))
        what = message(f"{M}.because.w-o-shape", shape=str((rows, cols)), want=str((h * z["d_v"], z["d_model"])))
    return bad_call(case, what)


@rejects_each_call(shapes_that_do_not_chain())
def test_rejects_shapes_that_do_not_chain(kata, case):
    """A projection whose rows or width do not fit (w_o not (num_heads * d_v, d_model), a width not divisible by num_heads, w_uk and w_q of different widths) raises ValueError"""


@st.composite
def an_odd_d_r(draw):
    """A call with d_r odd (1 or 3): w_qr (d_model, h * d_r) and w_kr (d_model, d_r)."""
    z, x_scale, seed = _spec(draw, SIZES)
    d_r = (1, 3)[draw(ints(0, 1))]
    case = build(z, x_scale, seed)
    rng = S.rng_for(seed + 1)
    case["w_qr"] = S.normal(rng, (z["d_model"], z["h"] * d_r))
    case["w_kr"] = S.normal(rng, (z["d_model"], d_r))
    return bad_call(case, message(f"{M}.because.odd-d-r", d_r=str(d_r)))


@rejects_each_call(an_odd_d_r())
def test_rejects_an_odd_rope_width(kata, case):
    """An odd RoPE width d_r (w_kr with 1 or 3 columns) raises ValueError: RoPE turns pairs of columns"""


@st.composite
def bad_positions(draw):
    """A call valid except for positions: a bool or float dtype, a negative entry, or a shape
    other than (n,)."""
    case = draw(PROBLEMS)
    p = case["positions"]
    kind = draw(ints(0, 4))
    if kind == 0:
        case["positions"] = p.astype(np.float64)
        what = message(f"{M}.because.positions-dtype", dtype="float64")
    elif kind == 1:
        case["positions"] = (p % 2).astype(bool)
        what = message(f"{M}.because.positions-dtype", dtype="bool")
    elif kind == 2:
        i = draw(ints(0, len(p) - 1))
        p = p.copy()
        p[i] = -1 - p[i]
        case["positions"] = p
        what = message(f"{M}.because.positions-negative", i=str(i), value=str(p[i]))
    elif kind == 3:
        case["positions"] = np.append(p, 64)
        what = message(f"{M}.because.positions-shape", shape=str(case["positions"].shape), n=str(len(p)))
    else:
        case["positions"] = p[None]
        what = message(f"{M}.because.positions-shape", shape=str(case["positions"].shape), n=str(len(p)))
    return bad_call(case, what)


@rejects_each_call(bad_positions())
def test_rejects_positions_that_are_not_n_non_negative_ints(kata, case):
    """positions of a float or bool dtype, with a negative entry, or not of shape (n,) raises ValueError"""


@rejects_each_call(CONTRACT.a_call_of_a_wrong_rank(PROBLEMS, forms={
    "1-D": lambda a: a[0], "3-D batch of 1": lambda a: a[None],
}))
def test_rejects_an_input_that_is_not_2d(kata, case):
    """An input array that is 1-D or 3-D raises ValueError"""


@st.composite
def a_zero_dimension(draw):
    """A call with consistent shapes in which one size (n, d_model, d_c, d_h, d_v or d_r) is 0
    (d_r = 0 is even, and still a zero dimension: w_qr and w_kr have no columns)."""
    z, x_scale, seed = _spec(draw, SIZES)
    return zero_size_call(z, ("n", "d_model", "d_c", "d_h", "d_v", "d_r")[draw(ints(0, 5))], x_scale, seed)


def zero_size_call(z: dict, which: str, x_scale: float = 1.0, seed: int = 0):
    z = dict(z, **{which: 0})
    case = build(z, x_scale, seed)
    shapes = ", ".join(f"{k} {np.shape(case[k])}" for k in INPUTS)
    return bad_call(case, message(f"{M}.because.zero-size", which=which, shapes=shapes))


#: d_r = 0 in every run: it is even, so only the zero-dimension rule rejects it.
@rejects_each_call(a_zero_dimension(), examples=[zero_size_call(SMALLEST, "d_r")])
def test_rejects_a_zero_dimension(kata, case):
    """An input with a zero-length dimension (n, d_model, d_c, d_h, d_v or d_r = 0) raises ValueError"""


@rejects_each_call(CONTRACT.a_call_with_a_non_finite_entry(PROBLEMS, index_from_seed=True))
def test_rejects_nan_or_inf_in_any_input(kata, case):
    """NaN, inf or -inf anywhere in x or a weight raises ValueError"""


@st.composite
def an_overflowing_score(draw):
    """A call with finite inputs in which the allowed score (p, p) of every head overflows.

    x[p, 0] = 1e156 and head g's block of w_qr's row 0 equals w_kr's row 0 (entries at least 0.5
    in size): q_r[p]·k_rope[p] is about 1e312 (same position: the rotation cancels), while every
    entry of every projection stays below 1e158.
    """
    case = draw(PROBLEMS)
    z = sizes_of(case)
    p = draw(ints(0, z["n"] - 1))
    w_kr = case["w_kr"]
    w_kr[0] = np.where(np.abs(w_kr[0]) < 0.5, 0.5, w_kr[0])
    case["w_qr"][0] = np.tile(w_kr[0], z["h"])
    case["w_q"][0] = np.round(case["w_dkv"][0] @ case["w_uk"], 2)  # the content part adds, never cancels
    case["x"][p, 0] = 1e156
    return bad_call(case, message(f"{M}.because.overflow", p=str(p)))


@rejects_each_call(an_overflowing_score())
def test_rejects_an_allowed_score_that_overflows(kata, case):
    """An allowed score that overflows to inf raises ValueError (instead of NaN), although every input is finite"""


@st.composite
def an_overflowing_out(draw):
    """A call with finite inputs and scores in which out overflows: x, w_dkv, w_uv and w_o made
    positive, w_uv and w_o scaled by 1e160 (v ~ 1e160, out ~ 1e320 in any order of the products)."""
    case = draw(PROBLEMS)
    for name in ("x", "w_dkv", "w_uv", "w_o"):  # all positive: no sum can cancel
        case[name] = np.abs(case[name]) + 0.5
    case["w_uv"] *= 1e160
    case["w_o"] *= 1e160
    return bad_call(case, message(f"{M}.because.out-overflow"))


@rejects_each_call(an_overflowing_out())
def test_rejects_an_out_that_overflows(kata, case):
    """An out that overflows (w_uv and w_o around 1e160) raises ValueError instead of returning inf or NaN"""
