"""The judge for katas/kv_cache_attention.py: cached_causal_attention(q, k, v).

Shapes throughout: q (n, d_k) holds the n newest tokens, k (m, d_k) and v (m, d_v) the cache of
all m >= n tokens so far; out (n, d_v), weights (n, m). Query i sits at position p_i = m - n + i
and sees keys j <= p_i: the causal mask is aligned to the bottom-right corner.

Most valid inputs have n < m and n, m, d_k, d_v all different, so a top-left mask, a scale by
the wrong width or a softmax over the wrong axis changes the answer; about one in four has
n == m or d_k == d_v, because code can branch on shapes.

Every bad input below breaks one rule of the contract (m = 0 also makes m < n), so a ValueError
is the only right answer. Left open by the contract and therefore never tested: what happens
when only a blocked (future) score overflows, and the wording of messages. Out of contract, so
never drawn: |v| so large that a weighted sum overflows before it is divided by the row's sum.
"""

import numpy as np
from hypothesis import example, strategies as st

from dojo.text.messages import message
from tests import oracle
from tests import largest as L
from tests import strategies as S
from tests.sizes import query_key_sizes
from tests.contract import QKV, Contract, not_2d_forms
from tests.judge import (
    check_close,
    check_close_or_explain,
    check_finite,
    check_leaves_inputs_alone,
    check_pair,
    check_that,
    expect_value_error,
    prop,
    show,
)

FUNCTION = "cached_causal_attention"
NAMES = ("q", "k", "v")
#: The judge's messages: dojo/catalogue/katas/kv_cache_attention/<lang>/judge.toml.
M = "judge.kv_cache_attention"


def PROBE():
    return {
        "q": np.array([[1.0, 0.0]]),
        "k": np.array([[1.0, 0.0], [0.0, 1.0]]),
        "v": np.array([[1.0], [2.0]]),
    }


#: The arrays of the contract: q (n, d_k), k (m, d_k), v (m, d_v).
CONTRACT = Contract(QKV)


def run(kata, q, k, v):
    """Call the candidate on a valid input; check it returns (out, weights), float64, of shapes
    (n, d_v) and (n, m), with no NaN or inf."""
    n, m, d_v = np.shape(q)[0], np.shape(k)[0], np.shape(v)[1]
    out, weights = check_pair(kata(q=q, k=k, v=v), FUNCTION, (n, d_v), (n, m))
    return check_finite(out, weights)


def sizes(case) -> dict:
    """The dimensions of a case, named, for failure messages (a message)."""
    (n, d_k), (m, d_v) = np.shape(case["q"]), np.shape(case["v"])
    return message(f"{M}.why.sizes", n=str(n), m=str(m), d_k=str(d_k), d_v=str(d_v), offset=str(m - n))


def allowed_of(n: int, m: int) -> np.ndarray:
    """(n, m) bool, True where query i (position m - n + i) may attend key j."""
    return np.tril(np.ones((n, m), dtype=bool), k=m - n)


# -- Oracle (torch, float64) -----------------------------------------------------------------


@oracle.memoised
def torch_cached_attention(q, k, v):
    """(out, weights): out from SDPA with torch's causal_lower_right(n, m) bias, weights from
    masked_fill(-inf) and torch.softmax with the same mask (tril(ones(n, m), diagonal=m - n),
    which torch documents as causal_lower_right)."""
    t = oracle.torch()
    from torch.nn.attention.bias import causal_lower_right

    q, k, v = oracle.tensor(q), oracle.tensor(k), oracle.tensor(v)
    n, m = q.shape[0], k.shape[0]
    out = t.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=causal_lower_right(n, m))
    allowed = t.ones(n, m, dtype=t.bool).tril(diagonal=m - n)
    scores = (q @ k.T / float(q.shape[1]) ** 0.5).masked_fill(~allowed, float("-inf"))
    return out.numpy(), t.softmax(scores, dim=-1).numpy()


@oracle.memoised
def torch_masked_fill_attention(q, k, v):
    """(out, weights) from masked_fill(-inf) and torch.softmax only, no SDPA: SDPA adds its mask
    as a -inf bias, so a blocked score of +inf would turn the whole row into NaN."""
    t = oracle.torch()
    q, k, v = oracle.tensor(q), oracle.tensor(k), oracle.tensor(v)
    n, m = q.shape[0], k.shape[0]
    allowed = t.ones(n, m, dtype=t.bool).tril(diagonal=m - n)
    scores = (q @ k.T / float(q.shape[1]) ** 0.5).masked_fill(~allowed, float("-inf"))
    weights = t.softmax(scores, dim=-1)
    return (weights @ v).numpy(), weights.numpy()


@oracle.memoised
def torch_causal_self_attention(q, k, v):
    """(out, weights) of SDPA with is_causal=True (top-left aligned; here n == m)."""
    t = oracle.torch()
    q, k, v = oracle.tensor(q), oracle.tensor(k), oracle.tensor(v)
    n = q.shape[0]
    out = t.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
    scores = (q @ k.T / float(q.shape[1]) ** 0.5).masked_fill(
        ~t.ones(n, n, dtype=t.bool).tril(), float("-inf")
    )
    return out.numpy(), t.softmax(scores, dim=-1).numpy()


# -- Strategies ------------------------------------------------------------------------------
# A case's sizes come from tests/sizes.py (mostly small, sometimes 8 to 128), its arrays from one
# seed (tests/strategies.py: S.rng_for, S.normal). Strategies are built once, at import:
# Hypothesis validates every new strategy object, which would dominate the run time.

SIZE_TABLES = {
    #: n < m and n, m, d_k, d_v pairwise different (the corner, the scale and the axes all
    #: show), or a realistic coincidence: the cache holds only the new tokens (n == m), or d_k == d_v.
    "any": query_key_sizes("any"),
    #: A chunk of several new tokens behind a longer cache: 2 <= n < m.
    "chunk": query_key_sizes("chunk"),
    #: n == m: the cache holds exactly the new tokens (prefill of a whole prompt).
    "prefill": query_key_sizes("prefill"),
}
KINDS = st.sampled_from(["ordinary", "large"])
ORDINARY = st.just("ordinary")


def draw_problem(draw, table="any", kind=None):
    """Valid inputs {q, k, v} and the generator that made them (for further choices).

    ``kind``: "ordinary" (entries of size 0.3 to 10, drawn per array), "large" (q and k
    entries ~100, so scores are ~1e4 and exp() overflows without the max shift) or "far below"
    (every score from about -1e9 down to the edge of overflow: S.scores_far_below).
    """
    n, m, d_k, d_v = draw(SIZE_TABLES[table])
    kind = draw(KINDS) if kind is None else kind
    q_scale, k_scale = (100.0, 100.0) if kind == "large" else (draw(S.SCALES), draw(S.SCALES))
    v_scale = draw(S.SCALES)
    rng = S.rng_for(draw(S.SEEDS))
    case = {
        "q": S.normal(rng, (n, d_k), q_scale),
        "k": S.normal(rng, (m, d_k), k_scale),
        "v": S.normal(rng, (m, d_v), v_scale),
    }
    if kind == "far below":
        case["q"], case["k"] = S.scores_far_below(rng, case["q"], case["k"], draw(S.FAR_DECADES))
    return case, rng


@S.valid_inputs()
@st.composite
def problems(draw, table="any", kind=None):
    """Valid inputs {q, k, v} (see draw_problem)."""
    return draw_problem(draw, table, kind)[0]


# -- Properties of a correct answer -------------------------------------------------------

_TWO_NEW_OF_FIVE = {
    "q": np.array([[1.0, 0.0, 2.0], [0.5, -1.0, 0.3]]),
    "k": np.array([[1.0, 1.0, 0.0], [0.0, 2.0, 1.0], [-1.0, 0.5, 0.2], [0.3, 0.3, -0.7], [1.5, -0.2, 0.4]]),
    "v": np.array([[1.0, 2.0], [-1.0, 0.5], [0.0, 2.0], [3.0, -1.0], [0.5, 0.5]]),
}

#: Every score lies far below -1e9 (q and k with large opposite entries): a finite fill of -1e9
#: for the future keys takes all the weight.
_FAR_BELOW = {
    "q": np.array([[1e6, 0.5], [1e6, 2.0]]),
    "k": np.array([[-3e6, 1.0], [-2e6, 0.0], [-1e6, 1.0], [-4e6, 0.5]]),
    "v": np.array([[1.0, 2.0], [-1.0, 0.5], [0.0, 2.0], [3.0, -1.0]]),
}


@prop(case=problems() | problems("chunk", "far below"))
@example(case=_TWO_NEW_OF_FIVE)
@example(case=_FAR_BELOW)
# an allowed score of exactly finfo.min: a fill of finfo.min ties with it (stop 54's blind round)
@example(case={"q": np.array([[np.finfo(np.float64).min], [1.0]]), "k": np.array([[1.0], [1.0]]), "v": np.array([[1.0], [5.0]])})
# 2100 keys: past nanoGPT's causal mask precomputed for block_size = 1024 (stop 55's blind round)
# and past one precomputed for 2048 positions (stop 58's); 3 queries keep it cheap
@example(case={"q": np.round(np.random.default_rng(64).standard_normal((3, 4)), 2), "k": np.round(np.random.default_rng(65).standard_normal((2100, 4)), 2), "v": np.round(np.random.default_rng(66).standard_normal((2100, 2)), 2)})
# two equal allowed scores of -1e20 at the top: weights 1/2 each, where exp(s - logsumexp(s))
# gives 1 each (the log 2 rounds away out there; stop 56)
@example(case={"q": np.array([[1e20]]), "k": np.array([[-1.0], [-1.0], [-2.0]]), "v": np.array([[1.0], [3.0], [7.0]])})
# q's and k's entries sum past float64's largest (1e308 twice), their scores are 0: a check for NaN
# or inf written as np.isfinite(a.sum()) refuses this valid input (a blind hostile round, stop 57)
@example(case={"q": np.array([[1e308, 1e308, 0.0, 0.0]]), "k": np.array([[0.0, 0.0, 1e308, 1e308], [0.0, 0.0, 1e308, -1e308], [0.0, 0.0, 0.0, 0.0]]), "v": np.array([[1.0], [3.0], [8.0]])})
def test_matches_torch_with_the_mask_aligned_bottom_right(kata, case):
    """Matches torch's scaled_dot_product_attention with causal_lower_right(n, m), for ordinary, large (~1e4) and far-below-zero scores (from about -1e9 down to the edge of overflow)"""
    out, weights = run(kata, **case)
    want_out, want_weights = torch_cached_attention(case["q"], case["k"], case["v"])
    n, m = weights.shape
    check_close(
        weights,
        want_weights,
        "weights",
        message(f"{M}.why.bottom-right", offset=str(m - n), sizes=sizes(case)),
    )
    check_close(out, want_out, "out", message(f"{M}.why.out", sizes=sizes(case)))


#: Properties that draw no input: they build a fixed one themselves (tests/strategies.py).
INPUT_BUILT_INSIDE = ("test_the_largest_realistic_case_matches_torch",)


@prop(seed=st.just(0))
def test_the_largest_realistic_case_matches_torch(kata, seed):
    """The compare battery's largest realistic case (n = 1024) matches torch, checked as test_matches_torch_with_the_mask_aligned_bottom_right checks its cases"""
    L.check_with(test_matches_torch_with_the_mask_aligned_bottom_right, kata, L.largest_case("kv_cache_attention"))


@prop(case=problems("prefill"))
def test_with_m_equal_to_n_it_is_ordinary_causal_attention(kata, case):
    """With m == n (the cache holds only the new tokens) it is ordinary causal attention: torch's is_causal=True"""
    out, weights = run(kata, **case)
    want_out, want_weights = torch_causal_self_attention(case["q"], case["k"], case["v"])
    why = message(f"{M}.why.prefill", sizes=sizes(case))
    check_close(weights, want_weights, "weights", why)
    check_close(out, want_out, "out", why)


@prop(case=problems())
def test_future_weights_are_exactly_zero_and_rows_sum_to_one(kata, case):
    """Query i puts weight only on keys j <= m - n + i (exactly 0 after that), and each row sums to 1"""
    out, weights = run(kata, **case)
    n, m = weights.shape
    leaked = np.argwhere(~allowed_of(n, m) & (weights != 0.0))
    if leaked.size:
        i, j = (int(x) for x in leaked[0])
        check_that(
            False,
            message(f"{M}.fail.future-not-zero", i=str(i), j=str(j), p=str(m - n + i),
                    value=repr(float(weights[i, j])), sizes=sizes(case), weights=show(weights)),
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


@prop(case=problems())
def test_the_newest_token_attends_to_the_whole_cache(kata, case):
    """The last query (position m - 1) sees every key: its row is plain attention over the whole cache"""
    out, weights = run(kata, **case)
    q, k, v = case["q"], case["k"], case["v"]
    want_out, want_weights = oracle.attention(q[-1:], k, v, None)
    n, m = weights.shape
    why = message(f"{M}.why.newest", last=str(n - 1), position=str(m - 1), sizes=sizes(case))
    check_close(weights[-1], want_weights[0], f"weights[{n - 1}]", why)
    check_close(out[-1], want_out[0], f"out[{n - 1}]", why)


@prop(case=problems("chunk", ORDINARY))
@example(case=_TWO_NEW_OF_FIVE)
def test_decoding_one_token_at_a_time_reproduces_the_full_pass(kata, case):
    """Decoding one token at a time (n = 1 against the cache up to it) gives the rows of one full pass"""
    q, k, v = case["q"], case["k"], case["v"]
    out, weights = run(kata, **case)
    n, m = weights.shape
    for i in range(n):
        p = m - n + i
        step_out, step_weights = run(kata, q=q[i : i + 1], k=k[: p + 1], v=v[: p + 1])
        why = message(f"{M}.why.decoding", i=str(i), next=str(i + 1), end=str(p + 1), p=str(p), sizes=sizes(case))
        check_close(step_weights[0], weights[i, : p + 1], message(f"{M}.what.decoding-weights", i=str(i)), why)
        check_close(step_out[0], out[i], message(f"{M}.what.decoding-out", i=str(i)), why)


def _the_full_pass_and_its_chunks(case) -> list[dict]:
    """The calls of a with_chunks case: the full pass, then each chunk against the cache up to it."""
    q, k, v = case["q"], case["k"], case["v"]
    n, m = q.shape[0], k.shape[0]
    bounds = [0, *case["cuts"], n]
    return [{"q": q, "k": k, "v": v}] + [
        {"q": q[a:b], "k": k[: m - n + b], "v": v[: m - n + b]} for a, b in zip(bounds, bounds[1:])
    ]


@S.valid_inputs(calls=_the_full_pass_and_its_chunks)
@st.composite
def with_chunks(draw):
    """A chunk of new tokens and random cut points splitting it into smaller chunks."""
    case, rng = draw_problem(draw, "chunk", "ordinary")
    n = case["q"].shape[0]
    cuts = np.flatnonzero(rng.random(n - 1) < 0.5) + 1
    if cuts.size == 0:
        cuts = np.array([int(rng.integers(1, n))])
    case["cuts"] = [int(c) for c in cuts]
    return case


@prop(case=with_chunks())
def test_chunked_prefill_reproduces_the_full_pass(kata, case):
    """Feeding the new tokens in chunks, each against the cache up to its last token, gives the rows of one full pass"""
    q, k, v = case["q"], case["k"], case["v"]
    out, weights = run(kata, q=q, k=k, v=v)
    n, m = weights.shape
    bounds = [0, *case["cuts"], n]
    for a, b in zip(bounds, bounds[1:]):
        end = m - n + b  # the cache up to the chunk's last token
        chunk_out, chunk_weights = run(kata, q=q[a:b], k=k[:end], v=v[:end])
        why = message(f"{M}.why.chunk", a=str(a), b=str(b), end=str(end), last=str(b - 1), sizes=sizes(case))
        check_close(chunk_weights, weights[a:b, :end], message(f"{M}.what.chunk-weights", a=str(a), b=str(b)), why)
        check_close(chunk_out, out[a:b], message(f"{M}.what.chunk-out", a=str(a), b=str(b)), why)


BIG = st.sampled_from([1e6, 1e10, 1e150])
BOOLEANS = st.booleans()



@S.valid_inputs(calls=S.calls_with_the_future_replaced)
@st.composite
def with_a_changed_future(draw):
    """A chunk, a query ``i`` (not the last), and huge new keys and values after its position.

    The new keys k[p_i + 1:] are 1e6 to 1e150 times a vector and every score stays finite.
    Half the time they point along q[i], so query i's blocked scores are hugely positive:
    adding -1e9 instead of -inf then leaks, and a max or softmax taken before masking
    underflows the allowed keys.
    """
    case, rng = draw_problem(draw, "chunk", "ordinary")
    big, aligned = draw(BIG), draw(BOOLEANS)
    q = case["q"]
    n, m = q.shape[0], case["k"].shape[0]
    i = int(rng.integers(0, n - 1))
    later = m - (m - n + i + 1)
    direction = q[i] if aligned and np.any(q[i]) else S.normal(rng, q.shape[1]) + 0.5
    case["i"] = i
    case["new_k"] = np.outer(rng.uniform(0.5, 2.0, later), np.round(direction, 2)).round(2) * big
    case["new_v"] = S.normal(rng, (later, case["v"].shape[1]), 1e6)
    return case


@prop(case=with_a_changed_future())
@example(
    case={
        **_TWO_NEW_OF_FIVE,
        "i": 0,
        "new_k": np.array([[1e10, 0.0, 2e10]]),
        "new_v": np.array([[1e6, -2e6]]),
    }
)
def test_keys_and_values_after_a_query_cannot_change_its_row(kata, case):
    """Changing the keys and values after query i's position, even to huge finite values, leaves rows 0..i unchanged"""
    i = case["i"]
    before = {name: case[name] for name in NAMES}
    n, m = case["q"].shape[0], case["k"].shape[0]
    p = m - n + i
    after = dict(before, k=case["k"].copy(), v=case["v"].copy())
    after["k"][p + 1 :] = case["new_k"]
    after["v"][p + 1 :] = case["new_v"]
    out1, w1 = run(kata, **before)
    out2, w2 = run(kata, **after)
    rows = slice(0, i + 1)
    why = lambda: message(  # noqa: E731
        f"{M}.why.future-change", i=str(i), p=str(p), next=str(p + 1), new_k=show(case["new_k"], 2),
        new_v=show(case["new_v"], 2), sizes=sizes(case),
    )
    changed = message(f"{M}.what.after-change", name=f"weights[:{i + 1}]"), message(f"{M}.what.after-change", name=f"out[:{i + 1}]")
    check_close_or_explain(w2[rows], w1[rows], changed[0], why)
    check_close_or_explain(out2[rows], out1[rows], changed[1], why)
    want_out, want_weights = torch_masked_fill_attention(after["q"], after["k"], after["v"])
    against = (message(f"{M}.what.after-change-torch", name=f"weights[:{i + 1}]"),
               message(f"{M}.what.after-change-torch", name=f"out[:{i + 1}]"))
    check_close_or_explain(w2[rows], want_weights[rows], against[0], why)
    check_close_or_explain(out2[rows], want_out[rows], against[1], why)


#: How q, k and v arrive: all three in one form (so float32 everywhere is tried), or mixed.
FORMS = st.one_of(
    S.INPUT_FORMS.map(lambda f: (f, f, f)), st.tuples(S.INPUT_FORMS, S.INPUT_FORMS, S.INPUT_FORMS)
)


@prop(case=problems(kind="ordinary"), forms=FORMS)
@example(case=_TWO_NEW_OF_FIVE, forms=("float32", "float32", "float32"))
@example(case=_TWO_NEW_OF_FIVE, forms=("int8", "int8", "int8"))
@example(case=_TWO_NEW_OF_FIVE, forms=("uint8", "uint8", "uint8"))
def test_accepts_array_likes_and_returns_float64(kata, case, forms):
    """Accepts lists, integer and float32 arrays (any memory layout) for q, k and v; computes and returns float64"""
    args, values = {}, {}
    for name, form in zip(NAMES, forms):
        args[name], values[name] = S.as_form(case[name], form)
    out, weights = run(kata, **args)
    want_out, want_weights = torch_cached_attention(values["q"], values["k"], values["v"])
    given = message(f"{M}.why.forms", **dict(zip(NAMES, forms)))
    why = message(f"{M}.why.convert", given=given)
    check_close(weights, want_weights, "weights", why)
    check_close(out, want_out, "out", why)


@prop(case=problems())
def test_does_not_modify_its_inputs(kata, case):
    """q, k and v are left exactly as they were"""
    check_leaves_inputs_alone(lambda: run(kata, **case), case, FUNCTION)


# -- Contract violations -> ValueError ------------------------------------------------------
# Where a rule can be broken in several ways (which array, which shape), one example tries each
# way in turn, so none of them is left to chance.


@CONTRACT.rejects_a_wrong_rank(
    problems(kind="ordinary"), forms=not_2d_forms(one_d=("{}[-1], 1-D (one token)", lambda a: a[-1].copy())),
)
def test_rejects_an_input_that_is_not_2d(kata, case):
    """q, k or v that is not 2-D (a scalar, one token as a vector, a 3-D batch) raises ValueError"""


@CONTRACT.rejects_a_zero_size(problems(kind="ordinary"), labels={
    "n": "n = 0", "m": message(f"{M}.because.m-zero"), "d_k": "d_k = 0", "d_v": "d_v = 0",
}, because=lambda label, shapes: message(f"{M}.because.zero-size", label=label, shapes=shapes))
def test_rejects_a_zero_dimension(kata, case):
    """An empty q, k or v (n, m, d_k or d_v equal to 0) raises ValueError"""


@CONTRACT.rejects_a_size_that_disagrees(
    lambda draw: draw_problem(draw, kind="ordinary"), "d_k", ("k",), choices=lambda case: range(1, max(8, case["q"].shape[1] + 2)),
    because=lambda q, k, **_: message(f"{M}.because.widths", q_width=str(q.shape[1]), k_width=str(k.shape[1])),
)
def test_rejects_q_and_k_of_different_widths(kata, case):
    """q and k of different widths (d_k) raise ValueError"""


@CONTRACT.rejects_a_size_that_disagrees(  # still at least n rows, so m >= n holds either way
    lambda draw: draw_problem(draw, kind="ordinary"), "m", ("v",), choices=lambda case: range(case["q"].shape[0], max(9, case["k"].shape[0] + 2)),
    because=lambda k, v, **_: message(f"{M}.because.rows", k_rows=str(k.shape[0]), v_rows=str(v.shape[0])),
)
def test_rejects_k_and_v_with_different_numbers_of_rows(kata, case):
    """k and v with different numbers of rows (tokens in the cache) raise ValueError"""


@st.composite
def with_a_short_cache(draw):
    """n new tokens against a cache of m < n tokens (k and v agree with each other)."""
    case, rng = draw_problem(draw, "chunk", "ordinary")
    n = case["q"].shape[0]
    m = int(rng.integers(1, n))
    case["k"], case["v"] = case["k"][:m].copy(), case["v"][:m].copy()
    return case


@prop(case=with_a_short_cache())
def test_rejects_a_cache_shorter_than_the_new_tokens(kata, case):
    """A cache with fewer tokens than the new queries (m < n) raises ValueError: the newest n tokens are part of the cache"""
    n, m = case["q"].shape[0], case["k"].shape[0]
    expect_value_error(
        lambda: kata(**case),
        message(f"{M}.because.short-cache", n=str(n), m=str(m), offset=str(m - n)),
    )


def a_future_entry(case, name, index, rng):
    """Half the time (n >= 2), a NaN in k or v goes to a key or value query 0 cannot see."""
    n, m = case["q"].shape[0], case["k"].shape[0]
    if name != "q" and n >= 2 and rng.random() < 0.5:
        return (int(rng.integers(m - n + 1, m)), index[1])
    return index


@CONTRACT.rejects_non_finite(problems(kind="ordinary"), retarget=a_future_entry,
                             examples=[dict(case=_TWO_NEW_OF_FIVE, value=np.nan, seed=1)])
def test_rejects_nan_or_inf_in_q_k_or_v(kata, case, value, seed):
    """NaN or inf anywhere in q, k or v raises ValueError (even in a future key or value)"""


@CONTRACT.rejects_an_overflowing_score(
    lambda draw: draw_problem(draw, kind="ordinary"),
    keys_seen=lambda case, i: case["k"].shape[0] - case["q"].shape[0] + i + 1,  # j <= m - n + i
    because=lambda i, j, **_: message(f"{M}.because.overflow", i=str(i), j=str(j)),
)
def test_rejects_an_allowed_score_that_overflows(kata, bad):
    """An allowed score q[i]·k[j] / sqrt(d_k) (j <= m - n + i) that overflows to inf raises ValueError (instead of NaN)"""
