"""The judge for katas/speculative_decoding.py: speculative_verify(draft_tokens, q, p, u_accept, u_sample).

Shapes: draft_tokens (k,), q (k, V), p (k + 1, V), u_accept (k,), u_sample a real; the result
is a 1-D integer array of length 1 to k + 1 (the accepted drafts, then one token). k is 0 in
one draw in eight, else mostly 1 to 6, sometimes 8 to 128; V mostly 1 to 6, sometimes 8 to
128 (tests/sizes.py: one of the two reaches 64 or more in about one draw in four, sizes that
are not powers of two included).

The oracle is torch, float64, vectorised: the ratios p[i, x_i] / q[i, x_i] by gather, the
accepted count as the sum of cumprod(u_accept < ratio), then clamp(p[n] - q[n], min=0) (or
p[k] when all are accepted) and searchsorted(cumsum / sum, u_sample, right=True). Tokens are
compared exactly. One more property checks the theorem itself by Monte Carlo: the first
emitted token is distributed as p[0] (fixed rows, MC_DRAWS calls; see its docstring for the
bound and why it is not the issue's 20000 draws).

Draws: rows of q and p of four kinds, dense (softmax of N(0, 1)), sparse (exact zeros, as
after top-k: p[i, x_i] = 0 is drawn, so a draft the target cannot emit is rejected even at
u = 0), peaky (scale 4: tiny probabilities) and close (p a perturbation of q, or equal rows:
long accepted prefixes and the bonus token at k = 64 and beyond); drafts drawn from q by the
inverse CDF, so q[i, x_i] > 0; the path planned one way in three: u_accept as drawn (most
drafts rejected early), every draft accepted (the bonus token), or the first rejection at a
drawn position; u_accept and u_sample uniform (4 decimals), one in four exactly 0.

Left open by the contract and never drawn: a u_accept[i] within 1e-9 of a positive ratio
(every drawn one is moved at least MARGIN = 1e-8 away: ``_settled``); a u_sample within 1e-9
of a positive cumulative C_t of the distribution it is drawn from (moved to the middle of the
most probable token's interval); a rejection whose residual has a mass below 1e-5 (the
rejected row is made equal to q's, so its draft is accepted); a 0-d array as u_sample;
message wording. Rows that sum to 1 only approximately (float32 values, rows scaled by
1 +- 5e-7) keep wider margins (1e-3, a residual of mass >= 0.05), and a drawn residual has no
exact ties p_t == q_t: an answer that renormalises the rows first (not the contract's formula)
is then never caught by chance. Every bad input below breaks exactly one rule of the contract.
"""

import math

import numpy as np
from hypothesis import example, strategies as st

from dojo.text.messages import is_message, message
from tests import oracle
from tests import largest as L
from tests import strategies as S
from tests.contract import Contract
from tests.judge import (
    KataMismatch,
    check_leaves_inputs_alone,
    check_that,
    expect_value_error,
    prop,
)

FUNCTION = "speculative_verify"
#: A drawn u_accept or u_sample stays this far from every value where rounding decides (the
#: contract leaves 1e-9 open).
MARGIN = 1e-8
#: A drawn rejection's residual has at least this mass (the contract leaves below 1e-6 open).
MIN_RESIDUAL = 1e-5
#: (margin, residual mass) for rows that sum to 1 only approximately (see ``_settled``).
WIDE = (1e-3, 0.05)


def said(key: str, **params) -> dict:
    """A sentence of this judge, ``judge.speculative_decoding.<key>``
    (dojo/catalogue/katas/speculative_decoding/<lang>/judge.toml), its values as strings (a
    message stays a message)."""
    return message(f"judge.speculative_decoding.{key}", **{k: v if is_message(v) else str(v) for k, v in params.items()})


def PROBE():
    return {"draft_tokens": np.array([1]), "q": np.array([[0.5, 0.5]]), "p": np.array([[0.25, 0.75], [0.5, 0.5]]),
            "u_accept": np.array([0.3]), "u_sample": 0.7}


CONTRACT = Contract({"q": ("k", "V"), "p": ("k+1", "V"), "u_accept": ("k",)})


# -- Oracle (torch, float64) --------------------------------------------------------------------


@oracle.memoised
def torch_verify(draft_tokens, q, p, u_accept, *, u_sample):
    """(tokens, [accepted count, ratios...]): Leviathan et al.'s verification, vectorised in torch."""
    t = oracle.torch()
    x = t.from_numpy(np.asarray(draft_tokens, dtype=np.int64))
    q, p, u = oracle.tensor(q), oracle.tensor(p), oracle.tensor(u_accept)
    k = x.shape[0]
    ratio = p[:k].gather(1, x[:, None])[:, 0] / q.gather(1, x[:, None])[:, 0]
    n = int(t.cumprod((u < ratio).to(t.int64), dim=0).sum()) if k else 0
    w = p[k] if n == k else t.clamp(p[n] - q[n], min=0.0)
    cdf = w.cumsum(dim=0)
    token = t.searchsorted(cdf / cdf[-1], t.tensor([float(u_sample)], dtype=t.float64), right=True)
    tokens = t.cat([x[:n], token])
    return tokens.numpy(), np.concatenate([[n], ratio.numpy()])


def want_of(case) -> tuple[np.ndarray, int, np.ndarray]:
    """(tokens, accepted count, ratios) from the oracle."""
    tokens, info = torch_verify(_tokens(case["draft_tokens"]), case["q"], case["p"], case["u_accept"],
                                u_sample=float(case["u_sample"]))
    return tokens.astype(np.int64), int(info[0]), info[1:]


def _tokens(x) -> np.ndarray:
    return np.asarray(x).astype(np.int64).reshape(-1)


# -- Strategies -----------------------------------------------------------------------------------

KINDS = ("dense", "sparse", "peaky", "close")
PLANS = ("as drawn", "accept all", "reject at")
SIZES = S.size_tuple(2, 1, 6, distinct=False, max_large=1)


def _normalised(w: np.ndarray) -> np.ndarray:
    return w / w.sum(axis=-1, keepdims=True)


def draw_rows(rng, rows: int, V: int, kind: str) -> np.ndarray:
    """``rows`` distributions over V tokens of ``kind`` (each sums to 1 within rounding)."""
    scale = 4.0 if kind == "peaky" else float(rng.choice([0.5, 1.0, 2.0]))
    w = np.exp(S.normal(rng, (rows, V), scale))
    if kind == "sparse" and V > 1:
        zero = rng.random((rows, V)) < rng.choice([0.3, 0.6])
        zero[np.arange(rows), rng.integers(0, V, size=rows)] = False  # each row keeps a token
        w[zero] = 0.0
    return _normalised(w)


def inverse_cdf(w: np.ndarray, u: float) -> int:
    """The judge's own draw of a token from w (for drafts and plans, never an expected value)."""
    cdf = np.cumsum(w) / np.sum(w)
    return int(min(np.searchsorted(cdf, u, side="right"), len(w) - 1))


def _residual(case, r: int) -> np.ndarray:
    return np.maximum(case["p"][r] - case["q"][r], 0.0)


def _clear(u: float, boundary: float, margin: float = MARGIN, lo: float = 0.0) -> float:
    """u moved at least ``margin`` away from ``boundary``, on the same side where there is room."""
    if abs(u - boundary) >= margin:
        return u
    below, above = boundary - 2 * margin, boundary + 2 * margin
    if (u < boundary and below >= lo) or above >= 1:
        return max(below, lo)
    return above


def _settled(case: dict, margin: float = MARGIN, min_mass: float = MIN_RESIDUAL) -> dict:
    """The case with every left-open situation moved away (see the module docstring): each
    u_accept at least ``margin`` from its positive ratio, a rejection's residual of mass >=
    ``min_mass`` (else the rejected row of p is made q's, and the path goes on), u_sample at
    least ``margin`` from every positive cumulative of the distribution it is drawn from.

    Rows that sum to 1 only approximately (float32 values, rows scaled by 1 +- 5e-7) are settled
    with WIDE margins: an answer that renormalises the rows first (not the contract's formula,
    which uses p and q as given) then moves a ratio or a cumulative by about 1e-6 relative, and
    the judge must not catch it only now and then."""
    x, q, p = _tokens(case["draft_tokens"]), case["q"], case["p"]
    u = np.array(case["u_accept"], dtype=np.float64)
    k = len(x)
    for _ in range(k + 1):
        ratio = p[np.arange(k), x] / q[np.arange(k), x] if k else np.zeros(0)
        for i in range(k):
            if ratio[i] > 0:
                u[i] = _clear(u[i], ratio[i], margin)
        rejected = np.flatnonzero(~(u < ratio))
        n = int(rejected[0]) if rejected.size else k
        if n == k or _residual(dict(case, p=p), n).sum() >= min_mass:
            break
        p = p.copy()
        p[n] = q[n]  # ratio 1: accepted
    case = dict(case, p=p, u_accept=u if isinstance(case["u_accept"], np.ndarray) else u.tolist())
    w = p[k] if n == k else _residual(case, n)
    cdf = np.cumsum(w) / np.sum(w)
    us = float(case["u_sample"])
    positive = cdf[cdf > 0]
    if np.min(np.abs(positive - us)) < margin:
        t = int(np.argmax(w))
        us = float(((cdf[t - 1] if t else 0.0) + cdf[t]) / 2)
        case["u_sample"] = us
    return case


def _rejectable(rng, p_row: np.ndarray, q_row: np.ndarray, x: int) -> np.ndarray:
    """p_row with p[x] below q[x] / 2 (its mass moved to another token), so draft x can be
    rejected (V >= 2)."""
    p_row = p_row.copy()
    if p_row[x] >= 0.5 * q_row[x]:
        keep = float(rng.choice([0.0, 0.25, 0.5])) * q_row[x] * 0.9
        other = int((x + 1 + rng.integers(0, len(p_row) - 1)) % len(p_row))
        p_row[other] += p_row[x] - keep
        p_row[x] = keep
    return p_row


def build_case(rng, k: int, V: int, kind: str, plan: str, zero_u: bool = True, list_drafts: bool = False) -> dict:
    q = draw_rows(rng, k, V, "dense" if kind == "close" else kind)
    if kind == "close":
        p = np.vstack([q, draw_rows(rng, 1, V, "dense")])
        noisy = rng.random(k) < 0.7  # the others stay equal to q's: ratio exactly 1
        p[:k][noisy] = _normalised(q[noisy] * np.exp(S.normal(rng, (int(noisy.sum()), V), 0.3)))
    else:
        p = draw_rows(rng, k + 1, V, kind)
    x = np.array([inverse_cdf(q[i], rng.random()) for i in range(k)], dtype=np.int64)
    u = np.floor(rng.random(k) * 1e4) / 1e4  # 4 decimals, below 1
    if zero_u:
        u[rng.random(k) < 0.25] = 0.0
    if plan != "as drawn" and k:
        r = int(rng.integers(0, k)) if plan == "reject at" and V >= 2 else k
        for i in range(r):
            ratio = p[i, x[i]] / q[i, x[i]]
            if ratio == 0:
                p[i] = q[i]
                ratio = 1.0
            u[i] = np.floor(min(ratio, 1.0) * rng.random() * 1e4) / 1e4
        if r < k:
            if np.array_equal(p[r], q[r]):  # no exact ties p_t == q_t in a residual (see _settled)
                p[r] = _normalised(q[r] * np.exp(S.normal(rng, V, 0.3) + 0.01))
            p[r] = _rejectable(rng, p[r], q[r], x[r])
            ratio = p[r, x[r]] / q[r, x[r]]
            u[r] = min(np.ceil((ratio + (1 - ratio) * rng.random()) * 1e4) / 1e4, 0.9999)
    us = float(np.floor(rng.random() * 1e4) / 1e4) if not zero_u or rng.random() >= 0.25 else 0.0
    case = {"draft_tokens": x.tolist() if list_drafts else x, "q": q, "p": p, "u_accept": u, "u_sample": us}
    return _settled(case)


@S.valid_inputs()
@st.composite
def cases(draw, kind=None, plan=None, min_k=0, min_V=1, zero_u=True):
    """Keyword arguments of a valid call. ``kind``: the rows' kind, ``plan``: the path (both drawn
    if None); k >= ``min_k`` (0 in one draw in eight when allowed), V >= ``min_V``."""
    k, V = draw(SIZES)
    if min_k == 0 and draw(st.integers(0, 7)) == 0:
        k = 0
    k, V = max(k, min_k), max(V, min_V)
    rng = S.rng_for(draw(S.SEEDS))
    kind = kind or draw(st.sampled_from(KINDS))
    plan = plan or draw(st.sampled_from(PLANS))
    list_drafts = k == 0 and draw(st.booleans())  # k = 0 as [] (float64 when converted) or an int array
    return build_case(rng, k, V, kind, plan, zero_u, list_drafts)


def run(kata, case) -> np.ndarray:
    """Call the candidate on a valid call; check it returns a 1-D integer array of length 1..k + 1."""
    result = kata(**case)
    k = len(_tokens(case["draft_tokens"]))
    if not (isinstance(result, np.ndarray) and result.ndim == 1 and result.dtype.kind in "iu"
            and 1 <= result.shape[0] <= k + 1):
        raise KataMismatch(said("fail.tokens-type", k=k, most=k + 1, got=_described(result)))
    return result


def _described(a) -> str:
    if isinstance(a, np.ndarray):
        return f"an array of shape {a.shape}, dtype {a.dtype}"
    return f"{type(a).__name__} {a!r:.80}"


def _short(a) -> str:
    a = np.asarray(a)
    return str(a.tolist()) if a.size <= 8 else f"{np.array2string(a[:6], precision=4)[:-1]} ...] ({a.size})"


def about(case) -> dict:
    x = _tokens(case["draft_tokens"])
    return said("part.about", k=len(x), V=np.shape(case["p"])[1], drafts=_short(x),
                u_accept=_short(np.round(np.asarray(case["u_accept"], dtype=np.float64), 10)),
                u_sample=repr(float(case["u_sample"])))


def path_of(case, n: int, ratios: np.ndarray) -> dict:
    """What the reference does, in words: how many drafts it accepts and where the last token comes from."""
    x = _tokens(case["draft_tokens"])
    k = len(x)
    u = np.asarray(case["u_accept"], dtype=np.float64)
    if n == k:
        return said("part.all-accepted", n=n, k=k)
    return said("part.rejected", n=n, k=k, i=n, u=repr(float(u[n])), ratio=f"{ratios[n]:.6g}", x=int(x[n]))


def check_verified(case, got, why=None) -> None:
    """The tokens exactly as the oracle's."""
    want, n, ratios = want_of(case)
    if np.array_equal(got, want):
        return
    raise KataMismatch(said("fail.tokens", got=got.tolist(), want=want.tolist(), path=path_of(case, n, ratios),
                            why=why or said("why.tokens"), about=about(case)))


# -- Properties of a correct answer ---------------------------------------------------------------

_P_ZERO = {"draft_tokens": np.array([2, 0]), "q": np.array([[0.2, 0.3, 0.5], [0.6, 0.4, 0.0]]),
           "p": np.array([[0.5, 0.5, 0.0], [0.3, 0.3, 0.4], [0.1, 0.2, 0.7]]), "u_accept": np.array([0.0, 0.0]),
           "u_sample": 0.0}
_ALL_ACCEPTED = {"draft_tokens": np.array([1, 0]), "q": np.array([[0.5, 0.5, 0.0], [0.4, 0.4, 0.2]]),
                 "p": np.array([[0.25, 0.5, 0.25], [0.4, 0.3, 0.3], [0.0, 0.3, 0.7]]),
                 "u_accept": np.array([0.9, 0.5]), "u_sample": 0.0}


@prop(case=cases())
@example(case=_P_ZERO)
@example(case=_ALL_ACCEPTED)
@example(case={"draft_tokens": [], "q": np.zeros((0, 3)), "p": np.array([[0.0, 0.6, 0.4]]), "u_accept": [],
               "u_sample": 0.0})
# small but valid probabilities at the draft (a blind hostile round, stop 58): q = 1e-10, where
# p / (q + 1e-10) halves the ratio and rejects; q = 1e-13, which is not 0 (the draft model can
# draw it); and a residual of mass 1e-5, where dividing by (sum + 1e-8) moves u_sample = 0.9995
# past the last token of positive weight
@example(case={"draft_tokens": np.array([1]), "q": np.array([[1 - 1e-10, 1e-10]]),
               "p": np.array([[1 - 5e-11, 5e-11], [0.5, 0.5]]), "u_accept": np.array([0.4]), "u_sample": 0.3})
@example(case={"draft_tokens": np.array([1]), "q": np.array([[1 - 1e-13, 1e-13]]),
               "p": np.array([[0.5, 0.5], [0.5, 0.5]]), "u_accept": np.array([0.4]), "u_sample": 0.3})
@example(case={"draft_tokens": np.array([2]), "q": np.array([[0.49, 0.49, 0.02]]),
               "p": np.array([[0.49 + 5e-6, 0.49 + 5e-6, 0.02 - 1e-5], [1 / 3, 1 / 3, 1 / 3]]),
               "u_accept": np.array([0.9999]), "u_sample": 0.9995})
# rows that sum to 1 only within 1e-6 are used as given (stop 58's second round): renormalising
# p[0] first moves its ratio 0.5 up past u_accept = 0.5000002 and accepts; and a residual
# normalised by 1 - sum(min(p, q)) instead of its own sum ends its CDF below 1, so u_sample =
# 0.9999999 falls on the last token, of weight 0
@example(case={"draft_tokens": np.array([0]), "q": np.array([[0.6, 0.4]]), "p": np.array([[0.3, 0.7 - 9e-7], [0.5, 0.5]]),
               "u_accept": np.array([0.5000002]), "u_sample": 0.25})
@example(case={"draft_tokens": np.array([0]), "q": np.array([[0.5, 0.3, 0.2]]),
               "p": np.array([[0.3, 0.7 - 9e-7, 0.0], [0.2, 0.3, 0.5]]), "u_accept": np.array([0.9]), "u_sample": 0.9999999})
def test_matches_the_torch_verification(kata, case):
    """Matches torch: accept draft i iff u_accept[i] < p[i, x_i] / q[i, x_i], then one token from max(0, p - q) at the first rejection or from p[k], by the inverse CDF at u_sample"""
    check_verified(case, run(kata, case))


#: Properties that draw no input: they build a fixed one themselves (tests/strategies.py).
INPUT_BUILT_INSIDE = ("test_the_largest_realistic_case_matches_torch", "test_the_first_token_is_distributed_as_the_target")


@prop(seed=st.just(0))
def test_the_largest_realistic_case_matches_torch(kata, seed):
    """The compare battery's largest realistic case (k = 16 drafts, V = 32000) matches torch, checked as test_matches_the_torch_verification checks its cases"""
    L.check_with(test_matches_the_torch_verification, kata, L.largest_case("speculative_decoding"))


@prop(case=cases())
def test_returns_accepted_drafts_then_one_token(kata, case):
    """The answer is a prefix of the drafts, then one token the target can emit there (weight > 0 in the residual or in p[k])"""
    got = run(kata, case)
    x = _tokens(case["draft_tokens"])
    m = len(got) - 1
    check_that(np.array_equal(got[:m], x[:m]),
               said("fail.not-prefix", got=got.tolist(), drafts=_short(x), about=about(case)))
    last = int(got[m])
    V = np.shape(case["p"])[1]
    check_that(0 <= last < V, said("fail.token-range", token=last, V=V))
    k = len(x)
    w = case["p"][k] if m == k else _residual(case, m)
    check_that(w[last] > 0, said("fail.token-zero", token=last, at=m, k=k, about=about(case)))


@st.composite
def _with_a_draft_the_target_cannot_emit(draw):
    """A case whose first rejection is at a draft with p[r, x_r] = 0 and u_accept[r] = 0."""
    case = draw(cases(kind="sparse", plan="accept all", min_k=1, min_V=2))
    rng = S.rng_for(draw(S.SEEDS))
    x = _tokens(case["draft_tokens"])
    r = int(rng.integers(0, len(x)))
    p, u = case["p"].copy(), np.array(case["u_accept"], dtype=np.float64)
    # a fresh row (an accepted row may equal q's: its residual would be exact ties p_t == q_t)
    p[r] = draw_rows(rng, 1, p.shape[1], "dense")[0]
    other = int((x[r] + 1 + rng.integers(0, p.shape[1] - 1)) % p.shape[1])
    p[r, other] += p[r, x[r]]
    p[r, x[r]] = 0.0
    u[r] = 0.0
    return _settled(dict(case, p=p, u_accept=u))


_target_cannot_emit = S.valid_inputs()(_with_a_draft_the_target_cannot_emit)


@prop(case=_target_cannot_emit())
@example(case=_P_ZERO)
def test_a_draft_the_target_cannot_emit_is_rejected_even_at_u_zero(kata, case):
    """A draft with p[i, x_i] = 0 is rejected even when u_accept[i] = 0: u < p / q is strict"""
    check_verified(case, run(kata, case), said("why.strict-accept"))


@prop(case=cases(plan="reject at", min_k=1, min_V=2))
def test_a_rejection_draws_from_the_residual(kata, case):
    """At the first rejection the token is drawn from max(0, p[i] - q[i]), renormalised by the inverse CDF, at u_sample; the rest is ignored"""
    check_verified(case, run(kata, case), said("why.residual"))


@prop(case=cases(kind="close", plan="accept all"))
@example(case=_ALL_ACCEPTED)
def test_when_every_draft_is_accepted_the_bonus_comes_from_p_k(kata, case):
    """When every draft is accepted, k + 1 tokens come back: the drafts and a bonus token drawn from p[k] at u_sample"""
    check_verified(case, run(kata, case), said("why.bonus"))


@st.composite
def _no_drafts(draw):
    case = draw(cases(min_k=1))
    V = case["p"].shape[1]
    # an empty bool array is k = 0 too (the contract rejects bool arrays, an empty one excepted):
    # checking the dtype before the length refused it (a blind hostile round, stop 57)
    empty = draw(st.sampled_from(["[]", "int64", "np.array([])", "bool"]))
    x = {"[]": [], "int64": np.zeros(0, dtype=np.int64), "np.array([])": np.array([]), "bool": np.zeros(0, dtype=bool)}[empty]
    return _settled({"draft_tokens": x, "q": np.zeros((0, V)), "p": case["p"][-1:].copy(), "u_accept": [],
                     "u_sample": case["u_sample"]})


_no_draft_cases = S.valid_inputs()(_no_drafts)


@prop(case=_no_draft_cases())
@example(case={"draft_tokens": np.zeros(0, dtype=bool), "q": np.zeros((0, 2)), "p": np.array([[0.3, 0.7]]),
               "u_accept": [], "u_sample": 0.2})
def test_no_drafts_draws_one_token_from_p_0(kata, case):
    """k = 0 (draft_tokens [] or an empty array of any dtype, bool and float included; q (0, V)) returns one token drawn from p[0] at u_sample"""
    check_verified(case, run(kata, case), said("why.no-drafts"))


@st.composite
def _u_sample_zero(draw):
    """u_sample = 0 and weight 0 on token 0 of the distribution it is drawn from."""
    case = draw(cases(min_V=2, zero_u=False))
    x = _tokens(case["draft_tokens"])
    k = len(x)
    _, n, _ = want_of(case)
    p, q = case["p"].copy(), case["q"].copy()
    if n == k:
        j = 1 + int(np.argmax(p[k, 1:]))
        p[k, j] += p[k, 0]
        p[k, 0] = 0.0
    elif p[n, 0] >= q[n, 0]:  # token 0 of the residual gets weight 0: p[n, 0] = q[n, 0] / 2
        j = 1 + int(np.argmax(p[n, 1:]))  # (below q's by a clear gap, not an exact tie)
        p[n, j] += p[n, 0] - q[n, 0] / 2
        p[n, 0] = q[n, 0] / 2
    settled = _settled(dict(case, p=p, u_sample=0.0))
    return settled


_u_sample_zero_cases = S.valid_inputs()(_u_sample_zero)


@prop(case=_u_sample_zero_cases())
@example(case=_ALL_ACCEPTED)
def test_u_sample_zero_never_draws_a_token_of_weight_zero(kata, case):
    """At u_sample = 0 the token is the first with a positive weight (u < C_t is strict), never a token of weight 0 before it"""
    check_verified(case, run(kata, case), said("why.strict-sample"))


#: The Monte Carlo check's draws: the issue asks for 20000 within 0.02. Through the worker one
#: call costs about 1 ms (0.94 ms measured, 0.35 ms of it the worker's CPU), so 20000 calls would
#: take about 19 s, four times sampling's whole judge. It makes MC_DRAWS calls instead, with the
#: bound that keeps a correct answer's false alarm below MC_FALSE_ALARM (0.09 instead of 0.02: a
#: wrong distribution shows if it moves a token's probability by about 0.16 or more; MC_P0 and
#: MC_Q0 make each known distribution bug move one by 0.18 or more). One example per run, from a
#: fixed seed: the draws are the same every run (every correct answer returns the same tokens
#: on them, so none fails by chance); the fresh draws of the exact properties do the rest.
MC_DRAWS = 1000
MC_FALSE_ALARM = 1e-6
#: Rows where each known distribution bug moves a token's probability by 0.18 or more (found by a
#: search over rows in steps of 0.05): resampling from p (0.18), from q (0.32), the residual's
#: argmax (0.25), the ratio q / p (0.45); an unclamped residual sums to 0 here (NaN).
MC_P0 = np.array([0.3, 0.0, 0.4, 0.3, 0.0])
MC_Q0 = np.array([0.3, 0.15, 0.05, 0.05, 0.45])


def mc_bound(draws: int, V: int, false_alarm: float = MC_FALSE_ALARM) -> float:
    """Hoeffding with a union over the V tokens: a frequency of ``draws`` independent draws lies
    farther than this from its probability with probability at most ``false_alarm``."""
    return math.sqrt(math.log(2 * V / false_alarm) / (2 * draws))


@prop(seed=st.just(0))
def test_the_first_token_is_distributed_as_the_target(kata, seed):
    """Monte Carlo: with the draft drawn from q[0] and fresh uniforms, the first emitted token is distributed as p[0] (1000 draws, each token's frequency within 0.09 of p[0])"""
    rng = S.rng_for(20231)
    V = len(MC_P0)
    bound = mc_bound(MC_DRAWS, V)
    q, p = MC_Q0[None], np.vstack([MC_P0, MC_P0[::-1]])
    counts = np.zeros(V)
    for _ in range(MC_DRAWS):
        x = inverse_cdf(MC_Q0, rng.random())
        got = run(kata, {"draft_tokens": np.array([x]), "q": q, "p": p, "u_accept": np.array([rng.random()]),
                         "u_sample": float(rng.random())})
        first = int(got[0])
        check_that(0 <= first < V, said("fail.token-range", token=first, V=V))
        counts[first] += 1
    freq = counts / MC_DRAWS
    t = int(np.argmax(np.abs(freq - MC_P0)))
    check_that(abs(freq[t] - MC_P0[t]) <= bound,
               said("fail.monte-carlo", freq=np.round(freq, 3).tolist(), p=MC_P0.tolist(), q=MC_Q0.tolist(), t=t,
                    got=f"{freq[t]:.3f}", want=f"{MC_P0[t]:.3f}", bound=f"{bound:.3f}", draws=MC_DRAWS))


@st.composite
def _sums_within_tolerance(draw):
    """A case whose rows of q and p sum to 1 +- 5e-7 (scaled), inside the contract's 1e-6."""
    case = draw(cases(min_k=1))
    rng = S.rng_for(draw(S.SEEDS))
    k = len(_tokens(case["draft_tokens"]))
    q = case["q"] * (1 + rng.choice([-5e-7, 5e-7], size=(k, 1)))
    p = case["p"] * (1 + rng.choice([-5e-7, 5e-7], size=(k + 1, 1)))
    return _settled(dict(case, q=q, p=p), *WIDE)


_near_one_cases = S.valid_inputs()(_sums_within_tolerance)


@prop(case=_near_one_cases())
# the bonus token from p[0] of sum 1 - 8e-7: C_0 = 0.5 / (1 - 8e-7) = 0.5000004, so u = 0.5000002
# draws token 0; a cumsum left unnormalised (0.5) draws token 1 (a blind hostile round, stop 54)
@example(case={"draft_tokens": np.zeros(0, dtype=np.int64), "q": np.zeros((0, 2)), "p": np.array([[0.5, 0.5 - 8e-7]]),
               "u_accept": np.zeros(0), "u_sample": 0.5000002})
def test_accepts_rows_that_sum_to_one_within_1e_6(kata, case):
    """Rows of q and p summing to 1 +- 5e-7 are valid (the contract allows 1e-6) and verified as they are"""
    check_verified(case, run(kata, case), said("why.near-one"))


DRAFT_FORMS = ("list", "int32", "uint8", "int64")


@st.composite
def _in_other_forms(draw):
    case = draw(cases(min_k=1))
    form = draw(S.BASIC_FORMS.filter(lambda f: f != "int"))
    x = _tokens(case["draft_tokens"])
    V = case["p"].shape[1]
    drafts = draw(st.sampled_from(DRAFT_FORMS if V <= 255 else ("list", "int32", "int64")))
    # settled on the values as converted (float32 rounds them), then given in the form
    valid = _settled(dict(case, q=S.as_form(case["q"], form)[1], p=S.as_form(case["p"], form)[1]), *WIDE)
    us = float(valid["u_sample"])
    # np.float32 and np.int64 too: an answer that checks isinstance(u, (int, float)) refuses them
    # (np.float64 is a float; a blind hostile round, stop 54). The WIDE margin keeps a float32 u
    # on the same side of every cumulative.
    u_sample = draw(st.sampled_from(["float", "np.float64", "np.float32"] + (["int 0", "np.int64 0"] if us == 0 else [])))
    given = {"draft_tokens": x.tolist() if drafts == "list" else x.astype(drafts),
             "q": S.as_form(valid["q"], form)[0], "p": S.as_form(valid["p"], form)[0],
             "u_accept": np.asarray(valid["u_accept"]).tolist(),
             "u_sample": {"float": us, "np.float64": np.float64(us), "np.float32": np.float32(us), "int 0": 0,
                          "np.int64 0": np.int64(0)}[u_sample]}
    return {"given": given, "valid": valid, "forms": f"q and p as {form}, draft_tokens as {drafts}, u_accept as a "
                                                      f"list, u_sample as {u_sample}"}


def _given_and_valid(drawn) -> list[dict]:
    return [drawn["given"], drawn["valid"]]


_other_forms = S.valid_inputs(calls=_given_and_valid)(_in_other_forms)


@prop(case=_other_forms())
# u_sample as the int 0, Python and NumPy: drawn only when the drawn u_sample is 0, so some runs
# missed an answer that refuses ints (a blind hostile round, stop 57); tried on every run now
@example(case={"given": {"draft_tokens": [0], "q": [[0.5, 0.5]], "p": [[0.5, 0.5], [0.25, 0.75]], "u_accept": [0.3], "u_sample": 0},
               "valid": {"draft_tokens": np.array([0]), "q": np.array([[0.5, 0.5]]), "p": np.array([[0.5, 0.5], [0.25, 0.75]]),
                         "u_accept": np.array([0.3]), "u_sample": 0.0},
               "forms": "q and p as lists, draft_tokens as list, u_accept as a list, u_sample as int 0"})
@example(case={"given": {"draft_tokens": np.array([1], dtype=np.uint8), "q": np.array([[0.5, 0.5]], dtype=np.float32),
                         "p": [[0.5, 0.5], [0.25, 0.75]], "u_accept": [0.3], "u_sample": np.int64(0)},
               "valid": {"draft_tokens": np.array([1]), "q": np.array([[0.5, 0.5]]), "p": np.array([[0.5, 0.5], [0.25, 0.75]]),
                         "u_accept": np.array([0.3]), "u_sample": 0.0},
               "forms": "q as float32, p as a list, draft_tokens as uint8, u_accept as a list, u_sample as np.int64 0"})
def test_accepts_array_likes_and_numpy_scalars(kata, case):
    """Accepts lists, float32 arrays, int32 or uint8 draft tokens, and u_sample as a NumPy float or the int 0 (Python or NumPy)"""
    check_verified(case["valid"], run(kata, case["given"]), said("why.forms", forms=case["forms"]))


@prop(case=cases())
def test_does_not_modify_its_inputs(kata, case):
    """draft_tokens, q, p and u_accept are left exactly as they were"""
    check_leaves_inputs_alone(lambda: run(kata, case), case, FUNCTION)


# -- Contract violations -> ValueError ------------------------------------------------------------


@prop(case=cases(min_k=1), how=st.sampled_from(["0-d", "2-D (1, k)", "2-D (k, 1)"]))
def test_rejects_draft_tokens_that_are_not_1d(kata, case, how):
    """draft_tokens that is a scalar or 2-D raises ValueError"""
    x = _tokens(case["draft_tokens"])
    bad = {"0-d": np.int64(x[0]), "2-D (1, k)": x[None].copy(), "2-D (k, 1)": x[:, None].copy()}[how]
    expect_value_error(lambda: kata(**dict(case, draft_tokens=bad)), said("because.drafts-not-1d", shape=np.shape(bad)))


@prop(case=cases(min_k=1), how=st.sampled_from(["bool", "float", "float list"]))
def test_rejects_draft_tokens_that_are_not_integers(kata, case, how):
    """draft_tokens of bools or floats (even 1.0, 2.0) raises ValueError"""
    x = _tokens(case["draft_tokens"])
    V = case["p"].shape[1]
    if how == "bool":
        bad = x % 2 == 1 if V >= 2 else np.zeros(len(x), dtype=bool)
        q = case["q"].copy()
        q[np.arange(len(x)), bad.astype(np.int64)] += 0.5  # the drafts as ints stay drawable: only the dtype is wrong
        case = dict(case, q=_normalised(q))
    else:
        bad = x.astype(np.float64) if how == "float" else [float(v) for v in x]
    expect_value_error(lambda: kata(**dict(case, draft_tokens=bad)),
                       said("because.drafts-dtype", dtype=np.asarray(bad).dtype))


@prop(case=cases(min_k=1), where=st.sampled_from(["V", "V + 3", "-1"]), seed=S.SEEDS)
def test_rejects_draft_tokens_outside_zero_to_v(kata, case, where, seed):
    """A draft token equal to V, above it, or negative raises ValueError"""
    x = _tokens(case["draft_tokens"]).copy()
    V = case["p"].shape[1]
    i = int(S.rng_for(seed).integers(0, len(x)))
    x[i] = {"V": V, "V + 3": V + 3, "-1": -1}[where]
    expect_value_error(lambda: kata(**dict(case, draft_tokens=x)), said("because.drafts-range", i=i, value=x[i], V=V))


def _wrong_shapes(case) -> dict:
    k, V = case["q"].shape
    q, p = case["q"], case["p"]
    return {
        "q (k + 1, V)": dict(case, q=np.vstack([q, p[-1:]])),
        "p (k, V)": dict(case, p=p[:k].copy()),
        "p (k + 2, V)": dict(case, p=np.vstack([p, p[-1:]])),
        "q (k, V + 1)": dict(case, q=np.hstack([q, np.zeros((k, 1))])),
        "p (k + 1, V + 1)": dict(case, p=np.hstack([p, np.zeros((k + 1, 1))])),
        "q 1-D": dict(case, q=q[0].copy()),
        "p 3-D": dict(case, p=p[None].copy()),
        "V = 0": dict(case, q=np.zeros((k, 0)), p=np.zeros((k + 1, 0)), draft_tokens=np.zeros(k, dtype=np.int64)),
    }


WRONG_SHAPES = ("q (k + 1, V)", "p (k, V)", "p (k + 2, V)", "q (k, V + 1)", "p (k + 1, V + 1)", "q 1-D", "p 3-D", "V = 0")


@prop(case=cases(min_k=1), how=st.sampled_from(WRONG_SHAPES))
def test_rejects_q_or_p_of_the_wrong_shape(kata, case, how):
    """q not (k, V) or p not (k + 1, V) (a row too many or too few, a V that disagrees, the wrong rank, V = 0) raises ValueError"""
    bad = _wrong_shapes(case)[how]
    expect_value_error(lambda: kata(**bad), said("because.shape", how=how, q=np.shape(bad["q"]), p=np.shape(bad["p"]),
                                                 k=len(_tokens(bad["draft_tokens"]))))


@CONTRACT.rejects_non_finite(cases(min_k=1))
def test_rejects_nan_or_inf(kata, case, value, seed):
    """NaN, inf or -inf in q, p or u_accept raises ValueError"""


@prop(case=cases(min_k=1, min_V=2), name=st.sampled_from(["q", "p"]), depth=st.sampled_from([1e-4, 0.01, 0.2]),
      seed=S.SEEDS)
def test_rejects_a_negative_probability(kata, case, name, depth, seed):
    """A negative entry in q or p (its row still summing to 1) raises ValueError"""
    rng = S.rng_for(seed)
    a = case[name].copy()
    r = int(rng.integers(0, a.shape[0]))
    x = _tokens(case["draft_tokens"])
    cols = [c for c in range(a.shape[1]) if not (name == "q" and r < len(x) and c == x[r])] or [0]
    c = int(rng.choice(cols))
    a[r, (c + 1) % a.shape[1]] += a[r, c] + depth
    a[r, c] = -depth
    expect_value_error(lambda: kata(**dict(case, **{name: a})), said("because.negative", name=name, r=r, c=c, value=-depth))


@prop(case=cases(min_k=1), name=st.sampled_from(["q", "p"]), off=st.sampled_from([2e-6, -2e-6, 1e-5, -1e-4, 0.1, -0.5]),
      seed=S.SEEDS)
def test_rejects_a_row_that_does_not_sum_to_one(kata, case, name, off, seed):
    """A row of q or p summing to 1 + off, |off| from 2e-6 to 0.5 (more than the contract's 1e-6), raises ValueError"""
    a = case[name].copy()
    r = int(S.rng_for(seed).integers(0, a.shape[0]))
    a[r] *= 1 + off
    expect_value_error(lambda: kata(**dict(case, **{name: a})),
                       said("because.row-sum", name=name, r=r, total=repr(float(a[r].sum()))))


@prop(case=cases(min_k=1, min_V=2), seed=S.SEEDS)
@example(case=PROBE(), seed=0)
def test_rejects_a_draft_the_draft_model_gave_probability_zero(kata, case, seed):
    """A draft x_i with q[i, x_i] = 0 (the draft model cannot have drawn it) raises ValueError"""
    x = _tokens(case["draft_tokens"])
    i = int(S.rng_for(seed).integers(0, len(x)))
    q = case["q"].copy()
    other = (x[i] + 1) % q.shape[1]
    q[i, other] += q[i, x[i]]
    q[i, x[i]] = 0.0
    expect_value_error(lambda: kata(**dict(case, q=q)), said("because.q-zero", i=i, x=int(x[i])))


@st.composite
def _u_accept_of_wrong_shape(draw):
    case = draw(cases())
    u = np.asarray(case["u_accept"], dtype=np.float64)
    shapes = {"one too many": np.append(u, 0.5), "(1, k)": u[None].copy(), "a scalar": np.float64(0.5)}
    if u.size >= 1:
        shapes["one too few"] = u[:-1].copy()
        shapes["(k, 1)"] = u[:, None].copy()
    name = draw(st.sampled_from(sorted(shapes)))
    return case, name, shapes[name]


@prop(bad=_u_accept_of_wrong_shape())
def test_rejects_u_accept_not_of_shape_k(kata, bad):
    """u_accept whose shape is not exactly (k,) (one too many or too few, 2-D, a scalar) raises ValueError"""
    case, name, u = bad
    k = len(_tokens(case["draft_tokens"]))
    expect_value_error(lambda: kata(**dict(case, u_accept=u)), said("because.u-accept-shape", shape=np.shape(u), k=k))


@prop(case=cases(min_k=1), value=st.sampled_from([1.0, 1.5, -0.25, -1e-12, 1 + 1e-12]), seed=S.SEEDS)
def test_rejects_u_accept_outside_zero_one(kata, case, value, seed):
    """An entry of u_accept outside [0, 1) (1 included) raises ValueError"""
    u = np.array(case["u_accept"], dtype=np.float64)
    i = int(S.rng_for(seed).integers(0, len(u)))
    u[i] = value
    expect_value_error(lambda: kata(**dict(case, u_accept=u)), said("because.u-accept-range", i=i, value=repr(value)))


BAD_U_SAMPLE = [1.0, 1, 1.5, -0.25, -1e-12, np.nan, np.inf, True, False, "0.5", None, [0.5], np.array([0.5])]


@prop(case=cases(), u_sample=st.sampled_from(BAD_U_SAMPLE))
def test_rejects_a_u_sample_that_is_not_a_real_in_zero_one(kata, case, u_sample):
    """u_sample of 1, outside [0, 1), NaN, inf, a bool, a string, None, a list or a 1-D array raises ValueError"""
    expect_value_error(lambda: kata(**dict(case, u_sample=u_sample)), said("because.u-sample", u_sample=repr(u_sample)))
