"""The judge for katas/layer_norm_backward.py: layer_norm_backward(x, gamma, beta, d_out, eps=1e-5, rms=False).

Shapes: x (n, d), gamma (d,), beta (d,), d_out (n, d); the result is (out, d_x, d_gamma, d_beta)
of shapes (n, d), (n, d), (d,), (d,), float64. n and d are mostly 1 to 6, sometimes 8 to 128
(tests/sizes.py), not powers of two too, so a reduction over the wrong axis or a table of 8
shows.

The oracle is torch autograd in float64: F.layer_norm(x, (d,), gamma, beta, eps), or the RMS
formula x * rsqrt(mean(x^2) + eps) * gamma + beta, then out.backward(d_out), so that L =
sum(out * d_out). tests/katas/layer_norm_backward/test_tool.py cross-checks it against the
two-pass formula written out in torch and against long-double arithmetic. A second oracle that
shares nothing with torch: central finite differences of L, on small inputs.

Tolerance: the contract's own (dojo/catalogue/katas/layer_norm_backward/tolerance.py): each entry
within 1e-9 |want| + 1e-12 C S, C = max(1, max_i max_j |x_ij| / sqrt(var_i + eps)) and S the
size of the output's terms. The battery and ``dojo compare`` name the same tolerance.

Draws: rows of five kinds, ordinary (scale 0.3 to 10), offset (LayerNorm rows 1e4 or 3e3 from 0
with a spread of about 1e-2 or 3e-3, eps at most 1e-5: C near 9e5, where the one-pass
E[x^2] - mu^2 is off by tens to thousands of allowances), mixed (rows of ordinary size next to rows 1e3 to 1e4 away: one mean
for the whole batch shows), large (x ~1e5, gamma ~1e3, beta ~1e4, d_out ~1e4) and small (x ~1e-3:
eps dominates the variance, so eps outside the sqrt shows), with constant rows among them
(var = 0: xhat = 0). eps is left at its default or drawn from 1e-6 to 1 (an int 1, a NumPy float
too); rms False or True (Python or NumPy bools); beta = 0 in one draw in four (LLaMA's RMSNorm).

Left open by the contract and never drawn: C > 1e6 (every row whose c_i would pass 9e5 is halved
until it does not: ``_within_condition``); entries beyond 1e6 (every array is clipped to 1e6);
a non-bool rms; message wording. Every bad input below breaks exactly one rule of the contract.
"""

import numpy as np
from hypothesis import example, strategies as st

from dojo.catalogue.katas.layer_norm_backward import tolerance as T
from dojo.text.messages import array_param, is_message, message
from tests import oracle
from tests import largest as L
from tests import strategies as S
from tests.contract import Contract, not_2d_forms
from tests.judge import (
    KataMismatch,
    check_array,
    check_leaves_inputs_alone,
    expect_value_error,
    prop,
    telling_precision,
)

FUNCTION = "layer_norm_backward"
OUTPUTS = ("out", "d_x", "d_gamma", "d_beta")
#: The largest c_i a draw keeps (the contract leaves C > 1e6 open).
C_LIMIT = 9e5
#: The largest |entry| a draw keeps (the contract leaves entries beyond 1e6 open).
LIMIT = 1e6


def said(key: str, **params) -> dict:
    """A sentence of this judge, ``judge.layer_norm_backward.<key>``
    (dojo/catalogue/katas/layer_norm_backward/<lang>/judge.toml), its values as strings."""
    return message(f"judge.layer_norm_backward.{key}",
                   **{k: v if is_message(v) else str(v) for k, v in params.items()})


def PROBE():
    return {"x": np.array([[1.0, 2.0, 4.0]]), "gamma": np.array([1.0, 0.5, 2.0]),
            "beta": np.array([0.0, 1.0, -1.0]), "d_out": np.array([[1.0, -1.0, 0.5]]), "eps": 1e-5, "rms": False}


#: The arrays of the contract: x (n, d), gamma (d,), beta (d,), d_out (n, d).
CONTRACT = Contract({"x": ("n", "d"), "gamma": ("d",), "beta": ("d",), "d_out": ("n", "d")})


def eps_of(case) -> float:
    return float(case.get("eps", 1e-5))


def rms_of(case) -> bool:
    return bool(case.get("rms", False))


# -- Oracle (torch, float64) ----------------------------------------------------------------------


@oracle.memoised
def torch_autograd(x, gamma, beta, d_out, *, eps, rms):
    """(out, d_x, d_gamma, d_beta): torch autograd of F.layer_norm or of the RMS formula, for
    L = sum(out * d_out)."""
    t = oracle.torch()
    x, gamma, beta = (oracle.tensor(a).requires_grad_(True) for a in (x, gamma, beta))
    if rms:
        out = x * t.rsqrt((x * x).mean(dim=1, keepdim=True) + eps) * gamma + beta
    else:
        out = t.nn.functional.layer_norm(x, (x.shape[1],), gamma, beta, eps)
    out.backward(oracle.tensor(d_out))
    return out.detach().numpy(), x.grad.numpy(), gamma.grad.numpy(), beta.grad.numpy()


def want_of(case):
    return torch_autograd(case["x"], case["gamma"], case["beta"], case["d_out"], eps=eps_of(case), rms=rms_of(case))


# -- A second oracle that shares nothing with torch: central finite differences --------------------


def forward(x, gamma, beta, eps, rms) -> np.ndarray:
    """out, the forward pass in long double (two-pass variance)."""
    x = x.astype(np.longdouble)
    centred = x if rms else x - x.mean(axis=1, keepdims=True)
    r = 1 / np.sqrt(np.mean(centred * centred, axis=1, keepdims=True) + np.longdouble(eps))
    return centred * r * gamma.astype(np.longdouble) + beta.astype(np.longdouble)


def finite_differences(case, h: float = 1e-4):
    """(d_x, d_gamma, d_beta) by central differences of L = sum(out * d_out), one entry at a time.
    An entry of row i of x moves by h times the row's spread sqrt(var_i + eps) (RMSNorm: its
    root mean square), so the curvature of a row nearly constant at the scale of eps stays
    small over the step; gamma and beta (L is linear in them) by h times their size. The step
    is the difference of the two float64 arguments actually passed."""
    arrays = {name: np.asarray(case[name], dtype=np.float64).copy() for name in ("x", "gamma", "beta")}
    x = arrays["x"]
    centred = x if rms_of(case) else x - x.mean(axis=1, keepdims=True)
    spread = np.sqrt(np.mean(centred * centred, axis=1) + eps_of(case))
    d_out = np.asarray(case["d_out"], dtype=np.longdouble)
    grads = []
    for name in ("x", "gamma", "beta"):
        a, g = arrays[name], np.zeros_like(arrays[name])
        for index in np.ndindex(a.shape):
            keep = a[index]
            step = h * (spread[index[0]] if name == "x" else max(1.0, abs(keep)))
            values, points = [], []
            for sign in (1, -1):
                a[index] = keep + sign * step
                points.append(a[index])
                values.append(np.sum(forward(arrays["x"], arrays["gamma"], arrays["beta"], eps_of(case),
                                             rms_of(case)) * d_out))
            a[index] = keep
            g[index] = float((values[0] - values[1]) / (np.longdouble(points[0]) - np.longdouble(points[1])))
        grads.append(g)
    return grads


# -- Strategies -----------------------------------------------------------------------------------

SIZES = S.size_tuple(2, 1, 6, distinct=False, max_large=1)
KINDS = ("ordinary", "ordinary", "offset", "mixed", "large", "small")
EPS = st.sampled_from(["default", "default", 1e-5, 1e-6, 1e-3, 0.1, 1, "np.float64(1e-4)"])
BOOLS = st.booleans()


def _eps(drawn):
    return {"default": None, "np.float64(1e-4)": np.float64(1e-4)}.get(drawn, drawn) if isinstance(drawn, str) else drawn


def _standardised(rng, n: int, d: int) -> np.ndarray:
    """Rows of mean 0 and standard deviation 1 (d >= 2), so a spread is the spread drawn."""
    z = rng.standard_normal((n, d))
    if d >= 2:
        z = (z - z.mean(axis=1, keepdims=True)) / z.std(axis=1, keepdims=True)
    return z


def _within_condition(x, eps: float, rms: bool) -> np.ndarray:
    """x with each row whose c_i = max|x_i| / sqrt(var_i + eps) passes C_LIMIT halved until it does
    not (c_i grows with the row's scale), so C > 1e6 (left open) is never drawn."""
    x = x.copy()
    for i in range(x.shape[0]):
        while True:
            centred = x[i] if rms else x[i] - x[i].mean()
            if np.max(np.abs(x[i])) / np.sqrt(np.mean(centred * centred) + eps) <= C_LIMIT:
                break
            x[i] *= 0.5
    return x


def draw_x(rng, n: int, d: int, kind: str) -> np.ndarray:
    """x of ``kind`` (see the module docstring), before ``_within_condition``."""
    x = S.normal(rng, (n, d), float(rng.choice([1.0, 0.3, 3.0, 10.0])))
    if kind == "offset":
        offset = float(rng.choice([1e4, -1e4, 3e3]))
        x = offset + abs(offset) * 1.05e-6 * _standardised(rng, n, d)  # spread 1.05e-2 at 1e4: c_i ~ 9e5
    elif kind == "mixed":
        x = x + rng.choice([0.0, 0.0, 1e3, -5e3, 1e4], size=(n, 1))
    elif kind == "large":
        x = x * 1e4
    elif kind == "small":
        x = x * 1e-3
    if n >= 2 and rng.random() < 0.3:  # a constant row: var = 0, xhat = 0 (LayerNorm)
        x[int(rng.integers(0, n))] = float(np.round(rng.standard_normal(), 2))
    return np.clip(x, -LIMIT, LIMIT)


def draw_case(draw, kind=None, rms=None, max_side=None):
    n, d = draw(SIZES)
    if max_side:
        n, d = min(n, max_side), min(d, max_side)
    rng = S.rng_for(draw(S.SEEDS))
    kind = kind or draw(st.sampled_from(KINDS))
    # NumPy bools too (np.True_ is a bool the contract names): an answer that tests `rms is True`
    # does LayerNorm for np.True_ (a blind hostile round, stop 58)
    rms = draw(S.FLAGS) if rms is None else (np.bool_(rms) if draw(BOOLS) else rms)
    eps = _eps(draw(EPS))
    if kind == "offset" and eps is not None and eps > 1e-5:
        eps = 1e-6  # eps far above the spread's variance would hide the cancellation (xhat ~ spread / sqrt(eps))
    scale = {"large": (1e3, 1e4, 1e4)}.get(kind, (1.0, 1.0, 1.0))
    gamma = S.normal(rng, d, scale[0]) + float(rng.choice([0.0, 1.0]))
    beta = S.normal(rng, d, scale[1]) if rng.random() >= 0.25 else np.zeros(d)
    d_out = S.normal(rng, (n, d), scale[2] * float(rng.choice([1.0, 0.3, 3.0])))
    x = _within_condition(draw_x(rng, n, d, kind), 1e-5 if eps is None else float(eps), rms)
    case = {"x": x, "gamma": np.clip(gamma, -LIMIT, LIMIT), "beta": np.clip(beta, -LIMIT, LIMIT),
            "d_out": np.clip(d_out, -LIMIT, LIMIT)}
    if eps is not None:
        case["eps"] = eps
    if rms or draw(BOOLS):
        case["rms"] = rms
    return case


@S.valid_inputs()
@st.composite
def cases(draw, kind=None, rms=None, max_side=None):
    """Keyword arguments of a valid call; ``kind`` of x and ``rms`` fixed, or drawn."""
    return draw_case(draw, kind, rms, max_side)


def run(kata, case):
    """Call the candidate on a valid call: a tuple (out, d_x, d_gamma, d_beta), float64, of shapes
    (n, d), (n, d), (d,), (d,)."""
    result = kata(**case)
    n, d = np.shape(case["x"])
    if not isinstance(result, tuple) or len(result) != 4:
        raise KataMismatch(message("result.not-tuple", function=FUNCTION, names=", ".join(OUTPUTS),
                                   type=type(result).__name__))
    shapes = ((n, d), (n, d), (d,), (d,))
    return tuple(check_array(a, name, shape) for a, name, shape in zip(result, OUTPUTS, shapes))


def about(case) -> dict:
    n, d = np.shape(case["x"])
    return said("part.about", n=n, d=d, eps=repr(case["eps"]) if "eps" in case else "1e-5 (default)",
                rms=rms_of(case), C=f"{T.condition(case):.3g}")


def check_within(got, want, allowed, what, why) -> None:
    """Each entry of ``got`` within ``allowed`` of ``want`` (NaN or inf is never within)."""
    got, want = np.asarray(got), np.asarray(want)
    with np.errstate(invalid="ignore", over="ignore"):
        diff = np.abs(got - want)
        bad = ~(diff <= allowed)
    if not bad.any():
        return
    first = tuple(int(i) for i in np.argwhere(bad)[0])
    if np.isnan(got[first]):
        detail = message("values.nan-at", index=str(first), want=float(want[first]))
    else:
        finite = diff[~np.isnan(diff)]
        detail = message("values.first-difference", index=str(first), want=float(want[first]),
                         got=float(got[first]), largest=f"{finite.max():.3g}" if finite.size else "nan")
    why = said("part.allowed", why=why, allowed=f"{float(np.broadcast_to(allowed, want.shape)[first]):.3g}")
    digits = telling_precision(want, got)
    raise KataMismatch(message("values.wrong", what=what, why_text=message("values.why", why=why), detail=detail,
                               expected=array_param(want, precision=digits), got=array_param(got, precision=digits)))


def check_outputs(got, want, case, why, names=OUTPUTS) -> None:
    """Each output within the contract's allowance around the oracle's."""
    for g, w, name in zip(got, want, OUTPUTS):
        if name in names:
            check_within(g, w, T.allowance_of(name, case, w), name, why)


# -- Properties of a correct answer ---------------------------------------------------------------

_EXAMPLE = {"x": np.array([[1.0, 2.0, 4.0, -1.0], [0.5, 0.5, 0.5, 0.5], [3.0, -2.0, 0.0, 1.0]]),
            "gamma": np.array([1.0, 0.5, 2.0, -1.5]), "beta": np.array([0.0, 1.0, -1.0, 0.25]),
            "d_out": np.array([[1.0, -1.0, 0.5, 2.0], [0.3, 0.2, -0.7, 1.0], [-1.0, 0.0, 2.0, 0.5]])}


@prop(case=cases())
@example(case=dict(_EXAMPLE))
@example(case=dict(_EXAMPLE, rms=True, beta=np.zeros(4)))
@example(case=dict(_EXAMPLE, eps=1))
def test_matches_torch_autograd(kata, case):
    """Matches torch autograd through F.layer_norm, or the RMS formula when rms is true (float64): out, d_x, d_gamma and d_beta, within the contract's accuracy"""
    check_outputs(run(kata, case), want_of(case), case, said("why.torch", about=about(case)))


#: Properties that draw no input: they build a fixed one themselves (tests/strategies.py).
INPUT_BUILT_INSIDE = ("test_the_largest_realistic_case_matches_torch",)


@prop(seed=st.just(0))
def test_the_largest_realistic_case_matches_torch(kata, seed):
    """The compare battery's largest realistic case (n = 512, d = 512) matches torch, checked as test_matches_torch_autograd checks its cases"""
    L.check_with(test_matches_torch_autograd, kata, L.largest_case("layer_norm_backward"))


@prop(case=cases(rms=True))
@example(case=dict(_EXAMPLE, rms=True, beta=np.zeros(4), eps=1e-6))
def test_rms_norm_matches_torch(kata, case):
    """With rms true: RMSNorm, no mean subtracted, r = 1 / sqrt(mean(x^2) + eps), d_x = r (g - xhat mean(g xhat)), matches torch autograd"""
    check_outputs(run(kata, case), want_of(case), case, said("why.rms", about=about(case)))


_OFFSET = {"x": 1e4 + 1e-2 * np.array([[1.0, -1.0, 1.0, -1.0], [1.5, -0.5, -0.5, -0.5]]) * np.array([[1.0], [1.1547005383792515]]),
           "gamma": np.array([1.0, 0.5, 2.0, -1.5]), "beta": np.array([0.0, 1.0, -1.0, 0.25]),
           "d_out": np.array([[1.0, -1.0, 0.5, 2.0], [0.3, 0.2, -0.7, 1.0]])}


@prop(case=cases(kind="offset", rms=False))
@example(case=dict(_OFFSET))
def test_a_large_common_offset_keeps_its_accuracy(kata, case):
    """LayerNorm rows 1e4 from 0 with a spread of 1e-2 (C ~ 9e5) keep the contract's accuracy: the variance is the mean of squared deviations from the mean, not E[x^2] - mu^2"""
    check_outputs(run(kata, case), want_of(case), case, said("why.offset", about=about(case)))


@prop(case=cases(kind="ordinary", max_side=4))
def test_matches_central_finite_differences(kata, case):
    """d_x, d_gamma and d_beta match central finite differences of L = sum(out * d_out), an oracle that shares nothing with torch"""
    _, d_x, d_gamma, d_beta = run(kata, case)
    want = finite_differences(case)
    for g, w, name in zip((d_x, d_gamma, d_beta), want, OUTPUTS[1:]):
        scale = max(1.0, float(np.max(np.abs(w))))
        check_within(g, w, 1e-6 * scale, name, said("why.finite-differences", about=about(case)))


@prop(case=cases(rms=False))
def test_layer_norm_d_x_sums_to_zero_in_each_row(kata, case):
    """With LayerNorm each row of d_x sums to 0: adding a constant to a row of x changes nothing after the mean is subtracted"""
    _, d_x, _, _ = run(kata, case)
    want = torch_autograd(case["x"], case["gamma"], case["beta"], case["d_out"], eps=eps_of(case), rms=False)[1]
    d = d_x.shape[1]
    allowed = d * (1e-9 * np.abs(want).max(axis=1) + T.allowances(case)["d_x"][:, 0])
    check_within(d_x.sum(axis=1), np.zeros(d_x.shape[0]), allowed, "d_x.sum(axis=1)",
                 said("why.sums", about=about(case)))


FORMS = st.sampled_from(["float32", "int", "list"])


@prop(case=cases(kind="ordinary"), form=FORMS, name=st.sampled_from(["x", "gamma", "beta", "d_out"]),
      forms=st.sampled_from(["np.float64", "np.float32", "int", "np.int64", "float"]))
# both NumPy scalars every run: a run's draws missed them (stop 56's seed sweep, run seed 606)
@example(case=dict(_EXAMPLE), form="list", name="x", forms="np.float32")
@example(case=dict(_EXAMPLE), form="int", name="gamma", forms="np.int64")
def test_accepts_array_likes_and_numpy_scalars(kata, case, form, name, forms):
    """Accepts lists, integer and float32 arrays (any memory layout) for x, gamma, beta and d_out, and eps as a Python or NumPy int or float; computes and returns float64"""
    given, value = S.as_form(case[name], form)
    values = dict(case, **{name: value})
    # np.float32 and np.int64 too: an answer that checks isinstance(eps, (int, float)) refuses them
    # (np.float64 is a float; a blind hostile round, stop 54)
    eps = {"np.float64": np.float64(eps_of(case)), "np.float32": np.float32(eps_of(case)), "int": 1,
           "np.int64": np.int64(1), "float": eps_of(case)}[forms]
    values["eps"] = eps
    check_outputs(run(kata, dict(values, **{name: given})), want_of(values), values,
                  said("why.forms", name=name, form=form, eps=repr(eps), about=about(values)))


@prop(case=cases())
def test_does_not_modify_its_inputs(kata, case):
    """x, gamma, beta and d_out are left exactly as they were"""
    check_leaves_inputs_alone(lambda: run(kata, case), case, FUNCTION)


# -- Contract violations -> ValueError ------------------------------------------------------------


@prop(case=cases(kind="ordinary"), how=st.sampled_from(["0-d", "1-D", "3-D"]))
def test_rejects_x_that_is_not_2d(kata, case, how):
    """x that is a scalar, a vector or a 3-D batch raises ValueError (d_out given the same shape)"""
    x = case["x"]
    bad = {"0-d": np.float64(x[0, 0]), "1-D": x[0].copy(), "3-D": x[None].copy()}[how]
    d_out = {"0-d": np.float64(case["d_out"][0, 0]), "1-D": case["d_out"][0].copy(), "3-D": case["d_out"][None].copy()}[how]
    expect_value_error(lambda: kata(**dict(case, x=bad, d_out=d_out)), said("because.not-2d", shape=np.shape(bad)))


@CONTRACT.rejects_a_zero_size(cases(kind="ordinary"), {"n": "n = 0", "d": "d = 0"})
def test_rejects_an_empty_x(kata, case):
    """x with no rows (n = 0) or no features (d = 0) raises ValueError"""


@st.composite
def parameter_of_wrong_shape(draw):
    """gamma or beta of a shape other than (d,), most of them shapes that broadcast against (n, d)."""
    case = draw(cases(kind="ordinary"))
    name = draw(st.sampled_from(["gamma", "beta"]))
    a = case[name]
    d = a.shape[0]
    shapes = {"(1, d), broadcastable": a[None].copy(), "(d + 1,)": np.append(a, 1.0), "a scalar": np.float64(a[0]),
              "(d, 1)": a[:, None].copy()}
    if d >= 2:
        shapes["(1,), broadcastable"] = a[:1].copy()
        shapes["(d - 1,)"] = a[:-1].copy()
    options = sorted(k for k, v in shapes.items() if np.shape(v) != (d,))
    how = options[draw(st.integers(0, len(options) - 1))]
    return case, name, how, shapes[how]


@prop(bad=parameter_of_wrong_shape())
def test_rejects_gamma_or_beta_not_of_shape_d(kata, bad):
    """gamma or beta whose shape is not exactly (d,) raises ValueError, even if it would broadcast"""
    case, name, how, a = bad
    expect_value_error(lambda: kata(**dict(case, **{name: a})),
                       said("because.parameter", name=name, shape=np.shape(a), d=case["x"].shape[1]))


@st.composite
def d_out_of_wrong_shape(draw):
    """d_out of a shape other than (n, d), most of them shapes that broadcast against (n, d)."""
    case = draw(cases(kind="ordinary"))
    g = case["d_out"]
    n, d = g.shape
    shapes = {"(1, d), broadcastable": g[:1].copy(), "(d,), broadcastable": g[0].copy(),
              "(n, 1), broadcastable": g[:, :1].copy(), "(1, n, d)": g[None].copy(),
              "(n + 1, d)": np.vstack([g, g[:1]]), "(n, d + 1)": np.hstack([g, g[:, :1]]),
              "(d, n), transposed": g.T.copy()}
    options = sorted(k for k, v in shapes.items() if v.shape != (n, d))
    how = options[draw(st.integers(0, len(options) - 1))]
    return case, how, shapes[how]


@prop(bad=d_out_of_wrong_shape())
@example(bad=(dict(_EXAMPLE), "(1, d), broadcastable", _EXAMPLE["d_out"][:1].copy()))
def test_rejects_d_out_not_of_shape_n_by_d(kata, bad):
    """d_out whose shape is not exactly (n, d) raises ValueError, even if it would broadcast"""
    case, how, d_out = bad
    n, d = case["x"].shape
    expect_value_error(lambda: kata(**dict(case, d_out=d_out)), said("because.d-out", shape=d_out.shape, n=n, d=d))


@CONTRACT.rejects_non_finite(cases(kind="ordinary"))
def test_rejects_nan_or_inf(kata, case, value, seed):
    """NaN, inf or -inf in x, gamma, beta or d_out raises ValueError"""


BAD_EPS = [0, 0.0, -1e-5, -1.0, np.nan, np.inf, -np.inf, True, False, np.True_, np.False_, "1e-5", None, [1e-5],
           np.array([1e-5, 1e-5])]  # np.True_: a NumPy bool is a bool too (stop 55's blind round)


@prop(case=cases(kind="ordinary"), eps=st.sampled_from(BAD_EPS))
@example(case=dict(_EXAMPLE), eps=0.0)
@example(case=dict(_EXAMPLE), eps=np.True_)
def test_rejects_an_eps_that_is_not_a_finite_real_above_zero(kata, case, eps):
    """eps of 0, below 0, NaN, inf, a bool, a string, None or a list raises ValueError"""
    expect_value_error(lambda: kata(**dict(case, eps=eps)), said("because.eps", eps=repr(eps)))
