"""The judge for katas/sampling.py: sample_token(logits, u, temperature=1.0, top_k=None, top_p=None).

Shapes: logits (b, V), u (b,); the result is (tokens, probs): tokens a 1-D integer array (b,),
probs (b, V) float64. b and V are mostly 1 to 6, sometimes 8 to 128 (tests/sizes.py), so a
top_k boundary, a tie or a tail past the first few tokens is drawn.

The oracle is torch, float64, Hugging Face's warper chain written out: a stable descending sort
gives the rank, -inf beyond top_k, the shifted top-p mask ((cumsum - w) >= top_p removed, the
first token always kept), scatter back, softmax, then searchsorted(cumsum, u, right=True).
probs are compared at rtol 1e-9 and atol 1e-300 (a kept tail of 1e-20 flushed to 0 is a bug),
tokens exactly.

Draws: logits of five kinds, ordinary, ties (small integers: many tokens tied, at the top_k
boundary too), peaky (scale 30: kept probabilities far below 1e-20), large (|z| from 750 to
9000: exp overflows without the max shift) and mixed (rows thousands apart: one shift for the
whole batch loses rows); temperatures 0 (greedy), 1e-9 to 0.005 (not greedy: logits 0.01 apart are z = 2 apart at 0.005,
and ties stay ties), 0.05 to 2 (an int 1 too, and NumPy float32 and int64 ones); top_k None, 1,
V - 1, V, V + 1 or between; top_p None, 1 (an int 1 too) or between 0.1 and 0.99 (a NumPy float32 among them); u uniform, 1 row in 4 at
exactly 0.

Left open by the contract and never drawn: a u within 1e-9 of a positive cumulative C_t and a
top_p within 1e-9 of a prefix sum of w (the draws move such a u or top_p at least 1e-8 away:
``_clear_of_prefix_sums``, ``_clear_of_cumulatives``); logits that differ but are equal after
dividing by the temperature (logits are 2-decimal numbers, or exact ties); |logits /
temperature| > 1e4 (the large kinds stay below 9100); message wording. Every bad input below
breaks exactly one rule of the contract.
"""

import numpy as np
from hypothesis import example, strategies as st

from dojo.text.messages import is_message, message
from tests import oracle
from tests import largest as L
from tests import strategies as S
from tests.contract import Contract
from tests.judge import (
    KataMismatch,
    check_array,
    check_close,
    check_leaves_inputs_alone,
    check_that,
    expect_value_error,
    prop,
)

FUNCTION = "sample_token"
#: probs are compared at the contract's rtol 1e-9 and atol 1e-300: a tiny kept probability counts.
RTOL, ATOL = 1e-9, 1e-300
#: A drawn u or top_p stays this far from every value where rounding decides (the contract leaves
#: 1e-9 open).
MARGIN = 1e-8


def said(key: str, **params) -> dict:
    """A sentence of this judge, ``judge.sampling.<key>`` (dojo/text/locale/<lang>/judge/sampling.toml),
    its values as strings (a message stays a message)."""
    return message(f"judge.sampling.{key}", **{k: v if is_message(v) else str(v) for k, v in params.items()})


def PROBE():
    return {"logits": np.array([[1.0, 3.0, 2.0]]), "u": np.array([0.5]), "temperature": 1.0,
            "top_k": None, "top_p": None}


CONTRACT = Contract({"logits": ("b", "V"), "u": ("b",)})


# -- Oracle (torch, float64) --------------------------------------------------------------------


@oracle.memoised
def torch_probs(logits, *, temperature, top_k, top_p):
    """probs: HF's TopK then TopP warpers on z = logits / temperature, then softmax (greedy at 0)."""
    t = oracle.torch()
    x = oracle.tensor(logits)
    b, V = x.shape
    if temperature == 0:
        first = t.sort(x, dim=1, descending=True, stable=True).indices[:, :1]  # first of the rank
        return (t.zeros(b, V, dtype=t.float64).scatter_(1, first, 1.0).numpy(),)
    z = x / float(temperature)
    sorted_z, order = t.sort(z, dim=1, descending=True, stable=True)  # ties: lower index first
    if top_k is not None and top_k < V:
        sorted_z[:, int(top_k):] = -float("inf")
    if top_p is not None and top_p < 1:
        w = sorted_z.softmax(dim=1)
        remove = (w.cumsum(dim=1) - w) >= float(top_p)  # HF's shifted mask
        remove[:, 0] = False                              # min_tokens_to_keep = 1
        sorted_z = sorted_z.masked_fill(remove, -float("inf"))
    scores = t.full_like(z, -float("inf")).scatter_(1, order, sorted_z)
    return (scores.softmax(dim=1).numpy(),)


@oracle.memoised
def torch_tokens(probs, u):
    """The inverse CDF of each row of probs at u: searchsorted(cumsum / sum, u, right=True)."""
    t = oracle.torch()
    p = oracle.tensor(probs)
    cdf = p.cumsum(dim=1)
    cdf = cdf / cdf[:, -1:]
    return (t.searchsorted(cdf, oracle.tensor(u)[:, None], right=True)[:, 0].numpy(),)


def want_of(case) -> tuple[np.ndarray, np.ndarray]:
    probs = torch_probs(case["logits"], temperature=case["temperature"], top_k=case["top_k"],
                        top_p=case["top_p"])
    return torch_tokens(probs, case["u"]).astype(np.int64), probs


# -- Strategies -----------------------------------------------------------------------------------

KINDS = ("ordinary", "ties", "peaky", "large", "mixed")
#: Python and NumPy numbers both (the contract takes either): an answer that checks
#: ``isinstance(t, (int, float))`` refuses np.float32 and np.int64 (np.float64 is a float).
#: Tiny ones too (1e-4 to 1e-9): only 0 is greedy, and an answer that takes every temperature
#: under some epsilon as greedy (vLLM's _SAMPLING_EPS is 1e-5) puts all of a tie's weight on one
#: token (a blind hostile round, stop 54: 0.005 was the smallest drawn).
TEMPERATURES = st.sampled_from([1.0, 0.5, 2.0, 0.7, 1.5, 1, 0.05, 0.0,
                                np.float32(0.5), np.int64(1), np.float32(2.0), np.int64(0), 0.005,
                                1e-4, 1e-6, 1e-9])
#: An int 1 too: "a real in (0, 1]" (an answer that checks isinstance(top_p, float) refuses it).
TOP_P = st.sampled_from([None, None, 1.0, 0.9, 0.95, 0.5, 0.3, 0.8, 0.99, 0.1, 0.6, 0.75,
                         np.float32(0.5), np.float32(0.75), np.float64(0.9), 1, np.int64(1)])
SIZES = S.size_tuple(2, 1, 6, distinct=False, max_large=1)
#: |z| stays below this in every draw (the contract leaves |logits / temperature| > 1e4 open).
Z_LIMIT = 9100.0


def _top_k(rng, V: int, how: str):
    """None, 1, V - 1, V, V + 1 or a value between, as an int."""
    return {"none": None, "one": 1, "below": max(1, V - 1), "all": V, "above": V + 1,
            "between": int(rng.integers(1, V + 1))}[how]


TOP_K = st.sampled_from(["none", "none", "one", "below", "all", "above", "between", "between"])


def draw_logits(rng, b: int, V: int, kind: str, temperature: float) -> np.ndarray:
    """logits of ``kind`` (see the module docstring) with |logits / temperature| <= Z_LIMIT."""
    t = temperature if temperature > 0 else 1.0
    if kind == "ties":  # (under a temperature below 0.005, as far apart in z as at 0.005)
        return rng.integers(-2, 3, size=(b, V)) * float(rng.choice([1.0, 0.5, 3.0])) * min(1.0, t / 0.005)
    if kind == "peaky":
        return S.normal(rng, (b, V), 30.0) * min(t, 1.0)
    x = S.normal(rng, (b, V), float(rng.choice([1.0, 0.3, 3.0, 10.0])))
    if kind == "large":
        return (x + float(rng.choice([-1.0, 1.0])) * float(rng.choice([750.0, 3000.0, 8000.0]))) * t
    if kind == "mixed":
        offsets = rng.choice([0.0, 3000.0, -3000.0, 8000.0, -8000.0], size=(b, 1))
        return (x + offsets) * t
    # a temperature near 0 (0.005) is not greedy: logits 0.01 apart are still z = 2 apart
    return np.clip(x, -Z_LIMIT * t, Z_LIMIT * t) if t < 0.05 else x


def kept_weights(logits, temperature, top_k) -> np.ndarray:
    """w in rank order: the softmax of z over the tokens top_k keeps (for _clear_of_prefix_sums)."""
    z = np.asarray(logits, dtype=np.float64) / float(temperature)
    zs = np.take_along_axis(z, np.argsort(-z, axis=1, kind="stable"), axis=1)
    if top_k is not None:
        zs[:, top_k:] = -np.inf
    w = np.exp(zs - zs[:, :1])
    return w / w.sum(axis=1, keepdims=True)


def _clear_of_prefix_sums(rng, case):
    """top_p moved at least MARGIN away from every prefix sum of w (left open within 1e-9)."""
    if case["top_p"] is None or case["top_p"] == 1 or case["temperature"] == 0:
        return case
    sums = np.cumsum(kept_weights(case["logits"], case["temperature"], case["top_k"]), axis=1).ravel()
    top_p = case["top_p"]
    for _ in range(100):
        if np.min(np.abs(sums - top_p)) >= MARGIN:
            return dict(case, top_p=top_p)
        top_p = float(np.round(rng.uniform(0.05, 0.99), 6))
    return dict(case, top_p=None)


def _clear_of_cumulatives(case):
    """Each u moved at least MARGIN away from every positive cumulative C_t of its row (left open
    within 1e-9): to the middle of its row's most probable token's interval."""
    probs = torch_probs(case["logits"], temperature=case["temperature"], top_k=case["top_k"],
                        top_p=case["top_p"])
    cdf = np.cumsum(probs, axis=1)
    cdf /= cdf[:, -1:]
    u = case["u"].copy()
    for r in range(len(u)):
        positive = cdf[r][cdf[r] > 0]
        if np.min(np.abs(positive - u[r])) < MARGIN:
            t = int(np.argmax(probs[r]))
            u[r] = ((cdf[r, t - 1] if t else 0.0) + cdf[r, t]) / 2
    return dict(case, u=u)


@S.valid_inputs()
@st.composite
def cases(draw, kind=None, temperature=None, top_k=None, top_p="drawn", zero_u=True):
    """Keyword arguments of a valid call. ``kind``: the logits' kind (drawn if None);
    ``temperature``, ``top_k`` (a TOP_K choice) and ``top_p``: fixed, or drawn (``top_p``: from
    TOP_P, or from the strategy given)."""
    b, V = draw(SIZES)
    rng = S.rng_for(draw(S.SEEDS))
    kind = kind or draw(st.sampled_from(KINDS))
    temp = draw(TEMPERATURES) if temperature is None else temperature
    logits = draw_logits(rng, b, V, kind, temp)
    u = np.round(rng.random(b), 4)
    if zero_u:
        u[rng.random(b) < 0.25] = 0.0
    case = {
        "logits": logits,
        "u": u,
        "temperature": temp,
        "top_k": _top_k(rng, V, draw(TOP_K) if top_k is None else top_k),
        "top_p": draw(TOP_P) if top_p == "drawn" else draw(top_p) if isinstance(top_p, st.SearchStrategy) else top_p,
    }
    return _clear_of_cumulatives(_clear_of_prefix_sums(rng, case))


def run(kata, case) -> tuple[np.ndarray, np.ndarray]:
    """Call the candidate on a valid call; check it returns (tokens (b,) of an integer dtype,
    probs (b, V) float64)."""
    result = kata(**case)
    b, V = np.shape(case["logits"])
    if not isinstance(result, tuple) or len(result) != 2:
        raise KataMismatch(said("fail.not-pair", type=type(result).__name__))
    tokens, probs = result
    if not isinstance(tokens, np.ndarray) or tokens.shape != (b,) or tokens.dtype.kind not in "iu":
        raise KataMismatch(said("fail.tokens-type", b=b, got=_described(tokens)))
    return tokens, check_array(probs, "probs", (b, V))


def _described(a) -> str:
    if isinstance(a, np.ndarray):
        return f"an array of shape {a.shape}, dtype {a.dtype}"
    return f"{type(a).__name__} {a!r:.80}"


def about(case) -> dict:
    b, V = np.shape(case["logits"])
    return said("part.about", b=b, V=V, temperature=case["temperature"], top_k=case["top_k"],
                top_p=case["top_p"], u=np.asarray(case["u"]).tolist() if b <= 8 else "...")


def check_sampled(case, got, want, why=None) -> None:
    """probs at rtol 1e-9 / atol 1e-300, then tokens exactly."""
    (tokens, probs), (want_tokens, want_probs) = got, want
    check_close(probs, want_probs, "probs", why or said("why.probs", about=about(case)), rtol=RTOL, atol=ATOL)
    if not np.array_equal(tokens, want_tokens):
        r = int(np.flatnonzero(tokens != want_tokens)[0])
        raise KataMismatch(said("fail.token", r=r, got=int(tokens[r]), want=int(want_tokens[r]),
                                u=repr(float(case["u"][r])), about=about(case)))


# -- Properties of a correct answer ---------------------------------------------------------------

_TIED = np.array([[1.0, 3.0, 3.0, 0.5, 3.0], [2.0, -1.0, 2.0, 2.0, 0.0]])


@prop(case=cases())
@example(case={"logits": _TIED, "u": np.array([0.0, 0.6]), "temperature": 1.0, "top_k": 2, "top_p": None})
@example(case={"logits": np.array([[0.0, 1.0, 2.0, 3.0]]), "u": np.array([0.3]), "temperature": 0.5,
               "top_k": 3, "top_p": 0.9})
@example(case={"logits": _TIED, "u": np.array([0.7, 0.2]), "temperature": 0.0, "top_k": 1, "top_p": 0.5})
# near 0 but not greedy: z = [0, 2, -4], probs [0.118, 0.876, 0.002], and u = 0.05 draws token 0
@example(case={"logits": np.array([[0.0, 0.01, -0.02]]), "u": np.array([0.05]), "temperature": 0.005,
               "top_k": None, "top_p": None})
# a tie under a tiny temperature: z = [0, 0, -1000], probs [0.5, 0.5, 0] (not one-hot)
@example(case={"logits": np.array([[0.0, 0.0, -0.001]]), "u": np.array([0.7]), "temperature": 1e-6,
               "top_k": None, "top_p": None})
# top_k above V as an unsigned NumPy integer: V - top_k wraps around in np.uint64, so an answer
# that drops the last V - top_k tokens drops all but one (a blind hostile round, stop 58)
@example(case={"logits": np.array([[1.0, 2.0, 3.0]]), "u": np.array([0.1]), "temperature": 1.0,
               "top_k": np.uint64(4), "top_p": None})
def test_matches_hugging_face_warpers_in_torch(kata, case):
    """Matches torch with Hugging Face's warper chain (temperature, top-k, shifted top-p, softmax) and the inverse CDF at u"""
    check_sampled(case, run(kata, case), want_of(case))


#: Properties that draw no input: they build a fixed one themselves (tests/strategies.py).
INPUT_BUILT_INSIDE = ("test_the_largest_realistic_case_matches_torch",)


@prop(seed=st.just(0))
def test_the_largest_realistic_case_matches_torch(kata, seed):
    """The compare battery's largest realistic case (b = 64, V = 4096) matches torch, checked as test_matches_hugging_face_warpers_in_torch checks its cases"""
    L.check_with(test_matches_hugging_face_warpers_in_torch, kata, L.largest_case("sampling"))


@prop(case=cases())
def test_each_row_is_a_distribution_and_its_token_has_probability(kata, case):
    """Each row of probs is >= 0 and sums to 1, and each row's token has a positive probability"""
    tokens, probs = run(kata, case)
    check_that(np.all(probs >= 0), said("fail.negative", smallest=repr(float(np.min(probs)))))
    b = probs.shape[0]
    check_close(probs.sum(axis=1), np.ones(b), said("what.row-sums"), said("why.row-sums", about=about(case)))
    inside = (tokens >= 0) & (tokens < probs.shape[1])
    check_that(inside.all(), said("fail.token-range", tokens=tokens.tolist(), V=probs.shape[1]))
    drawn = probs[np.arange(b), tokens]
    check_that(np.all(drawn > 0), said("fail.token-zero", r=int(np.argmin(drawn)), token=int(tokens[np.argmin(drawn)]),
                                       about=about(case)))


@prop(case=cases(kind="ties", top_k="between", top_p=None, temperature=1.0))
@example(case={"logits": _TIED, "u": np.array([0.1, 0.9]), "temperature": 1.0, "top_k": 2, "top_p": None})
def test_top_k_keeps_exactly_k_tokens_even_when_tied(kata, case):
    """top_k keeps exactly the first top_k tokens of the rank, ties at the boundary broken to the lower index"""
    _, probs = run(kata, case)
    want_tokens, want_probs = want_of(case)
    kept = probs > 0
    for r in range(probs.shape[0]):
        if not np.array_equal(kept[r], want_probs[r] > 0):
            raise KataMismatch(said("fail.kept", r=r, got=np.flatnonzero(kept[r]).tolist(),
                                    want=np.flatnonzero(want_probs[r] > 0).tolist(),
                                    logits=case["logits"][r].tolist(), top_k=case["top_k"]))
    check_sampled(case, run(kata, case), (want_tokens, want_probs))


@prop(case=cases(kind="ordinary", top_k="none", top_p=None, zero_u=False), seed=S.SEEDS)
def test_top_p_keeps_the_token_that_reaches_it(kata, case, seed):
    """top_p keeps the shortest prefix of the rank whose probability reaches top_p: the token that crosses it stays"""
    if case["temperature"] == 0:
        case = dict(case, temperature=1.0)
    w = kept_weights(case["logits"], case["temperature"], None)
    sums = np.cumsum(w, axis=1)
    # top_p just past a drawn row's first prefix sums (at least MARGIN away from every one of them)
    r = int(S.rng_for(seed).integers(0, len(sums)))
    j = int(S.rng_for(seed).integers(0, sums.shape[1]))
    top_p = float(min(sums[r, j] + 0.5 * (1.0 - sums[r, j]) * float(S.rng_for(seed).uniform(0.1, 0.9)), 0.999))
    case = _clear_of_cumulatives(_clear_of_prefix_sums(S.rng_for(seed), dict(case, top_p=top_p)))
    check_sampled(case, run(kata, case), want_of(case), said("why.top-p", about=about(case)))


@prop(case=cases(kind="ordinary", top_k="between", top_p=0.7))
@example(case={"logits": np.array([[3.0, 2.0, 1.0, 0.0, -1.0]]), "u": np.array([0.5]), "temperature": 1.0,
               "top_k": 2, "top_p": 0.7})
def test_top_p_is_measured_on_the_tokens_top_k_kept(kata, case):
    """top_k is applied first and top_p on the softmax renormalised over the tokens top_k kept (HF's order)"""
    check_sampled(case, run(kata, case), want_of(case), said("why.order", about=about(case)))


@prop(case=cases(kind="ties", temperature=0.0))
@example(case={"logits": _TIED, "u": np.array([0.99, 0.5]), "temperature": 0.0, "top_k": 3, "top_p": 0.2})
def test_temperature_zero_is_greedy_at_the_first_maximum(kata, case):
    """temperature 0 gives probs one-hot at the first maximum (the lower index among ties), whatever u, top_k and top_p"""
    tokens, probs = run(kata, case)
    first = np.argmax(case["logits"], axis=1)
    want = np.zeros_like(probs)
    want[np.arange(len(first)), first] = 1.0
    check_close(probs, want, "probs", said("why.greedy", about=about(case)), rtol=RTOL, atol=ATOL)
    check_that(np.array_equal(tokens, first), said("fail.greedy-token", got=tokens.tolist(), want=first.tolist()))


@prop(case=cases(kind="ordinary", top_k="below", top_p=None), seed=S.SEEDS)
def test_u_zero_never_draws_a_token_of_probability_zero(kata, case, seed):
    """At u = 0 the token is the first with a positive probability (u < C_t is strict), never a filtered token before it"""
    if case["temperature"] == 0:
        case = dict(case, temperature=1.0)
    logits = case["logits"].copy()
    b, V = logits.shape
    if V < 2:
        logits = np.hstack([logits, logits + 1.0])
        V = 2
    logits[:, 0] = logits.min(axis=1) - 1.5  # token 0 is last in every row's rank: top_k = V - 1 drops it
    case = dict(case, logits=logits, top_k=V - 1, u=np.zeros(b))
    # u = 0 must lie clear of the first positive C_t (left open within 1e-9): where the first
    # token with a positive probability has less than MARGIN, token 1 is raised to the row's max
    probs = torch_probs(logits, temperature=case["temperature"], top_k=V - 1, top_p=None)
    first = np.cumsum(probs, axis=1)[:, 1]
    if (first < MARGIN).any():
        logits[first < MARGIN, 1] = logits[first < MARGIN].max(axis=1)
    tokens, probs = run(kata, case)
    want_tokens, want_probs = want_of(case)
    check_that(np.array_equal(tokens, want_tokens),
               said("fail.u-zero", got=tokens.tolist(), want=want_tokens.tolist(), about=about(case)))
    check_sampled(case, (tokens, probs), (want_tokens, want_probs))


#: top_p None or 1 (float or int): each keeps every token top_k kept. An answer that runs the top-p
#: mask for 1 too drops the tail, whose shifted cumulative sum rounds to exactly 1 (stop 54's round).
@prop(case=cases(kind="peaky", top_p=st.sampled_from([None, 1.0, 1])))
@example(case={"logits": np.array([[0.0, -50.0, -100.0, 30.0]]), "u": np.array([0.5]), "temperature": 1.0,
               "top_k": None, "top_p": None})
@example(case={"logits": np.array([[0.0, -50.0, -100.0, 30.0]]), "u": np.array([0.5]), "temperature": 1.0,
               "top_k": None, "top_p": 1.0})
def test_tiny_probabilities_of_kept_tokens_are_kept(kata, case):
    """A kept token's probability of 1e-20 or 1e-80 is returned as it is (relative 1e-9), not flushed to 0, with top_p None or 1"""
    check_sampled(case, run(kata, case), want_of(case), said("why.tiny", about=about(case)))


@prop(case=cases(kind="large"))
@example(case={"logits": np.array([[1000.0, 999.0, 990.0]]), "u": np.array([0.5]), "temperature": 1.0,
               "top_k": None, "top_p": None})
def test_large_logits_do_not_overflow(kata, case):
    """logits / temperature of 750 to 9000 (either sign) give finite probabilities (shift by each row's max before exp)"""
    tokens, probs = run(kata, case)
    check_that(np.isfinite(probs).all(), said("fail.not-finite", about=about(case)))
    check_sampled(case, (tokens, probs), want_of(case))


@prop(case=cases(kind="mixed"))
def test_rows_thousands_apart_each_normalise(kata, case):
    """Rows whose logits lie thousands apart each normalise on their own (one max per row, not per batch)"""
    check_sampled(case, run(kata, case), want_of(case), said("why.rows", about=about(case)))


#: NumPy integers of every width and sign the contract allows (top_k stays below 256 here).
INTEGER_FORMS = ("int", "np.int64", "np.int32", "np.uint64", "np.uint32", "np.int16", "np.uint16", "np.uint8")


@prop(case=cases(kind="ordinary", top_k="between", top_p=0.9), form=S.INPUT_FORMS, forms=st.sampled_from(INTEGER_FORMS))
def test_accepts_array_likes_and_numpy_scalars(kata, case, form, forms):
    """Accepts logits and u as lists, integer or float32 arrays (any memory layout), top_k as a NumPy integer, temperature and top_p as NumPy floats"""
    if 0 < case["temperature"] < 0.05:  # uint8 logits over a tiny temperature: |z| far past 1e4 (left open)
        case = dict(case, temperature=0.5)
    logits, value = S.as_form(case["logits"], form)
    as_type = int if forms == "int" else getattr(np, forms[len("np."):])
    top_k = as_type(case["top_k"])
    temperature = np.float64(case["temperature"]) if case["temperature"] != 1 else 1
    given = dict(case, logits=logits, u=case["u"].tolist(), top_k=top_k, temperature=temperature,
                 top_p=np.float64(case["top_p"]))
    valid = _clear_of_cumulatives(_clear_of_prefix_sums(S.rng_for(0), dict(case, logits=value)))
    given["u"] = valid["u"].tolist()
    given["top_p"] = np.float64(valid["top_p"]) if valid["top_p"] is not None else None
    check_sampled(valid, run(kata, given), want_of(valid), said("why.forms", form=form, about=about(valid)))


@prop(case=cases())
def test_does_not_modify_its_inputs(kata, case):
    """logits and u are left exactly as they were"""
    check_leaves_inputs_alone(lambda: run(kata, case), case, FUNCTION)


# -- Contract violations -> ValueError ------------------------------------------------------------


@prop(case=cases(), how=st.sampled_from(["0-d", "1-D", "3-D"]))
def test_rejects_logits_that_are_not_2d(kata, case, how):
    """logits that is a scalar, a vector or a 3-D batch raises ValueError"""
    x = case["logits"]
    bad = {"0-d": np.float64(x[0, 0]), "1-D": x[0].copy(), "3-D": x[None].copy()}[how]
    u = case["u"][:1] if how != "3-D" else case["u"]
    expect_value_error(lambda: kata(**dict(case, logits=bad, u=u)), said("because.not-2d", shape=np.shape(bad)))


@CONTRACT.rejects_a_zero_size(cases(), {"b": "b = 0", "V": "V = 0"})
def test_rejects_an_empty_logits(kata, case):
    """logits with no rows (b = 0) or no tokens (V = 0) raises ValueError"""


@st.composite
def u_of_wrong_shape(draw):
    case = draw(cases())
    u = case["u"]
    shapes = {"one too many": np.append(u, 0.5), "(1, b)": u[None].copy(), "(b, 1)": u[:, None].copy(),
              "a scalar": np.float64(u[0])}
    if u.size >= 2:
        shapes["one too few"] = u[:-1].copy()
    name = draw(st.sampled_from(sorted(shapes)))
    return case, name, shapes[name]


@prop(bad=u_of_wrong_shape())
@example(bad=({"logits": np.array([[1.0, 2.0]]), "u": np.array([0.5]), "temperature": 1.0, "top_k": None,
               "top_p": None}, "a scalar", 0.5))
def test_rejects_u_not_of_shape_b(kata, bad):
    """u whose shape is not exactly (b,), a scalar included, raises ValueError (no broadcasting)"""
    case, name, u = bad
    expect_value_error(lambda: kata(**dict(case, u=u)),
                       said("because.u-shape", shape=np.shape(u), b=case["logits"].shape[0]))


@CONTRACT.rejects_non_finite(cases())
def test_rejects_nan_or_inf(kata, case, value, seed):
    """NaN, inf or -inf in logits or u raises ValueError"""


@prop(case=cases(), value=st.sampled_from([1.0, 1.5, -0.25, -1e-12, 1 + 1e-12, 7.0]), seed=S.SEEDS)
def test_rejects_u_outside_zero_one(kata, case, value, seed):
    """An entry of u outside [0, 1) (1 included) raises ValueError"""
    u = case["u"].copy()
    r = int(S.rng_for(seed).integers(0, len(u)))
    u[r] = value
    expect_value_error(lambda: kata(**dict(case, u=u)), said("because.u-range", r=r, value=repr(value)))


BAD_TEMPERATURES = [-1.0, -1e-9, np.nan, np.inf, -np.inf, True, False, "1.0", None, [1.0]]


@prop(case=cases(), temperature=st.sampled_from(BAD_TEMPERATURES))
def test_rejects_a_temperature_that_is_not_a_finite_real_at_least_zero(kata, case, temperature):
    """temperature below 0, NaN, inf, a bool, a string, None or a list raises ValueError"""
    expect_value_error(lambda: kata(**dict(case, temperature=temperature)),
                       said("because.temperature", temperature=repr(temperature)))


BAD_TOP_K = [0, -1, -3, 2.0, 1.5, True, False, "2", np.float64(3.0)]


@prop(case=cases(), top_k=st.sampled_from(BAD_TOP_K))
@example(case={"logits": np.array([[1.0, 2.0]]), "u": np.array([0.5]), "temperature": 1.0, "top_k": None,
               "top_p": None}, top_k=0)
def test_rejects_a_top_k_that_is_not_none_or_an_int_at_least_one(kata, case, top_k):
    """top_k of 0 (None disables it), negative, a float (even 2.0), a bool or a string raises ValueError"""
    expect_value_error(lambda: kata(**dict(case, top_k=top_k)), said("because.top-k", top_k=repr(top_k)))


BAD_TOP_P = [0.0, -0.5, 1.5, 1 + 1e-12, np.nan, np.inf, True, "0.9", 2]


@prop(case=cases(), top_p=st.sampled_from(BAD_TOP_P))
def test_rejects_a_top_p_that_is_not_none_or_a_real_in_zero_one(kata, case, top_p):
    """top_p of 0, below 0, above 1, NaN, inf, a bool or a string raises ValueError"""
    expect_value_error(lambda: kata(**dict(case, top_p=top_p)), said("because.top-p", top_p=repr(top_p)))


@prop(case=cases(kind="ordinary"), seed=S.SEEDS)
def test_rejects_logits_that_overflow_after_the_temperature(kata, case, seed):
    """A tiny temperature that makes logits / temperature overflow to inf raises ValueError"""
    logits = case["logits"].copy()
    r, t = (int(S.rng_for(seed).integers(0, s)) for s in logits.shape)
    logits[r, t] = 1e300
    expect_value_error(lambda: kata(**dict(case, logits=logits, temperature=1e-10)),
                       said("because.overflow", r=r, t=t))
