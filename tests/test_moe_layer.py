"""The judge for katas/moe_layer.py: moe_layer(x, w_router, w1, w2, top_k).

Shapes: x (n, d_model), w_router (d_model, E), w1 (E, d_model, d_ff), w2 (E, d_ff, d_model),
top_k an int in [1, E]; the result is (out (n, d_model) float64, aux_loss a float or 0-d value).
n, d_model, E and d_ff are mostly 1 to 6, sometimes 8 to 128 (tests/sizes.py: at most two of
them 64 or more, plus in one example in four one more drawn large, each reaching 64 in about a
quarter of the examples), drawn independently, so they often coincide and often differ. top_k is 1,
2, E - 1, E or a value between.

The oracle is torch, float64, dense: every expert on every token (einsum), relu, then each
token's outputs of the top_k experts a stable descending sort ranks first gathered and combined
(softmax over the chosen logits; an unchosen expert's output never enters, so one that overflows
changes nothing); aux_loss = E * sum(f * P) from a one-hot scatter mask (f) and
the full softmax's mean over tokens (P). out and aux_loss are compared at rtol 1e-9 (atol 1e-12
times the largest |want|).

Draws: x and w_router are integer-valued, so every router logit is an exact integer in any
summation order and two logits are either equal or at least 1 apart: ties are exact (a token's
logits tie often; the ties kind also copies router columns onto others), never "nearly equal".
Kinds: ordinary; ties; large (every token's logits share an offset of 900 to 1200, either sign:
exp overflows or underflows without the max shift); mixed (tokens' offsets 0, +-1000 or +-3000
apart: one shift for the whole batch loses tokens); w1 and w2 are N(0, 1) rounded to two
decimals.

Left open by the contract and never drawn: logits within 1e-9 of a tie but not equal (integer
logits are exact); a chosen expert 700 or more below its token's best logit (within a token the
logits spread less than 700: integer entries are bounded so, ``_bounded``); an out finite only
in another product order (the overflow case overflows in every order); message wording. Every
bad input below breaks one rule of the contract (a zero E also leaves no valid top_k).
"""

import numpy as np
from hypothesis import example, strategies as st

from dojo.text.messages import is_message, message
from tests import oracle
from tests import largest as L
from tests import strategies as S
from tests.contract import Contract, fresh, rejects_each_call
from tests.sizes import LARGE
from tests.judge import KataMismatch, check_array, check_close, check_leaves_inputs_alone, check_that, prop

FUNCTION = "moe_layer"
ARRAYS = ("x", "w_router", "w1", "w2")
CONTRACT = Contract({"x": ("n", "d_model"), "w_router": ("d_model", "E"), "w1": ("E", "d_model", "d_ff"),
                     "w2": ("E", "d_ff", "d_model")})


def said(key: str, **params) -> dict:
    """A sentence of this judge, ``judge.moe_layer.<key>`` (dojo/catalogue/katas/moe_layer/<lang>/judge.toml),
    its values as strings (a message stays a message)."""
    return message(f"judge.moe_layer.{key}", **{k: v if is_message(v) else str(v) for k, v in params.items()})


# -- Oracle (torch, float64) --------------------------------------------------------------------


@oracle.memoised
def torch_moe(x, w_router, w1, w2, *, top_k):
    """(out, aux_loss): dense experts (einsum), the chosen ones gathered, HF Mixtral's aux."""
    t = oracle.torch()
    x, w_router, w1, w2 = (oracle.tensor(a) for a in (x, w_router, w1, w2))
    n, E = x.shape[0], w_router.shape[1]
    logits = x @ w_router                                                      # (n, E)
    probs = t.softmax(logits, dim=1)
    chosen = t.sort(logits, dim=1, descending=True, stable=True).indices[:, :top_k]  # ties: lower index
    gates = t.softmax(t.gather(logits, 1, chosen), dim=1)                      # over the chosen logits
    hidden = t.relu(t.einsum("nd,edf->enf", x, w1))                            # every expert, every token
    experts = t.einsum("enf,efd->end", hidden, w2).permute(1, 0, 2)            # (n, E, d_model)
    # only the chosen experts' outputs: an unchosen one may overflow, and 0 * inf is NaN
    picked = t.gather(experts, 1, chosen[:, :, None].expand(-1, -1, experts.shape[2]))
    out = (gates[:, :, None] * picked).sum(dim=1)
    mask = t.zeros(n, E, dtype=t.float64).scatter(1, chosen, 1.0)              # one-hot of the choices
    aux = E * (mask.mean(dim=0) * probs.mean(dim=0)).sum()
    return out.numpy(), aux.numpy()


def want_of(case):
    out, aux = torch_moe(*(np.asarray(case[k], dtype=np.float64) for k in ARRAYS), top_k=int(case["top_k"]))
    return out, float(aux)


# -- Strategies -----------------------------------------------------------------------------------

KINDS = ("ordinary", "ordinary", "ties", "large", "mixed")
#: n, d_model, E, d_ff: mostly 1 to 6, sometimes 8 to 128, at most two of them 64 or more.
SIZES = S.size_tuple(4, 1, 6, distinct=False, max_large=2)
#: The most multiply-adds (n E d_model d_ff) of one example's dense oracle; past it, sizes shrink.
BUDGET = 9_000_000


def _sized(draw) -> list[int]:
    """n, d_model, E, d_ff from SIZES; in one example in four, one drawn size made large too (so
    each reaches 64 or more in about one example in four); then the others shrunk to BUDGET."""
    sizes = list(draw(SIZES))
    i = -1
    if draw(st.integers(0, 3)) == 3:
        i = draw(st.integers(0, 3))
        sizes[i] = LARGE[draw(st.integers(0, len(LARGE) - 1))]
    while np.prod(sizes) > BUDGET:
        j = max((k for k in range(4) if k != i), key=lambda k: sizes[k])
        sizes[j] = max(1, sizes[j] // 4)
    return sizes
TOP_K = st.sampled_from(["one", "two", "below", "all", "between", "between"])
#: Within a token, router logits spread less than this (the contract leaves 700 open).
SPREAD = 600


def _top_k(rng, E: int, how: str) -> int:
    return {"one": 1, "two": min(2, E), "below": max(1, E - 1), "all": E,
            "between": int(rng.integers(1, E + 1))}[how]


def _bounded(x, w_router):
    """x and w_router with every token's logits spread below SPREAD: when a draw spreads more,
    entries clipped to |x| <= 2 and |w_router| <= 1 (then |logit| <= 2 d_model <= 256)."""
    logits = x @ w_router
    if (logits.max(axis=1) - logits.min(axis=1)).max() < SPREAD:
        return x, w_router
    return np.clip(x, -2, 2), np.clip(w_router, -1, 1)


def draw_router(rng, n, d_model, E, kind):
    """Integer-valued x (n, d_model) and w_router (d_model, E) of ``kind`` (module docstring)."""
    x = np.round(rng.standard_normal((n, d_model)) * float(rng.choice([1.0, 2.0, 3.0]))) + 0.0
    w_router = np.round(rng.standard_normal((d_model, E)) * float(rng.choice([1.0, 1.5]))) + 0.0
    if kind == "ties" and E >= 2:  # copy some columns onto others: exact ties at any top_k boundary
        for _ in range(int(rng.integers(1, E))):
            a, b = rng.choice(E, size=2, replace=False)
            w_router[:, b] = w_router[:, a]
        x = np.round(x / 2.0) + 0.0
    x, w_router = _bounded(x, w_router)
    if kind in ("large", "mixed"):  # column 0 of x times 3 is a common offset of each token's logits
        if kind == "large":
            offsets = float(rng.choice([-1.0, 1.0])) * rng.integers(300, 401, size=n)
        else:
            offsets = rng.choice([0, 333, -333, 1000, -1000], size=n)
        x[:, 0] = offsets
        rest = x[:, 1:] @ w_router[1:]
        w_router[0] = 3.0
        if len(rest) and (rest.max(axis=1) - rest.min(axis=1)).max() >= SPREAD:  # not drawn so far
            w_router[1:] = np.clip(w_router[1:], -1, 1)
            x[:, 1:] = np.clip(x[:, 1:], -2, 2)
    return x, w_router


def build(sizes, kind: str, top_k: str, seed: int) -> dict:
    """The keyword arguments of a valid call of ``sizes`` (n, d_model, E, d_ff)."""
    n, d_model, E, d_ff = sizes
    rng = S.rng_for(seed)
    x, w_router = draw_router(rng, n, d_model, E, kind)
    return {"x": x, "w_router": w_router, "w1": S.normal(rng, (E, d_model, d_ff)),
            "w2": S.normal(rng, (E, d_ff, d_model)), "top_k": _top_k(rng, E, top_k)}


@S.valid_inputs()
@st.composite
def cases(draw, kind=None, top_k=None, min_experts: int = 1, min_tokens: int = 1):
    """Keyword arguments of a valid call. ``kind``: the router's kind (drawn if None); ``top_k``:
    a TOP_K choice (drawn if None); E and n at least ``min_experts`` and ``min_tokens``."""
    n, d_model, E, d_ff = _sized(draw)
    n, E = max(n, min_tokens), max(E, min_experts)
    kind = kind or draw(st.sampled_from(KINDS))
    return build((n, d_model, E, d_ff), kind, top_k or draw(TOP_K), draw(S.SEEDS))


def PROBE():
    return build((3, 4, 3, 5), "ordinary", "two", 7)


def sizes_of(case) -> dict:
    (n, d_model), (E, _, d_ff) = np.shape(case["x"]), np.shape(case["w1"])
    return {"n": n, "d_model": d_model, "E": E, "d_ff": d_ff}


def about(case) -> dict:
    return said("part.about", **sizes_of(case), top_k=case["top_k"])


def run(kata, case):
    """Call the candidate on a valid call; check it returns (out (n, d_model) float64, aux_loss a
    real scalar); aux_loss as a float."""
    result = kata(**fresh(case))
    z = sizes_of(case)
    if not isinstance(result, tuple) or len(result) != 2:
        raise KataMismatch(said("fail.not-pair", type=type(result).__name__))
    out, aux = result
    out = check_array(out, "out", (z["n"], z["d_model"]))
    scalar = isinstance(aux, (float, np.floating)) or (isinstance(aux, np.ndarray) and aux.shape == ()
                                                          and aux.dtype.kind == "f")
    if not scalar:
        raise KataMismatch(said("fail.aux-type", got=f"{type(aux).__name__} {aux!r:.80}"))
    return out, float(aux)


def compare(case, got, want, why=None) -> None:
    """out first (a routing bug shows there with the rule it breaks), then aux_loss."""
    check_close(got[0], want[0], "out", why or said("why.out", about=about(case)))
    check_close(got[1], want[1], "aux_loss", why or said("why.aux", about=about(case)))


# -- Properties of a correct answer ---------------------------------------------------------------

_TIED = {"x": np.array([[1.0, 2.0], [0.0, -1.0], [2.0, 2.0]]),
         "w_router": np.array([[1.0, 0.0, 1.0, 1.0], [0.0, 1.0, 0.0, 0.0]]),
         "w1": np.round(np.linspace(-1.0, 1.0, 4 * 2 * 3).reshape(4, 2, 3) * np.array([1.0, -0.7, 0.4]), 2),
         "w2": np.round(np.linspace(1.0, -1.0, 4 * 3 * 2).reshape(4, 3, 2) * np.array([0.9, -1.1]), 2),
         "top_k": 2}


#: Token 0's logits 1 and 1 + 3e-8 (30 times the contract's 1e-9 left open): expert 1 is chosen.
#: Ranking by float32 probabilities (HF Mixtral's softmax in float32, then topk) rounds the two to
#: one value and takes expert 0 (a blind hostile round, stop 56: every drawn logit is an integer).
_NEAR_TIE = dict(_TIED, x=np.array([[1.0, 0.0], [0.0, 1.0]]), top_k=1,
                 w_router=np.array([[1.0, 1.0 + 3e-8, 0.0, -1.0], [-0.5, -0.5 - 1.5e-8, 0.25, 0.0]]))


#: Router logits near -1e300, all of them: picking the top_k by argmax and masking each pick with a
#: finite fill (-1e9, -1e30, ...) picks expert 0 twice, since the fill is above every other logit
#: (a blind hostile round, stop 58: the drawn logits stay within a few thousand of 0).
_FAR_BELOW = {"x": np.array([[1e150, 1.0]]), "w_router": np.array([[-1.0, -2.0, -3.0], [0.0, 0.0, 0.0]]) * 1e150,
              "w1": np.stack([np.array([[1e-150, 0.0], [0.0, 1.0]]) * f for f in (1.0, 2.0, 3.0)]),
              "w2": np.stack([np.eye(2) * f for f in (1.0, -1.0, 0.5)]), "top_k": 2}


@prop(case=cases())
@example(case=_TIED)
@example(case=dict(_TIED, top_k=1))
@example(case=_NEAR_TIE)
@example(case=_FAR_BELOW)
# expert 1 overflows on token 1, which chose expert 0: an answer that runs each used expert on
# every token and multiplies by a gate of 0 gets 0 * inf = NaN there (a blind hostile round, stop
# 58: the unchosen-expert property has an expert no token chose)
@example(case={"x": np.eye(2), "w_router": np.array([[0.0, 1.0], [1.0, 0.0]]),
               "w1": np.stack([np.eye(2), np.array([[1.0, 0.0], [0.0, 1e200]])]),
               "w2": np.stack([np.eye(2), np.array([[1.0, 0.0], [0.0, 1e200]])]), "top_k": 1})
def test_matches_torch_dense_moe(kata, case):
    """Matches torch computed densely (every expert on every token, combined by a gate matrix: the top_k experts by logit, ties to the lower index, softmax over the chosen logits) and HF Mixtral's aux loss E * sum(f * P)"""
    compare(case, run(kata, case), want_of(case))


@S.valid_inputs()
@st.composite
def with_an_unchosen_overflowing_expert(draw):
    """A valid call with top_k = 1 and one expert more: a copy of expert 0's router column (so
    it ties with expert 0 on every token and ranks right after it: never chosen), whose weights
    are all 1e200, so its output overflows to inf on every token whose x sums above 0."""
    case = draw(cases(top_k="one"))
    d_model, d_ff = np.shape(case["w1"])[1:]
    huge = np.full((1, d_model, d_ff), 1e200)
    return dict(case, w_router=np.hstack([case["w_router"], case["w_router"][:, :1]]),
                w1=np.concatenate([case["w1"], huge]), w2=np.concatenate([case["w2"], huge.transpose(0, 2, 1)]))


_UNCHOSEN = {"x": np.array([[1.0, 0.0]]), "w_router": np.array([[1.0, 0.0], [0.0, 0.0]]),
             "w1": np.stack([np.eye(2), np.full((2, 2), 1e200)]), "w2": np.stack([np.eye(2), np.full((2, 2), 1e200)]),
             "top_k": 1}


#: A dense answer (every expert on every token, times an (n, E) gate matrix that is 0 where
#: unchosen) gets 0 * inf = NaN there, and then raises "out is not finite" on a valid call (a
#: blind hostile round, stop 54: the judge's own oracle was dense, so no draw could show it).
@prop(case=with_an_unchosen_overflowing_expert())
@example(case=_UNCHOSEN)
def test_an_expert_no_token_chose_changes_nothing(kata, case):
    """An expert no token chose changes nothing, even one whose output overflows (weights 1e200): out sums the chosen experts only"""
    compare(case, run(kata, case), want_of(case))


#: Properties that draw no input: they build a fixed one themselves (tests/strategies.py).
INPUT_BUILT_INSIDE = ("test_the_largest_realistic_case_matches_torch",)


@prop(seed=st.just(0))
def test_the_largest_realistic_case_matches_torch(kata, seed):
    """The compare battery's largest realistic case (n = 1024 tokens, 8 experts, top_k = 2) matches torch, checked as test_matches_torch_dense_moe checks its cases"""
    L.check_with(test_matches_torch_dense_moe, kata, L.largest_case("moe_layer"))


@prop(case=cases(kind="ties", min_experts=2))
@example(case=dict(_TIED, top_k=3))
def test_ties_go_to_the_lower_expert_index(kata, case):
    """Experts with equal logits (duplicate router columns) are chosen in index order: the lower index wins a tie at the top_k boundary"""
    compare(case, run(kata, case), want_of(case), said("why.ties", about=about(case)))


@prop(case=cases(kind="large"))
@example(case=dict(_TIED, x=np.array([[400.0, 1.0], [350.0, 2.0], [300.0, -1.0]]),
                   w_router=np.array([[3.0, 3.0, 3.0, 3.0], [1.0, 0.0, 1.0, 1.0]])))
def test_large_router_logits_stay_finite(kata, case):
    """Router logits around +-1000 give a finite out and aux loss that match torch (shift by each token's max before exp, also in the gates' softmax)"""
    out, aux = run(kata, case)
    check_that(np.isfinite(out).all() and np.isfinite(aux), said("fail.not-finite", about=about(case)))
    compare(case, (out, aux), want_of(case), said("why.large", about=about(case)))


@prop(case=cases(kind="mixed"))
def test_tokens_thousands_apart_each_normalise(kata, case):
    """Tokens whose logits lie thousands apart are each routed on their own (one max per token, not one for the batch)"""
    compare(case, run(kata, case), want_of(case), said("why.mixed", about=about(case)))


@S.valid_inputs()
@st.composite
def uniform_routers(draw):
    """A valid call whose w_router is all zeros: every logit 0, every expert tied."""
    case = draw(cases(kind="ordinary"))
    case["w_router"] = np.zeros_like(case["w_router"])
    return case


@prop(case=uniform_routers())
def test_a_uniform_router_gives_aux_top_k_and_the_first_experts(kata, case):
    """With every logit equal, each token goes to experts 0 .. top_k - 1 with gate 1 / top_k, and aux_loss is exactly top_k"""
    out, aux = run(kata, case)
    check_close(aux, float(case["top_k"]), "aux_loss", said("why.uniform-aux", about=about(case)))
    compare(case, (out, aux), want_of(case), said("why.uniform", about=about(case)))


def _permuted(case) -> dict:
    call = case["call"]
    return dict(call, x=call["x"][case["order"]])


@S.valid_inputs(calls=lambda case: [case["call"], _permuted(case)])
@st.composite
def permuted_tokens(draw):
    """A valid call with n >= 2 and an order of its tokens that is not the identity."""
    call = draw(cases(min_tokens=2))
    order = S.rng_for(draw(S.SEEDS)).permutation(call["x"].shape[0])
    if (order == np.arange(order.size)).all():
        order[[0, 1]] = order[[1, 0]]
    return {"call": call, "order": order}


@prop(case=permuted_tokens())
def test_reordering_the_tokens_reorders_out_and_keeps_aux(kata, case):
    """Each token is routed on its own and none is dropped: reordering the tokens reorders out's rows the same way and leaves aux_loss unchanged"""
    call, order = case["call"], case["order"]
    out, aux = run(kata, call)
    out_p, aux_p = run(kata, _permuted(case))
    why = said("why.permuted", order=order.tolist() if order.size <= 12 else "...", about=about(call))
    check_close(out_p, out[order], said("what.permuted-out"), why)
    check_close(aux_p, aux, "aux_loss", why)


INTEGER_FORMS = ("int", "np.int64", "np.int32")


@prop(case=cases(), form=S.INPUT_FORMS, forms=st.sampled_from(INTEGER_FORMS))
def test_accepts_array_likes_and_a_numpy_top_k(kata, case, form, forms):
    """Accepts lists, integer and float32 arrays (any memory layout) and a NumPy integer top_k, computing in float64"""
    given, values = {}, {}
    for name in ARRAYS:
        given[name], values[name] = S.as_form(case[name], form)
    top_k = {"int": int, "np.int64": np.int64, "np.int32": np.int32}[forms](case["top_k"])
    valid = dict(case, **values)
    compare(valid, run(kata, dict(case, **given, top_k=top_k)), want_of(valid),
            said("why.forms", form=form, top_k=forms, about=about(valid)))


@prop(case=cases())
def test_does_not_modify_its_inputs(kata, case):
    """x, w_router, w1 and w2 are left exactly as they were"""
    check_leaves_inputs_alone(lambda: run(kata, case), case, FUNCTION)


# -- Contract violations -> ValueError ------------------------------------------------------------

RANKS = {"x": 2, "w_router": 2, "w1": 3, "w2": 3}


@st.composite
def wrong_ranks(draw):
    """A valid call with one array given one axis fewer (its first slice) or one more (a batch of 1)."""
    case = draw(cases())
    name = draw(st.sampled_from(ARRAYS))
    fewer = draw(st.booleans())
    case[name] = case[name][0].copy() if fewer else case[name][None].copy()
    return case, said("because.rank", name=name, shape=case[name].shape, rank=RANKS[name])


@rejects_each_call(wrong_ranks())
def test_rejects_an_input_of_the_wrong_rank(kata, case):
    """x or w_router that is not 2-D, or w1 or w2 that is not 3-D, raises ValueError"""


@CONTRACT.rejects_a_zero_size(cases(), {"n": "n = 0", "d_model": "d_model = 0", "E": "E = 0", "d_ff": "d_ff = 0"})
def test_rejects_a_zero_dimension(kata, case):
    """No tokens (n = 0), d_model = 0, no experts (E = 0) or d_ff = 0 raises ValueError"""


#: How the shapes can fail to chain: (array, axis, the size it should have).
BREAKS = (("w_router", 0, "d_model"), ("w1", 0, "E"), ("w1", 1, "d_model"), ("w2", 0, "E"),
          ("w2", 1, "d_ff"), ("w2", 2, "d_model"))


@st.composite
def shapes_that_do_not_chain(draw):
    """A valid call with one axis of one weight one to three longer than the size it must match."""
    case = draw(cases())
    name, axis, size = BREAKS[draw(st.integers(0, len(BREAKS) - 1))]
    shape = list(case[name].shape)
    shape[axis] += draw(st.integers(1, 3))
    case[name] = S.normal(S.rng_for(draw(S.SEEDS)), tuple(shape))
    if name == "w_router":
        case[name] = np.round(case[name] * 2.0) + 0.0
    return case, said("because.chain", name=name, shape=tuple(shape), axis=axis, size=size,
                      shapes=CONTRACT.shapes_of(case))


@rejects_each_call(shapes_that_do_not_chain())
def test_rejects_shapes_that_do_not_chain(kata, case):
    """A weight whose d_model, E or d_ff disagrees with the others (w_router (d_model, E), w1 (E, d_model, d_ff), w2 (E, d_ff, d_model)) raises ValueError"""


@st.composite
def bad_top_k(draw):
    """A valid call whose top_k is 0, negative, E + 1 or more, a float, a bool, a string or None."""
    case = draw(cases())
    E = case["w_router"].shape[1]
    value = draw(st.sampled_from(["0", "-1", "E + 1", "2 E", "float", "True", "False", "str", "None"]))
    case["top_k"] = {"0": 0, "-1": -1, "E + 1": E + 1, "2 E": np.int64(2 * E), "float": float(min(2, E)),
                     "True": True, "False": False, "str": "1", "None": None}[value]
    return case, said("because.top-k", top_k=repr(case["top_k"]), E=E)


@rejects_each_call(bad_top_k(), examples=[(dict(_TIED, top_k=5), said("because.top-k", top_k="5", E=4)),
                                          (dict(_TIED, top_k=True), said("because.top-k", top_k="True", E=4))])
def test_rejects_a_top_k_that_is_not_an_int_from_1_to_the_expert_count(kata, case):
    """top_k of 0, below 0, above E, a float (even 2.0), a bool or a string raises ValueError"""


@CONTRACT.rejects_non_finite(cases())
def test_rejects_nan_or_inf(kata, case, value, seed):
    """NaN, inf or -inf in x, w_router, w1 or w2 raises ValueError"""


@st.composite
def overflowing_logits(draw):
    """A valid call but for one token's router logits: x[i, 0] = 1e200 and w_router[0] = 1e200, so
    x[i] w_router overflows to +-inf while every input is finite."""
    case = draw(cases())
    i = draw(st.integers(0, case["x"].shape[0] - 1))
    case["x"][i, 0] = 1e200
    case["w_router"][0] = 1e200
    return case, said("because.logit-overflow", i=i)


@rejects_each_call(overflowing_logits())
def test_rejects_a_router_logit_that_overflows(kata, case):
    """A router logit that overflows to inf (x[i, 0] = 1e200 and w_router[0] = 1e200, every input finite) raises ValueError"""


@st.composite
def overflowing_out(draw):
    """A valid call with x, w1 and w2 made positive, w1 and w2 scaled by 1e160 and w_router 0
    (every gate 1 / top_k): every chosen expert's out is about 1e320 in any order of the products."""
    case = draw(cases(kind="ordinary"))
    case["w_router"] = np.zeros_like(case["w_router"])
    case["x"] = np.abs(case["x"]) + 1.0
    case["w1"] = (np.abs(case["w1"]) + 0.5) * 1e160
    case["w2"] = (np.abs(case["w2"]) + 0.5) * 1e160
    return case, said("because.out-overflow")


@rejects_each_call(overflowing_out())
def test_rejects_an_out_that_overflows(kata, case):
    """An out that overflows (w1 and w2 around 1e160, everything positive) raises ValueError instead of returning inf or NaN"""
