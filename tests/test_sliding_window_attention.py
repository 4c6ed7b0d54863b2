"""The judge for katas/sliding_window_attention.py: sliding_window_attention(q, k, v, window, num_sinks=0).

Shapes throughout: q (n, d_k) holds the n newest tokens, k (m, d_k) and v (m, d_v) all m >= n
tokens so far; out (n, d_v). Query i sits at position p_i = m - n + i and may attend key j iff
j <= p_i and (p_i - j < window or j < num_sinks): a causal window of ``window`` keys ending at
its own position, plus the first ``num_sinks`` keys (attention sinks) that are not in its future.

Most valid inputs have n < m with a window shorter than the cache, so a window off by one, a
window measured from i instead of p_i, a top-left mask or ignored sinks all change the answer.
Windows longer than the cache and more sinks than keys are valid and drawn too.

Every bad input below breaks one rule of the contract, so a ValueError is the only right answer.
Left open by the contract and therefore never tested: what happens when only a blocked score
overflows, and the wording of messages.
"""

import numpy as np
from hypothesis import example, strategies as st

from dojo.text.messages import array_param, is_message, message
from tests import oracle
from tests import largest as L
from tests import strategies as S
from tests.sizes import query_key_sizes
from tests.contract import QKV, Contract, not_2d_forms
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

FUNCTION = "sliding_window_attention"
NAMES = ("q", "k", "v")
#: The judge's messages: dojo/catalogue/katas/sliding_window_attention/<lang>/judge.toml.
M = "judge.sliding_window_attention"


def said(key: str, **params) -> dict:
    """A sentence of this judge, ``judge.sliding_window_attention.<key>``, its values as strings
    (a message stays a message)."""
    return message(f"{M}.{key}", **{k: v if is_message(v) else str(v) for k, v in params.items()})


def PROBE():
    return {
        "q": np.array([[1.0, 0.0]]),
        "k": np.array([[1.0, 0.0], [0.0, 1.0]]),
        "v": np.array([[1.0], [2.0]]),
        "window": 1,
        "num_sinks": 0,
    }


#: The arrays of the contract: q (n, d_k), k (m, d_k), v (m, d_v).
CONTRACT = Contract(QKV)


def run(kata, q, k, v, window, num_sinks):
    """Call the candidate on a valid input; check it returns out, float64, of shape (n, d_v),
    with no NaN or inf."""
    n, d_v = np.shape(q)[0], np.shape(v)[1]
    out = check_array(kata(q=q, k=k, v=v, window=window, num_sinks=num_sinks), "out", (n, d_v))
    bad = np.argwhere(~np.isfinite(out))
    if bad.size:
        index = tuple(int(i) for i in bad[0])
        check_that(False, message("values.not-finite", what="out", index=str(list(index)),
                                  value=str(out[index]), array=array_param(out)))
    return out


def allowed_of(n: int, m: int, window: int, num_sinks: int) -> np.ndarray:
    """(n, m) bool, True where query i (position m - n + i) may attend key j."""
    p = (m - n + np.arange(n))[:, None]
    j = np.arange(m)[None, :]
    return (j <= p) & ((p - j < window) | (j < num_sinks))


def sizes(case) -> dict:
    """The dimensions of a case, named, for failure messages (a message)."""
    (n, d_k), (m, d_v) = np.shape(case["q"]), np.shape(case["v"])
    return said("why.sizes", n=n, m=m, d_k=d_k, d_v=d_v, offset=m - n, window=int(case["window"]),
                num_sinks=int(case["num_sinks"]))


def args(case) -> dict:
    """The keyword arguments of one call (a case may carry a property's own extras)."""
    return {name: case[name] for name in (*NAMES, "window", "num_sinks")}


# -- Oracle (torch, float64) -----------------------------------------------------------------


def _torch_allowed(t, n, m, window, num_sinks):
    p = (t.arange(n) + (m - n)).unsqueeze(1)
    j = t.arange(m).unsqueeze(0)
    return (j <= p) & ((p - j < window) | (j < num_sinks))


@oracle.memoised
def torch_sliding_window(q, k, v, *, window, num_sinks):
    """out from F.scaled_dot_product_attention with the explicit bool mask (True = attend)
    j <= p_i and (p_i - j < window or j < num_sinks), built with torch ops."""
    t = oracle.torch()
    q, k, v = oracle.tensor(q), oracle.tensor(k), oracle.tensor(v)
    allowed = _torch_allowed(t, q.shape[0], k.shape[0], window, num_sinks)
    return (t.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=allowed).numpy(),)


@oracle.memoised
def torch_masked_fill(q, k, v, *, window, num_sinks):
    """out from masked_fill(-inf) and torch.softmax, no SDPA: SDPA adds its mask as a -inf bias,
    so a huge blocked score would not be ignored as cleanly."""
    t = oracle.torch()
    q, k, v = oracle.tensor(q), oracle.tensor(k), oracle.tensor(v)
    allowed = _torch_allowed(t, q.shape[0], k.shape[0], window, num_sinks)
    scores = (q @ k.T / float(q.shape[1]) ** 0.5).masked_fill(~allowed, float("-inf"))
    return ((t.softmax(scores, dim=-1) @ v).numpy(),)


@oracle.memoised
def torch_causal(q, k, v):
    """out from SDPA with torch's causal_lower_right(n, m): the plain KV-cache attention."""
    t = oracle.torch()
    from torch.nn.attention.bias import causal_lower_right

    q, k, v = oracle.tensor(q), oracle.tensor(k), oracle.tensor(v)
    bias = causal_lower_right(q.shape[0], k.shape[0])
    return (t.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=bias).numpy(),)


def expected(case):
    return torch_sliding_window(case["q"], case["k"], case["v"], window=int(case["window"]),
                                num_sinks=int(case["num_sinks"]))


# -- Strategies ------------------------------------------------------------------------------
# A case's sizes come from tests/sizes.py, its arrays from one seed. Strategies are built once,
# at import.


#: Sizes from tests/sizes.py (mostly small, sometimes 8 to 128), n <= m: "any" (a cache longer
#: than the chunk by at least 3, or a realistic coincidence: n == m, a prefill, or d_k == d_v),
#: "chunk" (several new tokens behind a longer cache) or "blockable" (at least two keys, so some
#: query has a key it may not see).
SIZE_TABLES = {"any": query_key_sizes("any"), "chunk": query_key_sizes("chunk"), "blockable": query_key_sizes("any")}


def draw_sizes(draw, table):
    """(n, m, d_k, d_v) of ``table`` (see SIZE_TABLES)."""
    n, m, d_k, d_v = draw(SIZE_TABLES[table])
    if n != m:  # the window, the sinks and the corner all show
        m = max(m, n + 3)
    if table == "blockable":
        m = max(m, 2)
    return n, m, d_k, d_v


KINDS = st.sampled_from(["ordinary", "large"])
#: How the window and the sinks are chosen: "short" (window 1 to m - 1, the usual case), "any"
#: (also window >= m and more sinks than keys).
WINDOW_KINDS = {"short": st.just("short"), "any": st.sampled_from(["short", "short", "short", "long"])}
#: num_sinks: none half the time (a plain sliding window), else 1 to 3, sometimes more than m.
SINK_CHOICES = st.sampled_from([0, 0, 0, 1, 2, 3, "beyond"])
#: A short window's size (or the cache less it): mostly 1 to 7, sometimes 8 to 128.
WINDOW_SIZES = S.dims(1, 7)
BOOLS = st.booleans()


def draw_problem(draw, table="any", kind=None, windows="any", sinks=None):
    """Valid inputs {q, k, v, window, num_sinks} and the generator that made them.

    ``kind``: "ordinary" (entries of size 0.3 to 10, drawn per array) or "large" (q and k
    entries ~100, so scores are ~1e4 and exp() overflows without the max shift).
    """
    n, m, d_k, d_v = draw_sizes(draw, table)
    kind = draw(KINDS) if kind is None else kind
    q_scale, k_scale = (100.0, 100.0) if kind == "large" else (draw(S.SCALES), draw(S.SCALES))
    v_scale = draw(S.SCALES)
    rng = S.rng_for(draw(S.SEEDS))
    case = {
        "q": S.normal(rng, (n, d_k), q_scale),
        "k": S.normal(rng, (m, d_k), k_scale),
        "v": S.normal(rng, (m, d_v), v_scale),
    }
    if draw(WINDOW_KINDS[windows]) == "short" and m >= 2:  # 1 to m - 1: a drawn size, or m less one
        short = draw(WINDOW_SIZES)
        if short >= m:
            case["window"] = int(rng.integers(1, m))
        else:
            case["window"] = short if draw(BOOLS) else m - short
    else:
        case["window"] = int(rng.integers(m, m + 3))
    choice = draw(SINK_CHOICES) if sinks is None else sinks
    case["num_sinks"] = int(rng.integers(m, m + 3)) if choice == "beyond" else int(choice)
    return case, rng


@S.valid_inputs()
@st.composite
def problems(draw, table="any", kind=None, windows="any", sinks=None):
    """Valid inputs {q, k, v, window, num_sinks} (see draw_problem)."""
    return draw_problem(draw, table, kind, windows, sinks)[0]


# -- Properties of a correct answer -------------------------------------------------------

#: Three new tokens of eight, a window of 3 and 2 sinks: query 0 (position 5) sees 0, 1, 3, 4, 5.
_THREE_NEW_OF_EIGHT = {
    "q": np.array([[1.0, 0.0, 2.0], [0.5, -1.0, 0.3], [-0.4, 0.8, 1.1]]),
    "k": np.array([[1.0, 1.0, 0.0], [0.0, 2.0, 1.0], [-1.0, 0.5, 0.2], [0.3, 0.3, -0.7],
                   [1.5, -0.2, 0.4], [0.2, 0.9, -1.3], [-0.6, -0.1, 0.5], [0.7, 1.2, 0.1]]),
    "v": np.array([[1.0, 2.0], [-1.0, 0.5], [0.0, 2.0], [3.0, -1.0], [0.5, 0.5], [2.0, -2.0],
                   [-0.3, 1.4], [1.1, 0.2]]),
    "window": 3,
    "num_sinks": 2,
}


@prop(case=problems())
@example(case=_THREE_NEW_OF_EIGHT)
# 200 queries of 300 keys: past a loop over query blocks of 128 (stop 55's blind round)
@example(case={"q": np.round(np.random.default_rng(70).standard_normal((200, 4)), 2), "k": np.round(np.random.default_rng(71).standard_normal((300, 4)), 2), "v": np.round(np.random.default_rng(72).standard_normal((300, 2)), 2), "window": 50, "num_sinks": 2})
# q's and k's entries sum past float64's largest (1e308 twice), their scores are 0: a check for NaN
# or inf written as np.isfinite(a.sum()) refuses this valid input (a blind hostile round, stop 57)
@example(case={"q": np.array([[1e308, 1e308, 0.0, 0.0]]), "k": np.array([[0.0, 0.0, 1e308, 1e308], [0.0, 0.0, 1e308, -1e308], [0.0, 0.0, 0.0, 0.0]]), "v": np.array([[1.0], [3.0], [8.0]]), "window": 2, "num_sinks": 1})
# an allowed score of exactly finfo.min (S.FINFO_MIN_FACTORS): the future key filled with finfo.min
# instead of -inf ties with it and takes half the weight (a blind hostile round, stop 58)
@example(case={"q": np.array([[S.FINFO_MIN_FACTORS[0]], [1.0]]), "k": np.array([[S.FINFO_MIN_FACTORS[1]], [1.0]]), "v": np.array([[1.0], [5.0]]), "window": 4, "num_sinks": 0})
# two equal scores of 1e10: weights 1/2 each, where exp(s - logsumexp(s)) loses the log 2 to
# rounding (stop 58's blind round: off by 1.4e-6)
@example(case={"q": np.array([[1e5]]), "k": np.array([[1e5], [1e5]]), "v": np.array([[1.0], [5.0]]), "window": 2, "num_sinks": 0})
def test_matches_torch_with_the_window_and_sink_mask(kata, case):
    """Matches torch's scaled_dot_product_attention with the bool mask j <= p_i and (p_i - j < window or j < num_sinks), for ordinary and large (~1e4) scores"""
    out = run(kata, **args(case))
    check_close(out, expected(case), "out", said("why.mask", sizes=sizes(case)))


#: Properties that draw no input: they build a fixed one themselves (tests/strategies.py).
INPUT_BUILT_INSIDE = ("test_the_largest_realistic_case_matches_torch",)


@prop(seed=st.just(0))
def test_the_largest_realistic_case_matches_torch(kata, seed):
    """The compare battery's largest realistic case (n = 8192) matches torch, checked as test_matches_torch_with_the_window_and_sink_mask checks its cases"""
    L.check_with(test_matches_torch_with_the_window_and_sink_mask, kata, L.largest_case("sliding_window_attention"))


@prop(case=problems(windows="short", sinks=0))
def test_a_window_of_one_without_sinks_returns_each_querys_own_value(kata, case):
    """With window = 1 and no sinks, query i sees only its own key at position m - n + i: out[i] is v[m - n + i]"""
    case = dict(case, window=1)
    out = run(kata, **args(case))
    n, m = case["q"].shape[0], case["k"].shape[0]
    check_close(out, case["v"][m - n :], "out", said("why.window-one", sizes=sizes(case)))


@prop(case=problems(sinks=0))
def test_a_window_as_long_as_the_cache_is_plain_causal_attention(kata, case):
    """A window of m keys or more (and no sinks) is the plain KV-cache attention: torch's causal_lower_right(n, m)"""
    case = dict(case, window=case["k"].shape[0] + case["window"] % 3)
    out = run(kata, **args(case))
    want = torch_causal(case["q"], case["k"], case["v"])
    check_close(out, want, "out", said("why.long-window", sizes=sizes(case)))


@prop(case=problems(sinks="beyond"))
def test_more_sinks_than_keys_make_every_past_key_a_sink(kata, case):
    """With num_sinks >= m every key up to the query's position is a sink: plain causal attention, whatever the window"""
    out = run(kata, **args(case))
    want = torch_causal(case["q"], case["k"], case["v"])
    check_close(out, want, "out", said("why.many-sinks", sizes=sizes(case)))


@prop(case=problems("chunk", "ordinary", windows="short"))
@example(case=_THREE_NEW_OF_EIGHT)
def test_decoding_one_token_at_a_time_reproduces_the_full_pass(kata, case):
    """Decoding one token at a time (n = 1 against the cache up to it, same window and sinks) gives the rows of one full pass"""
    q, k, v = case["q"], case["k"], case["v"]
    out = run(kata, **args(case))
    n, m = q.shape[0], k.shape[0]
    for i in range(n):
        p = m - n + i
        step = run(kata, q=q[i : i + 1], k=k[: p + 1], v=v[: p + 1], window=case["window"],
                   num_sinks=case["num_sinks"])
        why = said("why.decoding", i=i, next=i + 1, end=p + 1, p=p, sizes=sizes(case))
        check_close(step[0], out[i], said("what.decoding-out", i=i), why)


BIG = st.sampled_from([1e6, 1e10, 1e150])
BOOLEANS = st.booleans()


def calls_with_blocked_keys_replaced(case: dict) -> list[dict]:
    """The two calls of a blocked-keys case: before, and with the keys and values query ``i``
    may not see replaced by ``new_k`` and ``new_v``."""
    before = args(case)
    return [before, _after(case)]


def _blocked(case) -> np.ndarray:
    """The keys query ``i`` may not see (indices)."""
    n, m = case["q"].shape[0], case["k"].shape[0]
    return np.flatnonzero(~allowed_of(n, m, case["window"], case["num_sinks"])[case["i"]])


def _after(case) -> dict:
    after = dict(args(case), k=case["k"].copy(), v=case["v"].copy())
    blocked = _blocked(case)
    after["k"][blocked], after["v"][blocked] = case["new_k"], case["new_v"]
    return after


@S.valid_inputs(calls=calls_with_blocked_keys_replaced)
@st.composite
def with_blocked_keys_changed(draw):
    """A case, a query ``i`` that does not see every key, and huge new keys and values for the
    keys it may not see (both those before its window and those after its position).

    The new keys are 1e6 to 1e150 times a vector and every score stays finite. Half the time
    they point along q[i], so query i's blocked scores are hugely positive: adding -1e9 instead
    of -inf then leaks, and a max taken before masking underflows the allowed keys.
    """
    case, rng = draw_problem(draw, "blockable", "ordinary", windows="short")
    n, m = case["q"].shape[0], case["k"].shape[0]
    allowed = allowed_of(n, m, case["window"], case["num_sinks"])
    rows = np.flatnonzero(~allowed.all(axis=1))
    if rows.size == 0:  # every query sees every key: shorten the window to one key
        case["window"], case["num_sinks"] = 1, 0
        rows = np.flatnonzero(~allowed_of(n, m, 1, 0).all(axis=1))
    case["i"] = int(rng.choice(rows))
    big, aligned = draw(BIG), draw(BOOLEANS)
    q = case["q"]
    i = case["i"]
    direction = q[i] if aligned and np.any(q[i]) else S.normal(rng, q.shape[1]) + 0.5
    count = _blocked(case).size
    case["new_k"] = np.outer(rng.uniform(0.5, 2.0, count), np.round(direction, 2)).round(2) * big
    case["new_v"] = S.normal(rng, (count, case["v"].shape[1]), 1e6)
    return case


@prop(case=with_blocked_keys_changed())
@example(case={**_THREE_NEW_OF_EIGHT, "i": 0, "new_k": np.array([[1e10, 0.0, 2e10]] * 3),
               "new_v": np.array([[1e6, -2e6]] * 3)})
def test_keys_a_query_may_not_see_cannot_change_its_row(kata, case):
    """Changing the keys and values query i may not see (outside its window, not a sink, or in its future), even to huge finite values, leaves row i unchanged"""
    i = case["i"]
    before, after = args(case), _after(case)
    out1 = run(kata, **before)
    out2 = run(kata, **after)
    blocked = _blocked(case)

    def why():
        return said("why.blocked-change", i=i, p=case["k"].shape[0] - case["q"].shape[0] + i,
                    keys=str(blocked.tolist()), new_k=show(case["new_k"], 2), sizes=sizes(case))

    check_close_or_explain(out2[i], out1[i], said("what.after-change", i=i), why)
    want = torch_masked_fill(after["q"], after["k"], after["v"], window=case["window"], num_sinks=case["num_sinks"])
    check_close_or_explain(out2[i], want[i], said("what.after-change-torch", i=i), why)


#: How far below -1e9 the allowed scores lie: 10**e, every decade from 1e11 to the edge of overflow.
FAR_EXPONENTS = st.integers(11, 300)


@S.valid_inputs()
@st.composite
def with_scores_far_below_minus_1e9(draw):
    """A case whose every score is far below -1e9 (-1e11 to the edge of overflow, times a spread): k[j] points
    against a direction every q[i] leans along, so a blocked key filled with a finite -1e9
    would get all of a row's weight."""
    case, rng = draw_problem(draw, "any", "ordinary", windows="short")
    exponent = draw(FAR_EXPONENTS)
    n, d_k = case["q"].shape
    m = case["k"].shape[0]
    u = np.abs(S.normal(rng, d_k)) + 0.5
    far = min(10.0**exponent, 1e306 / (6.0 * float(u @ u)))  # every score, 2 * 3 * far * u·u, below 1e306
    case["q"] = np.round(rng.uniform(1.0, 2.0, (n, 1)), 2) * u
    # b_j pairwise different by construction (1.00 to 3.00, or more for m > 201): two keys with
    # equal scores far below zero would split a row's weight by rounding alone
    b = (100 + rng.choice(max(201, m), size=(m, 1), replace=False)) / 100
    case["k"] = -b * u * far
    return case


@prop(case=with_scores_far_below_minus_1e9())
def test_allowed_scores_far_below_minus_1e9_still_get_all_the_weight(kata, case):
    """When every allowed score lies far below -1e9 (finite inputs allow it), the blocked keys still get no weight: they must be -inf, not a finite fill"""
    out = run(kata, **args(case))
    want = torch_masked_fill(case["q"], case["k"], case["v"], window=case["window"], num_sinks=case["num_sinks"])
    check_close(out, want, "out", said("why.far-below", sizes=sizes(case)))


#: NumPy integer types window and num_sinks may arrive as: unsigned ones too, where ``p - window``
#: wraps around instead of going negative (stop 53's blind hostile round).
NUMPY_INTS = st.sampled_from([np.int64, np.int32, np.int16, np.intp, np.uint64, np.uint32])


@prop(case=problems(kind="ordinary"), form=NUMPY_INTS)
@example(case=dict(_THREE_NEW_OF_EIGHT, window=10), form=np.uint64)  # a window past the first query: p - window < 0
# the largest window and sink count the contract allows (a blind hostile round, stop 57)
@example(case=dict(_THREE_NEW_OF_EIGHT, window=2**63 - 1, num_sinks=2**63 - 1), form=np.int64)
# 40001 keys and one query, the window an np.int16: (m - n) - window worked out in the window's
# own type overflows int16 (a blind hostile round, stop 58)
@example(case={"q": np.array([[0.5, -1.0]]), "k": np.round(np.random.default_rng(84).standard_normal((40001, 2)), 2),
               "v": np.round(np.random.default_rng(85).standard_normal((40001, 2)), 2), "window": 5, "num_sinks": 2},
         form=np.int16)
def test_accepts_numpy_integers_for_window_and_num_sinks(kata, case, form):
    """window and num_sinks given as NumPy integers (np.int64, np.uint64, ...) are ints and give the same answer"""
    call = dict(args(case), window=form(case["window"]), num_sinks=form(case["num_sinks"]))
    out = run(kata, **call)
    check_close(out, expected(case), "out", said("why.numpy-ints", type=form.__name__, sizes=sizes(case)))


#: How q, k and v arrive: all three in one form (so float32 everywhere is tried), or mixed.
FORMS = st.one_of(
    S.INPUT_FORMS.map(lambda f: (f, f, f)), st.tuples(S.INPUT_FORMS, S.INPUT_FORMS, S.INPUT_FORMS)
)


@prop(case=problems(kind="ordinary"), forms=FORMS)
@example(case=_THREE_NEW_OF_EIGHT, forms=("float32", "float32", "float32"))
@example(case=_THREE_NEW_OF_EIGHT, forms=("int8", "int8", "int8"))
@example(case=_THREE_NEW_OF_EIGHT, forms=("uint8", "uint8", "uint8"))
def test_accepts_array_likes_and_returns_float64(kata, case, forms):
    """Accepts lists, integer and float32 arrays (any memory layout) for q, k and v; computes and returns float64"""
    call, values = args(case), args(case)
    for name, form in zip(NAMES, forms):
        call[name], values[name] = S.as_form(case[name], form)
    out = run(kata, **call)
    given = said("why.forms", **dict(zip(NAMES, forms)))
    check_close(out, expected(values), "out", said("why.convert", given=given))


@prop(case=problems())
def test_does_not_modify_its_inputs(kata, case):
    """q, k and v are left exactly as they were"""
    check_leaves_inputs_alone(lambda: run(kata, **case), case, FUNCTION)


# -- Contract violations -> ValueError ------------------------------------------------------


@prop(case=problems(kind="ordinary"))
@example(case=_THREE_NEW_OF_EIGHT)
def test_rejects_a_window_or_num_sinks_that_is_not_a_valid_int(kata, case):
    """window that is not an int >= 1, or num_sinks that is not an int >= 0 (0, -1, a bool, a float such as 2.0) raises ValueError"""
    m = case["k"].shape[0]
    bad_windows = (0, -case["window"], True, np.bool_(True), float(case["window"]), np.float64(m))
    bad_sinks = (-1, -m, True, False, float(case["num_sinks"]), np.float64(1.0))
    for name, values in (("window", bad_windows), ("num_sinks", bad_sinks)):
        for bad in values:
            kind = ("bool" if isinstance(bad, (bool, np.bool_)) else "float" if isinstance(bad, (float, np.floating))
                    else "range")
            why = said(f"because.{name}.{kind}", value=repr(bad))
            expect_value_error(lambda: kata(**dict(args(case), **{name: bad})), why)


@CONTRACT.rejects_a_wrong_rank(
    problems(kind="ordinary"), forms=not_2d_forms(one_d=("{}[-1], 1-D (one token)", lambda a: a[-1].copy())),
)
def test_rejects_an_input_that_is_not_2d(kata, case):
    """q, k or v that is not 2-D (a scalar, one token as a vector, a 3-D batch) raises ValueError"""


@CONTRACT.rejects_a_zero_size(problems(kind="ordinary"), labels={
    "n": "n = 0", "m": said("because.m-zero"), "d_k": "d_k = 0", "d_v": "d_v = 0",
}, because=lambda label, shapes: said("because.zero-size", label=label, shapes=shapes))
def test_rejects_a_zero_dimension(kata, case):
    """An empty q, k or v (n, m, d_k or d_v equal to 0) raises ValueError"""


@prop(case=problems(kind="ordinary"), seed=S.SEEDS)
def test_rejects_q_k_v_whose_shapes_do_not_fit(kata, case, seed):
    """q and k of different widths, or k and v with different numbers of rows, raise ValueError"""
    rng = S.rng_for(seed)
    (n, d_k), (m, d_v) = case["q"].shape, case["v"].shape
    width = int(rng.choice([d for d in range(1, max(6, d_k + 2)) if d != d_k]))
    rows = int(rng.choice([r for r in range(n, max(11, m + 2)) if r != m]))
    call = args(case)
    expect_value_error(lambda: kata(**dict(call, k=S.normal(rng, (m, width)))),
                       said("because.widths", q_width=d_k, k_width=width))
    expect_value_error(lambda: kata(**dict(call, v=S.normal(rng, (rows, d_v)))),
                       said("because.rows", k_rows=m, v_rows=rows))


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
    expect_value_error(lambda: kata(**args(case)), said("because.short-cache", n=n, m=m))


def a_blocked_entry(case, name, index, rng):
    """Half the time, a NaN in k or v goes to a key query 0 may not see."""
    n, m = case["q"].shape[0], case["k"].shape[0]
    blocked = np.flatnonzero(~allowed_of(n, m, case["window"], case["num_sinks"])[0])
    if name != "q" and blocked.size and rng.random() < 0.5:
        return (int(rng.choice(blocked)), index[1])
    return index


@CONTRACT.rejects_non_finite(problems(kind="ordinary"), retarget=a_blocked_entry,
                             examples=[dict(case=_THREE_NEW_OF_EIGHT, value=np.nan, seed=1)])
def test_rejects_nan_or_inf_in_q_k_or_v(kata, case, value, seed):
    """NaN or inf anywhere in q, k or v raises ValueError (even in a key no query sees)"""


@st.composite
def with_an_allowed_score_overflowing(draw):
    """A case, an allowed (i, j) (a sink or a key in i's window), q[i], k[j] an ``S.overflowing_pair``."""
    case, rng = draw_problem(draw, "any", "ordinary")
    n, m = case["q"].shape[0], case["k"].shape[0]
    i = int(rng.integers(0, n))
    j = int(rng.choice(np.flatnonzero(allowed_of(n, m, case["window"], case["num_sinks"])[i])))
    case["q"][i], case["k"][j] = S.overflowing_pair(rng, case["q"].shape[1], draw(st.booleans()))
    return case, i, j


@prop(bad=with_an_allowed_score_overflowing())
def test_rejects_an_allowed_score_that_overflows(kata, bad):
    """An allowed score q[i]·k[j] / sqrt(d_k) (key j in query i's window or a sink, and not after it) that overflows to inf raises ValueError (instead of NaN)"""
    case, i, j = bad
    why = S.mixed_overflow(said("because.overflow", i=i, j=j), case["q"][i], case["k"][j])
    expect_value_error(lambda: kata(**args(case)), why)
