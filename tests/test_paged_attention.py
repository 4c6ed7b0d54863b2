"""The judge for katas/paged_attention.py: paged_attention(q, k_pages, v_pages, block_table, context_len).

Shapes throughout: q (n, d_k) holds one sequence's n newest tokens; k_pages (P, page_size, d_k)
and v_pages (P, page_size, d_v) are the pool of cache pages; block_table (L,) lists the
sequence's pages in order; context_len m (n <= m <= L * page_size) counts its tokens. Logical
key t < m is k_pages[block_table[t // page_size], t % page_size]; query i sits at position
m - n + i and sees keys t <= m - n + i (bottom-right causal); out (n, d_v).

Every valid input the judge draws is laid out the way a paged cache is: the table names its
pages out of order, the pool holds pages the table does not name, the table may name a page
the context does not reach, and the last page's tail is unused. Everything outside the first
m logical slots is garbage: NaN, inf, huge or ordinary numbers. A correct answer never reads
it, so it changes neither the result nor whether the call raises.

Every bad input below breaks one rule of the contract, so a ValueError is the only right
answer. Left open by the contract and therefore never tested: a page listed twice in the
table, what happens when only a blocked (future) score overflows, a 0-d array as context_len,
and the wording of messages. Out of contract, so never drawn: |v| so large that a weighted sum
overflows before it is divided by the row's sum.
"""

import numpy as np
from hypothesis import example, strategies as st

from dojo.text.messages import message
from tests import oracle
from tests import largest as L
from tests import strategies as S
from tests.sizes import query_key_sizes
from tests.judge import (
    check_array,
    check_close,
    check_close_or_explain,
    check_leaves_inputs_alone,
    check_that,
    expect_value_error,
    prop,
    show,
)

FUNCTION = "paged_attention"
ARRAYS = ("q", "k_pages", "v_pages")
#: The judge's messages: dojo/catalogue/katas/paged_attention/<lang>/judge.toml.
M = "judge.paged_attention"


def PROBE():
    return {
        "q": np.array([[1.0, 0.0]]),
        "k_pages": np.array([[[1.0, 0.0], [0.0, 1.0]]]),
        "v_pages": np.array([[[1.0], [2.0]]]),
        "block_table": [0],
        "context_len": 2,
    }


def said(key: str, **params):
    """A message of this judge (``judge.paged_attention.<key>``), its parameters as text."""
    return message(f"{M}.{key}", **{k: str(v) for k, v in params.items()})


def run(kata, **call):
    """Call the candidate on a valid input; check it returns out, float64 (n, d_v), finite."""
    n, d_v = np.shape(call["q"])[0], np.shape(call["v_pages"])[2]
    out = check_array(kata(**call), "out", (n, d_v))
    bad = np.argwhere(~np.isfinite(out))
    check_that(not bad.size, said("fail.not-finite", index=tuple(int(i) for i in bad[0]) if bad.size else "",
                                  out=show(out)))
    return out


def gathered(case):
    """The contiguous cache (k, v) of a case: its first context_len logical slots, in order."""
    ps = case["k_pages"].shape[1]
    t = np.arange(int(case["context_len"]))
    pages, slots = np.asarray(case["block_table"])[t // ps], t % ps
    return case["k_pages"][pages, slots], case["v_pages"][pages, slots]


def sizes(case) -> dict:
    """The dimensions and the layout of a case, for failure messages (a message)."""
    (n, d_k), (P, ps, d_v) = np.shape(case["q"]), np.shape(case["v_pages"])
    m = int(case["context_len"])
    return said("why.sizes", n=n, m=m, d_k=d_k, d_v=d_v, P=P, page_size=ps,
                table=list(np.asarray(case["block_table"]).tolist()), offset=m - n)


# -- Oracle (torch, float64) -----------------------------------------------------------------


@oracle.memoised
def torch_paged_attention(q, k_pages, v_pages, block_table, *, context_len):
    """out: the used slots gathered with torch indexing (k_pages[table[t // page_size],
    t % page_size] for t < context_len), then SDPA with causal_lower_right(n, m)."""
    t = oracle.torch()
    from torch.nn.attention.bias import causal_lower_right

    q, k_pages, v_pages = oracle.tensor(q), oracle.tensor(k_pages), oracle.tensor(v_pages)
    table = t.from_numpy(np.asarray(block_table, dtype=np.int64))
    m, ps = context_len, k_pages.shape[1]
    pos = t.arange(m)
    k, v = k_pages[table[pos // ps], pos % ps], v_pages[table[pos // ps], pos % ps]
    out = t.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=causal_lower_right(q.shape[0], m))
    return (out.numpy(),)


@oracle.memoised
def torch_paged_masked_fill(q, k_pages, v_pages, block_table, *, context_len):
    """out from the same torch gather, then masked_fill(-inf) and torch.softmax, no SDPA (for
    scores near -4.3e9: SDPA scales q and k before their product, which may round those scores)."""
    t = oracle.torch()
    q, k_pages, v_pages = oracle.tensor(q), oracle.tensor(k_pages), oracle.tensor(v_pages)
    table = t.from_numpy(np.asarray(block_table, dtype=np.int64))
    m, ps, n = context_len, k_pages.shape[1], q.shape[0]
    pos = t.arange(m)
    k, v = k_pages[table[pos // ps], pos % ps], v_pages[table[pos // ps], pos % ps]
    allowed = t.ones(n, m, dtype=t.bool).tril(diagonal=m - n)
    scores = (q @ k.T / float(q.shape[1]) ** 0.5).masked_fill(~allowed, float("-inf"))
    return ((t.softmax(scores, dim=-1) @ v).numpy(),)


def expected(case, oracle_fn=torch_paged_attention):
    return oracle_fn(case["q"], case["k_pages"], case["v_pages"], np.asarray(case["block_table"]),
                     context_len=int(case["context_len"]))


# -- Strategies ------------------------------------------------------------------------------
# Sizes come from tests/sizes.py, the layout and the arrays from one seed (S.rng_for).


#: Sizes from tests/sizes.py (mostly small, sometimes 8 to 128), n <= m: "any" (pairwise
#: different, or n == m, a prefill, or d_k == d_v), "chunk" (2 <= n < m: several new tokens behind
#: a longer cache) or "decode" (n = 1).
SIZE_TABLES = {kind: query_key_sizes(kind) for kind in ("any", "chunk", "decode")}
#: Tokens per page: mostly 1 to 4, sometimes 8 to 128 (more than the whole context, often).
PAGE_SIZES = S.dims(1, 4)
KINDS = st.sampled_from(["ordinary", "large"])
#: What fills the slots outside the context: NaN and inf most often, since they show most.
GARBAGE = st.sampled_from(["nan", "inf", "mixed", "huge", "ordinary"])


def garbage(rng, shape, kind: str) -> np.ndarray:
    """Values for slots outside the context: ``kind`` NaN, ±inf, huge (±1e300), ordinary, or mixed."""
    if kind == "nan":
        return np.full(shape, np.nan)
    if kind == "inf":
        return rng.choice([np.inf, -np.inf], size=shape)
    if kind == "huge":
        return rng.choice([1e300, -1e300], size=shape)
    if kind == "ordinary":
        return S.normal(rng, shape, 3.0)
    return rng.choice([np.nan, np.inf, -np.inf, 1e300, -1e6, 2.5], size=shape)


def page(rng, k, v, page_size: int, kind: str) -> dict:
    """The contiguous cache k (m, d_k), v (m, d_v) laid out in a pool of pages: the table lists
    its pages out of order, may name one page past the context, and the pool holds up to two
    pages nobody names; every slot outside the context holds ``kind`` garbage."""
    m = k.shape[0]
    used = -(-m // page_size)
    length = used + int(rng.integers(0, 2))
    pool = length + int(rng.integers(0, 3))
    table = rng.permutation(pool)[:length].astype(np.int64)
    k_pages = garbage(rng, (pool, page_size, k.shape[1]), kind)
    v_pages = garbage(rng, (pool, page_size, v.shape[1]), kind)
    t = np.arange(m)
    k_pages[table[t // page_size], t % page_size] = k
    v_pages[table[t // page_size], t % page_size] = v
    return {"k_pages": k_pages, "v_pages": v_pages, "block_table": table, "context_len": m}


def draw_problem(draw, table="any", kind=None):
    """A valid call and the generator that made it (for further choices).

    ``kind``: "ordinary" (entries of size 0.3 to 10, drawn per array) or "large" (q and k
    entries ~100, so scores are ~1e4 and exp() overflows without the max shift)."""
    n, m, d_k, d_v = draw(SIZE_TABLES[table])
    page_size, junk = draw(PAGE_SIZES), draw(GARBAGE)
    kind = draw(KINDS) if kind is None else kind
    q_scale, k_scale = (100.0, 100.0) if kind == "large" else (draw(S.SCALES), draw(S.SCALES))
    v_scale = draw(S.SCALES)
    rng = S.rng_for(draw(S.SEEDS))
    q, k, v = S.normal(rng, (n, d_k), q_scale), S.normal(rng, (m, d_k), k_scale), S.normal(rng, (m, d_v), v_scale)
    return {"q": q, **page(rng, k, v, page_size, junk)}, rng


@S.valid_inputs()
@st.composite
def problems(draw, table="any", kind=None):
    """A valid call (see draw_problem)."""
    return draw_problem(draw, table, kind)[0]


def call_of(case) -> dict:
    """The keyword arguments of the kata in a case (less a property's extras)."""
    return {name: case[name] for name in (*ARRAYS, "block_table", "context_len")}


_THREE_NEW_OF_SEVEN = {
    # page size 3: table [2, 0, 3] holds tokens 0-2, 3-5, 6 (slots 7, 8 of page 3 unused);
    # page 1 belongs to nobody. Unused slots hold NaN and inf.
    "q": np.array([[1.0, 0.0], [0.5, -1.0], [-0.3, 0.8]]),
    "k_pages": np.array([
        [[0.2, 1.0], [1.0, -0.5], [0.0, 0.3]],
        [[np.nan, 1.0], [np.inf, 0.0], [1.0, -np.inf]],
        [[1.0, 1.0], [0.0, 2.0], [-1.0, 0.5]],
        [[1.5, -0.2], [np.nan, np.nan], [np.inf, 1e300]],
    ]),
    "v_pages": np.array([
        [[3.0], [-1.0], [0.5]],
        [[np.nan], [np.inf], [1.0]],
        [[1.0], [-1.0], [0.0]],
        [[2.0], [np.nan], [-np.inf]],
    ]),
    "block_table": np.array([2, 0, 3]),
    "context_len": 7,
}


def _example():
    return {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in _THREE_NEW_OF_SEVEN.items()}


# -- Properties of a correct answer -------------------------------------------------------


@prop(case=problems())
@example(case=_example())
# a context of 600 over 38 pages of 16: past vLLM-style partitions of 512 tokens (stop 55's blind round)
@example(case={"q": np.round(np.random.default_rng(73).standard_normal((3, 4)), 2), "k_pages": np.round(np.random.default_rng(74).standard_normal((40, 16, 4)), 2), "v_pages": np.round(np.random.default_rng(75).standard_normal((40, 16, 2)), 2),
               "block_table": np.random.default_rng(76).permutation(40)[:38], "context_len": 600})
# q's and k's entries sum past float64's largest (1e308 twice), their scores are 0: a check for NaN
# or inf written as np.isfinite(a.sum()) refuses this valid input (a blind hostile round, stop 57)
@example(case={"q": np.array([[1e308, 1e308, 0.0, 0.0]]), "k_pages": np.concatenate([np.array([[0.0, 0.0, 1e308, 1e308], [0.0, 0.0, 1e308, -1e308], [0.0, 0.0, 0.0, 0.0]]), np.zeros((1, 4))]).reshape(2, 2, 4), "v_pages": np.concatenate([np.array([[1.0], [3.0], [8.0]]), [[5.0]]]).reshape(2, 2, 1), "block_table": np.array([1, 0]), "context_len": 3})
def test_matches_torch_on_the_gathered_cache_with_the_mask_aligned_bottom_right(kata, case):
    """Matches torch: the used slots gathered through the block table, then scaled_dot_product_attention with causal_lower_right(n, m), for ordinary and large (~1e4) scores"""
    out = run(kata, **case)
    check_close(out, expected(case), "out", said("why.matches", sizes=sizes(case)))


#: Properties that draw no input: they build a fixed one themselves (tests/strategies.py).
INPUT_BUILT_INSIDE = ("test_the_largest_realistic_case_matches_torch",)


@prop(seed=st.just(0))
def test_the_largest_realistic_case_matches_torch(kata, seed):
    """The compare battery's largest realistic case (n = 8192) matches torch, checked as test_matches_torch_on_the_gathered_cache_with_the_mask_aligned_bottom_right checks its cases"""
    L.check_with(test_matches_torch_on_the_gathered_cache_with_the_mask_aligned_bottom_right, kata, L.largest_case("paged_attention"))


@S.valid_inputs(calls=lambda case: [call_of(case), dict(call_of(case), k_pages=case["new_k_pages"],
                                                         v_pages=case["new_v_pages"])])
@st.composite
def with_other_garbage(draw):
    """A valid call, and the same pool with every slot outside the context refilled with other
    garbage (NaN, inf, huge or ordinary numbers)."""
    case, rng = draw_problem(draw, kind="ordinary")
    kind = draw(GARBAGE)
    k, v = gathered(case)
    keep = np.zeros(case["k_pages"].shape[:2], dtype=bool)
    t = np.arange(case["context_len"])
    keep[case["block_table"][t // keep.shape[1]], t % keep.shape[1]] = True
    case["new_k_pages"] = np.where(keep[..., None], case["k_pages"], garbage(rng, case["k_pages"].shape, kind))
    case["new_v_pages"] = np.where(keep[..., None], case["v_pages"], garbage(rng, case["v_pages"].shape, kind))
    return case


@prop(case=with_other_garbage())
def test_slots_outside_the_context_change_nothing(kata, case):
    """Pages the table does not name and slots at or past context_len may hold anything (NaN, inf, huge numbers): the result stays the same"""
    before = run(kata, **call_of(case))
    after = run(kata, **dict(call_of(case), k_pages=case["new_k_pages"], v_pages=case["new_v_pages"]))
    why = lambda: said("why.garbage", sizes=sizes(case), k_pages=show(case["new_k_pages"], 2))  # noqa: E731
    check_close_or_explain(after, before, said("what.after-garbage"), why)
    check_close_or_explain(after, expected(case), said("what.after-garbage-torch"), why)


@prop(case=problems("chunk", "ordinary"))
@example(case=_example())
def test_decoding_one_token_at_a_time_reproduces_the_full_pass(kata, case):
    """Decoding one token at a time (n = 1, the same pages and table, context_len = its position + 1) gives the rows of one full pass"""
    out = run(kata, **case)
    n, m = out.shape[0], int(case["context_len"])
    for i in range(n):
        p = m - n + i
        step = run(kata, **dict(case, q=case["q"][i : i + 1], context_len=p + 1))
        why = said("why.decoding", i=i, next=i + 1, p=p, end=p + 1, sizes=sizes(case))
        check_close(step[0], out[i], said("what.decoding-out", i=i), why)


#: Column 0 of q is -2**a and of k +2**b (times t_j), so every score is about -2**(e - 1) t_j for
#: e = a + b, drawn over every decade down to the edge of overflow (scores from -2**31, about
#: -2e9, to about -1e306), so no finite fill (-1e9, -1e10, -1e20, ...) passes. Up to e = 36 every
#: t_j = 1: the scores are exact and lie close together, so the weights are soft. From e = 37 the
#: t_j are 1..m in random order: the scores of one query lie >= 2**36 apart, so the weights are
#: one-hot whatever the rounding (soft weights at such sizes would be decided by the last bits:
#: an answer that takes a logsumexp there rounds it by more than the tolerance).
SOFT_EXPONENTS, ONE_HOT_EXPONENTS = st.integers(32, 36), st.integers(37, 1008)
#: A score of -3.4e10 is a float64 with an ulp of 8e-6: an answer that rounds it once (a
#: logsumexp taken at that size, say) is off by about that much, and it is right. A finite fill
#: puts all the weight on the future keys instead, off by the size of v.
FAR_TOLERANCE = 1e-4


@S.valid_inputs()
@st.composite
def far_below_minus_1e9(draw):
    """A chunk (n >= 2) whose every score is far below -1e9, from -2e9 down to -1e306: column 0
    of q is -2**(e // 2) and of k +2**(e - e // 2) t_j (SOFT_EXPONENTS, ONE_HOT_EXPONENTS), the other three columns
    small integers (d_k = 4, so 1/sqrt(d_k) = 1/2 and every score is exact in float64 while the
    weights are soft)."""
    n, m, _, d_v = draw(SIZE_TABLES["chunk"])
    page_size, junk = draw(PAGE_SIZES), draw(GARBAGE)
    e = draw(SOFT_EXPONENTS | ONE_HOT_EXPONENTS)
    rng = S.rng_for(draw(S.SEEDS))
    steps = np.ones((m, 1)) if e <= 36 else rng.permutation(m)[:, None] + 1.0
    e = min(e, 1018 - int(np.ceil(np.log2(m))))  # every score, t_j included, below 2**1017
    q = np.hstack([np.full((n, 1), -(2.0 ** (e // 2))), rng.integers(-3, 4, size=(n, 3)).astype(np.float64)])
    k = np.hstack([2.0 ** (e - e // 2) * steps, rng.integers(-3, 4, size=(m, 3)).astype(np.float64)])
    v = S.normal(rng, (m, d_v), draw(S.SCALES))
    return {"q": q, **page(rng, k, v, page_size, junk)}


@prop(case=far_below_minus_1e9())
def test_allowed_scores_far_below_minus_1e9_still_win_over_the_future(kata, case):
    """Scores far below -1e9 (from -2e9 down to -1e306) are still valid: the future keys stay at weight 0 (a finite fill such as -1e9 or -1e10 instead of -inf would take all the weight)"""
    out = run(kata, **case)
    check_close(out, expected(case, torch_paged_masked_fill), "out", said("why.far-below", sizes=sizes(case)),
                rtol=FAR_TOLERANCE, atol=FAR_TOLERANCE)


#: How the arguments arrive: q and the pages as float64, float32, integers or lists; the table
#: as a list of ints, or int32, uint8, int64 arrays; context_len as a Python or NumPy int.
TABLE_FORMS = ("list", "int32", "uint8", "int64")
#: Unsigned and narrow ones too: `(context_len + page_size - 1) // page_size` wraps in np.uint8
#: (NumPy 2 keeps a NumPy scalar's type; a blind hostile round, stop 54).
CONTEXT_FORMS = ("int", "np.int64", "np.int32", "np.uint16", "np.uint8")
FORMS = st.tuples(S.INPUT_FORMS, S.INPUT_FORMS, st.sampled_from(TABLE_FORMS), st.sampled_from(CONTEXT_FORMS))


def table_as(table, form):
    return table.tolist() if form == "list" else table.astype(form)


_rng = np.random.default_rng(54)
_UINT8_WRAPS = {"q": np.round(_rng.standard_normal((1, 2)), 2), "k_pages": np.round(_rng.standard_normal((32, 8, 2)), 2),
                "v_pages": np.round(_rng.standard_normal((32, 8, 3)), 2), "block_table": np.arange(32), "context_len": 250}


def context_as(m, form):
    if form == "np.uint8" and m > 255:
        form = "np.uint16"
    return {"int": int, "np.int64": np.int64, "np.int32": np.int32, "np.uint16": np.uint16, "np.uint8": np.uint8}[form](m)


@prop(case=problems(kind="ordinary", table="any"), forms=FORMS)
@example(case=_example(), forms=("list", "float32", "list", "np.int64"))
# context_len = np.uint8(250) over pages of 8: (250 + 8 - 1) wraps to 1 in uint8, so an answer
# that counts its pages in context_len's own type uses none (a blind hostile round, stop 54)
@example(case=_UINT8_WRAPS, forms=("float64", "float64", "int64", "np.uint8"))
def test_accepts_array_likes_and_returns_float64(kata, case, forms):
    """Accepts lists and integer or float32 arrays (any memory layout) for q and the pages, a list or any integer array as block_table, a NumPy integer as context_len; computes and returns float64"""
    q_form, pages_form, table_form, context_form = forms
    if pages_form != "float64":  # an integer or float32 page cannot hold the garbage as drawn
        finite = np.isfinite(case["k_pages"]).all(axis=2, keepdims=True) & np.isfinite(case["v_pages"]).all(axis=2, keepdims=True)
        keep = np.abs(case["k_pages"]).max(axis=2, keepdims=True) < 1e30
        clean = finite & keep & (np.abs(case["v_pages"]).max(axis=2, keepdims=True) < 1e30)
        case = dict(case, k_pages=np.where(clean, case["k_pages"], 7.0), v_pages=np.where(clean, case["v_pages"], -7.0))
    args, values = {}, {}
    args["q"], values["q"] = S.as_form(case["q"], q_form)
    for name in ("k_pages", "v_pages"):
        args[name], values[name] = S.as_form(case[name], pages_form)
    args["block_table"] = table_as(case["block_table"], table_form)
    args["context_len"] = context_as(case["context_len"], context_form)
    out = run(kata, **args)
    want = expected(dict(case, **values))
    given = said("why.forms", q=q_form, pages=pages_form, table=table_form, context=context_form)
    check_close(out, want, "out", said("why.convert", given=given))


@prop(case=problems())
def test_does_not_modify_its_inputs(kata, case):
    """q, k_pages, v_pages and block_table are left exactly as they were"""
    check_leaves_inputs_alone(lambda: run(kata, **case), case, FUNCTION)


# -- Contract violations -> ValueError ------------------------------------------------------
# Where a rule can be broken in several ways, one example tries each way in turn.


@prop(case=problems(kind="ordinary"))
def test_rejects_q_not_2d_or_pages_not_3d(kata, case):
    """q that is not 2-D, or k_pages or v_pages that is not 3-D (one page, a batch axis, a scalar), raises ValueError"""
    q, k, v = case["q"], case["k_pages"], case["v_pages"]
    for name, bad in (("q", q[-1].copy()), ("q", q[None].copy()), ("q", np.float64(q[0, 0])),
                      ("k_pages", k[0].copy()), ("k_pages", k[None].copy()),
                      ("v_pages", v[0].copy()), ("v_pages", v[:, :, :, None].copy())):
        expect_value_error(lambda: kata(**dict(case, **{name: bad})),
                           said("because.rank", name=name, shape=np.shape(bad),
                                want="2-D (n, d_k)" if name == "q" else "3-D (P, page_size, d)"))


@prop(case=problems(kind="ordinary"))
def test_rejects_a_zero_dimension(kata, case):
    """An empty q or pool (n, d_k, d_v, P or page_size equal to 0) raises ValueError"""
    (n, d_k), (P, ps, d_v) = case["q"].shape, case["v_pages"].shape
    for label, q_shape, k_shape, v_shape in (
        ("n = 0", (0, d_k), (P, ps, d_k), (P, ps, d_v)),
        ("d_k = 0", (n, 0), (P, ps, 0), (P, ps, d_v)),
        ("d_v = 0", (n, d_k), (P, ps, d_k), (P, ps, 0)),
        ("P = 0", (n, d_k), (0, ps, d_k), (0, ps, d_v)),
        ("page_size = 0", (n, d_k), (P, 0, d_k), (P, 0, d_v)),
    ):
        bad = dict(case, q=np.ones(q_shape), k_pages=np.ones(k_shape), v_pages=np.ones(v_shape))
        expect_value_error(lambda: kata(**bad), said("because.zero-size", label=label,
                                                      shapes=f"q {q_shape}, k_pages {k_shape}, v_pages {v_shape}"))


@prop(case=problems(kind="ordinary"), seed=S.SEEDS)
def test_rejects_sizes_that_disagree(kata, case, seed):
    """q and k_pages of different widths (d_k), or k_pages and v_pages with a different number of pages or page size, raise ValueError"""
    rng = S.rng_for(seed)
    (n, d_k), (P, ps, d_v) = case["q"].shape, case["v_pages"].shape
    other = lambda size: int(rng.choice([s for s in range(1, max(7, size + 2)) if s != size]))  # noqa: E731
    d_k2 = other(d_k)
    for name, bad, because in (
        ("q", S.normal(rng, (n, d_k2)), said("because.widths", q_width=d_k2, k_width=d_k)),
        ("v_pages", np.concatenate([case["v_pages"], case["v_pages"][:1]]),
         said("because.pool", k_shape=(P, ps), v_shape=(P + 1, ps))),
        ("v_pages", np.concatenate([case["v_pages"], case["v_pages"][:, :1]], axis=1),
         said("because.pool", k_shape=(P, ps), v_shape=(P, ps + 1))),
    ):
        expect_value_error(lambda: kata(**dict(case, **{name: bad})), because)


_BAD_TABLES = {
    "2-D (1, L)": lambda t: t[None].copy(),
    "0-d": lambda t: np.int64(t[0]),
    "float64": lambda t: t.astype(np.float64),
    "list of floats": lambda t: [float(x) for x in t],
    "bool": lambda t: np.ones(t.shape, dtype=bool),
}


@prop(case=problems(kind="ordinary"), how=st.sampled_from(list(_BAD_TABLES)))
@example(case=_example(), how="float64")
@example(case=_example(), how="bool")
def test_rejects_a_block_table_that_is_not_1d_integers(kata, case, how):
    """block_table that is not 1-D, or not of an integer dtype (float, even whole numbers; bool), raises ValueError"""
    bad = _BAD_TABLES[how](case["block_table"])
    expect_value_error(lambda: kata(**dict(case, block_table=bad)), said("because.table", how=how, table=repr(bad)))


@prop(case=problems(kind="ordinary"), seed=S.SEEDS)
@example(case=_example(), seed=0)
def test_rejects_a_table_entry_outside_the_pool(kata, case, seed):
    """An entry of block_table outside [0, P), used or not, raises ValueError: -1 is not the last page"""
    rng = S.rng_for(seed)
    table, P = case["block_table"], case["k_pages"].shape[0]
    used = -(-int(case["context_len"]) // case["k_pages"].shape[1])
    for where, value in (("used", -1), ("used", -int(rng.integers(1, P + 1))), ("used", P), ("unused", -1),
                         ("unused", P + int(rng.integers(0, 3)))):
        bad = table.copy()
        if where == "used":
            i = int(rng.integers(0, used))
        else:  # an entry past the context: appended, so the capacity only grows
            bad, i = np.append(bad, 0), len(bad)
        bad[i] = value
        expect_value_error(lambda: kata(**dict(case, block_table=bad)),
                           said("because.entry", i=i, value=value, P=P, where=said(f"part.{where}")))


@prop(case=problems("decode", "ordinary"), how=st.sampled_from(["True", "np.True_", "1.0", "np.float64"]))
@example(case=_example(), how="1.0")
def test_rejects_a_context_len_that_is_not_an_int(kata, case, how):
    """context_len that is a bool (True is not 1 here) or a float (even a whole one) raises ValueError"""
    m = int(case["context_len"])
    bad = {"True": True, "np.True_": np.True_, "1.0": float(m), "np.float64": np.float64(m)}[how]
    call = dict(case, q=case["q"][:1]) if how in ("True", "np.True_") else case  # True == 1 >= n = 1
    expect_value_error(lambda: kata(**dict(call, context_len=bad)),
                       said("because.context-type", value=repr(bad), type=type(bad).__name__))


@prop(case=problems(kind="ordinary"))
@example(case=_example())
def test_rejects_a_context_len_out_of_range(kata, case):
    """context_len below 1, below n, or past len(block_table) * page_size raises ValueError"""
    n, L, ps = case["q"].shape[0], len(case["block_table"]), case["k_pages"].shape[1]
    for bad in sorted({0, n - 1, L * ps + 1, -1}):
        expect_value_error(lambda: kata(**dict(case, context_len=bad)),
                           said("because.context-range", m=bad, n=n, capacity=L * ps, L=L, page_size=ps))


@prop(case=problems(kind="ordinary"), value=S.non_finite_values(), seed=S.SEEDS)
@example(case=_example(), value=np.nan, seed=3)
def test_rejects_nan_or_inf_in_q_or_a_used_slot(kata, case, value, seed):
    """NaN or inf in q, or in a key or value slot the context uses (a future one too), raises ValueError"""
    rng = S.rng_for(seed)
    n, m, ps = case["q"].shape[0], int(case["context_len"]), case["k_pages"].shape[1]
    for name in ARRAYS:
        a = case[name].copy()
        if name == "q":
            index = tuple(int(rng.integers(0, s)) for s in a.shape)
        else:  # half the time (n >= 2) a slot that query 0 cannot see
            t = int(rng.integers(m - n + 1, m)) if n >= 2 and rng.random() < 0.5 else int(rng.integers(0, m))
            index = (int(case["block_table"][t // ps]), t % ps, int(rng.integers(0, a.shape[2])))
        a[index] = value
        expect_value_error(lambda: kata(**dict(case, **{name: a})),
                           said("because.non-finite", name=name, index=index, value=value))


@st.composite
def with_an_allowed_score_overflowing(draw):
    """q[i] and the slot of key j <= m - n + i an ``S.overflowing_pair``: that score is past 1e396."""
    case, rng = draw_problem(draw, kind="ordinary")
    n, m, ps = case["q"].shape[0], int(case["context_len"]), case["k_pages"].shape[1]
    i = int(rng.integers(0, n))
    j = int(rng.integers(0, m - n + i + 1))
    slot = case["block_table"][j // ps], j % ps
    case["q"][i], case["k_pages"][slot] = S.overflowing_pair(rng, case["q"].shape[1], draw(st.booleans()))
    return case, i, j


@prop(bad=with_an_allowed_score_overflowing())
def test_rejects_an_allowed_score_that_overflows(kata, bad):
    """An allowed score q[i]·k_t / sqrt(d_k) (t <= m - n + i) that overflows to inf raises ValueError (instead of NaN)"""
    case, i, j = bad
    ps = case["k_pages"].shape[1]
    key = case["k_pages"][case["block_table"][j // ps], j % ps]
    expect_value_error(lambda: kata(**case), S.mixed_overflow(said("because.overflow", i=i, j=j), case["q"][i], key))
