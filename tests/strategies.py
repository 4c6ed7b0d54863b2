"""Shared Hypothesis strategies for every kata.

Design rules, each there because a realistic bug hides otherwise:
- Arrays come from a drawn seed through NumPy's generator, so no array is a repeated fill
  (``hnp.arrays`` fills most of an array with one value; constant keys hide scale and mask
  bugs). Values are rounded to two significant-ish decimals so shrunk examples stay readable.
- Dimensions are drawn distinct where it matters (n, m, d_k, d_v, d_model), so a scale by the
  wrong width or a softmax over the wrong axis changes the answer; mostly small, sometimes 8 to
  128 (tests/sizes.py), so a table or mask built for 8 positions or a tile loop that drops its
  remainder shows.
- Masks guarantee an allowed key in every row by construction, never by rejection.
- Scales span ordinary, large-logit (scores ~1e4) and mixed (slices 1e4 apart) inputs.
"""

from __future__ import annotations

import functools

import numpy as np
from hypothesis import strategies as st

from tests.sizes import size_tuple, sizes  # noqa: F401 (size_tuple: for the katas too)

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
#: A flag a contract reads as "if true" (``causal``): a Python bool, or a NumPy bool (what
#: ``mask.any()`` gives a caller). An answer that tests ``causal is True`` ignores np.True_ and
#: attends to future keys (a fourth hostile round, stop 51: the judge only ever passed bools).
FLAGS = st.sampled_from([False, True, np.False_, np.True_])
class AsNumpyInt:
    """``value`` as a NumPy integer of ``kind``, or as np.int64 where ``kind`` cannot hold it."""

    def __init__(self, kind: str):
        self.kind, self.info = kind, np.iinfo(kind)

    def __call__(self, value: int):
        fits = self.info.min <= int(value) <= self.info.max
        return np.dtype(self.kind).type(value) if fits else np.int64(value)

    def __repr__(self) -> str:
        return f"np.{self.kind}"


#: How an integer argument (a head count, a block size) may come: a Python int or a NumPy integer
#: of 32 or 64 bits, signed or not. An answer that checks ``isinstance(h, int)`` refuses np.int64,
#: which is no int subclass (a blind hostile round, stop 54). Narrower NumPy integers are outside the
#: contracts that use this (stop 57), and not drawn:
#: right answers of our own take np.sqrt(d_model // h) in float32 for np.int16 heads and overflow
#: ``h * d`` in np.int8 (stop 55; docs/hostile.md). Call it on the drawn int: ``as_int(case["num_heads"])``.
INT_TYPES = st.sampled_from([int, np.int64, np.int32, *map(AsNumpyInt, ("uint32", "uint64"))])
#: Two float64 whose product is exactly np.finfo(np.float64).min, -(2**53 - 1) * 2**971
#: (2**53 - 1 = 6361 * 69431 * 20394401): a query and a key projection of width 1 that make an
#: allowed score equal to a finfo.min fill, so a future key filled so ties with it and takes half
#: the weight (a blind hostile round, stop 56).
FINFO_MIN_FACTORS = (441650591 * 2.0**485, -20394401 * 2.0**486)
#: Typical magnitudes of generated entries. 0.3 keeps softmaxes soft, 10 makes them peaky.
SCALES = st.sampled_from([1.0, 0.3, 3.0, 10.0])


def rng_for(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def normal(rng: np.random.Generator, shape, scale: float = 1.0) -> np.ndarray:
    """Readable, never-constant float64 entries: N(0, 1) rounded to 2 decimals, times scale."""
    return np.round(rng.standard_normal(shape), 2) * scale + 0.0  # + 0.0 turns -0. into 0.


def overflowing_pair(rng: np.random.Generator, d: int, mixed: bool) -> tuple[np.ndarray, np.ndarray]:
    """Rows a, b of width d, both finite, whose score a·b / sqrt(d) overflows float64 (exactly,
    it is past 1e396): a = b = 1e200 u, every product ~ +1e400 (float64 gives +inf); or,
    ``mixed`` and d >= 2, some of b's entries negated and halved, so that the products overflow
    to +inf and to -inf while the exact score stays positive: float64 then gives inf, -inf or
    NaN, as the BLAS's order of summation has it. A check of np.isinf, of == inf, or of the
    NaN a softmax leaves misses one of those; np.isfinite of the scores catches all three."""
    u = normal(rng, d)
    u[np.abs(u) < 0.1] = 0.5  # every entry clearly non-zero, so every product overflows
    c = opposite_signs(rng, u * u) if mixed and d >= 2 else np.ones(d)
    return 1e200 * u, 1e200 * u * c


def opposite_signs(rng: np.random.Generator, terms: np.ndarray) -> np.ndarray:
    """Factors for the positive ``terms`` of a sum (2 or more): 1, and -0.5 for a drawn 1 to
    len - 1 of them, so that the sum has terms of both signs; all 1 where the sum would fall
    below 0.01 (an overflowing score built on it must stay far past +1.8e308)."""
    c = np.ones(len(terms))
    c[rng.permutation(len(terms))[: int(rng.integers(1, len(terms)))]] = -0.5
    return c if float((terms * c).sum()) >= 0.01 else np.ones(len(terms))


def mixed_overflow(why: dict, a: np.ndarray, b: np.ndarray) -> dict:
    """``why`` (a property's reason for its ValueError), told what float64 makes of a mixed pair."""
    from dojo.text.messages import message

    return message("because.overflow-mixed", first_text=why) if is_mixed(a, b) else why


def is_mixed(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether a·b has products that overflow to +inf and ones that overflow to -inf (an
    ``overflowing_pair`` drawn ``mixed``)."""
    with np.errstate(divide="ignore"):
        big = np.log10(np.abs(a)) + np.log10(np.abs(b)) > np.log10(np.finfo(np.float64).max)
    signs = np.sign(a) * np.sign(b)
    return bool((big & (signs > 0)).any() and (big & (signs < 0)).any())


@st.composite
def arrays(draw, shape, scale=None) -> np.ndarray:
    """A float64 array of ``shape`` with distinct-looking entries (no repeated fill)."""
    scale = draw(SCALES) if scale is None else scale
    return normal(rng_for(draw(SEEDS)), shape, scale)


def dims(min_value: int = 1, max_value: int = 6):
    """One size: ``min_value..max_value`` mostly, sometimes 8 to 128 (tests/sizes.py)."""
    return sizes(min_value, max_value)


def distinct_dims(count: int, min_value: int = 1, max_value: int = 7, max_large: int = 2,
                  max_big: int | None = None):
    """``count`` pairwise-different sizes, so no two named dimensions can be confused: mostly
    ``min_value..max_value``, sometimes 8 to 128, at most ``max_large`` of them 64 or more and
    at most ``max_big`` of them above ``max_value`` (tests/sizes.py)."""
    return size_tuple(count, min_value, max_value, max_large=max_large, max_big=max_big)


@st.composite
def sometimes_coinciding(draw, dims, groups: tuple[tuple[int, ...], ...]):
    """Sizes from ``dims`` (pairwise different), except in one example in four: then the sizes
    at the positions of each group are made equal, the realistic case (n == m, d_k == d_v ==
    d_model). Code may branch on shapes, and a bug that shows only when sizes coincide must be
    caught too. Shrinks towards the distinct sizes, which explain a failure best."""
    sizes = list(draw(dims))
    if draw(st.integers(0, 3)) == 3:
        for group in groups:
            for i in group[1:]:
                sizes[i] = sizes[group[0]]
    return tuple(sizes)


def valid_mask(rng: np.random.Generator, n: int, m: int, density: float) -> np.ndarray:
    """A bool (n, m) mask, True = may attend, with at least one allowed key in every row
    (by construction, never by rejection)."""
    mask = rng.random((n, m)) < density
    mask[np.arange(n), rng.integers(0, m, size=n)] = True  # every row keeps one key
    return mask


@st.composite
def masks(draw, n: int, m: int) -> np.ndarray:
    """A drawn ``valid_mask`` of density 0.2 to 1."""
    density = draw(st.sampled_from([0.2, 0.5, 0.8, 1.0]))
    return valid_mask(rng_for(draw(SEEDS)), n, m, density)


@st.composite
def masks_with_a_blocked_row(draw, n: int, m: int) -> tuple[np.ndarray, int]:
    """A bool (n, m) mask in which exactly one drawn row has no allowed key."""
    mask = draw(masks(n, m))
    row = draw(st.integers(0, n - 1))
    mask[row] = False
    return mask, row


@st.composite
def logits(draw, shape, axis: int, kind: str | None = None) -> np.ndarray:
    """Softmax inputs of one of four kinds: ordinary, large (~1e4), mixed scales, or with -inf.

    ``mixed``: slices along ``axis`` have scales 1e4 apart, so a max over the wrong axis (or
    over the whole array) underflows a whole slice. ``masked``: some entries are -inf but
    every slice along ``axis`` keeps at least one finite entry.
    """
    kind = kind or draw(st.sampled_from(["ordinary", "large", "mixed", "masked"]))
    rng = rng_for(draw(SEEDS))
    x = normal(rng, shape, draw(SCALES))
    if kind == "large":
        x = x * 1e4 + rng.choice([-1.0, 1.0]) * 3e4
    elif kind == "mixed":
        per_slice = np.expand_dims(10.0 ** rng.choice([-2.0, 2.0], size=_drop(shape, axis)), axis)
        x = x * per_slice + np.expand_dims(rng.choice([0.0, 1e4], size=_drop(shape, axis)), axis)
    elif kind == "masked":
        x[rng.random(shape) < 0.4] = -np.inf
        keep = rng.integers(0, shape[axis], size=_drop(shape, axis))  # one finite entry per slice
        idx = list(np.indices(_drop(shape, axis)))
        idx.insert(axis % len(shape), keep)
        x[tuple(idx)] = normal(rng, _drop(shape, axis), 3.0)
    return x


#: The decade d of a "far below" case: its allowed scores lie below -10**d, every decade from
#: just below -1e9 to the edge of overflow, drawn by Hypothesis (so a run spreads over them and a
#: failure shrinks to the smallest decade that shows it).
FAR_DECADES = st.integers(10, 306)
#: Every product in a far-below score stays below this, so every score and every intermediate
#: of q kᵀ / sqrt(d_k) is finite, with room for the softmax's max shift.
FAR_LIMIT = 1e306


def far_magnitude(decade: int, smallest: float, largest: float) -> float:
    """F such that F² times ``smallest`` (the smallest multiple of F² among a case's far-below
    scores) is 10**decade, unless F² times ``largest`` (the largest multiple of F² in a score's
    products) would pass FAR_LIMIT: then the largest F within it."""
    return float(min(np.sqrt(10.0**decade / smallest), np.sqrt(FAR_LIMIT / largest)))


def scores_far_below(rng: np.random.Generator, q: np.ndarray, k: np.ndarray,
                     decade: int) -> tuple[np.ndarray, np.ndarray]:
    """q and k with large opposite entries in column 0 (q[:, 0] + F, k[j, 0] - F t_j, the
    t_j = 1..m in random order), so every score q_i·k_j / sqrt(d_k) lies near -F² t_j / sqrt(d_k),
    below -10**decade (FAR_DECADES: from about -1e10 to the edge of overflow): blocking with a
    finite fill instead of -inf (``np.where(allowed, scores, -1e13)``) then puts all the weight
    on blocked keys whenever the fill lies above the allowed scores. The scores of one query lie
    >= F² / sqrt(d_k) apart (relative gaps >= 1/m), so each row's weight sits on one key
    whatever the rounding."""
    steps = rng.permutation(k.shape[0]) + 1.0
    far = far_magnitude(decade, 1.0 / np.sqrt(k.shape[1]), k.shape[0])
    q, k = q.copy(), k.copy()
    q[:, 0] += far
    k[:, 0] -= far * steps
    return q, k


def projected_scores_far_below(rng: np.random.Generator, x: np.ndarray, w_q: np.ndarray,
                               w_k: np.ndarray, decade: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The same for katas that project x (..., n, d_model) with w_q, w_k (d_model, ·): x[..., 0]
    gets large entries F t_i (t_i = 1..n in random order), w_q's row 0 is all 1 and w_k's all
    -1, so every head's score of query i and key j is near -F² t_i t_j d_k / sqrt(d_k), below
    -10**decade, and the scores of one query lie >= F² sqrt(d_k) apart (d_k: a head's width,
    at least 1)."""
    x, w_q, w_k = x.copy(), w_q.copy(), w_k.copy()
    n = x.shape[-2]
    far = far_magnitude(decade, 1.0, float(n) * n * max(w_q.shape[1], w_k.shape[1]))
    x[..., 0] += far * (rng.permutation(n) + 1.0)
    w_q[0], w_k[0] = 1.0, -1.0
    return x, w_q, w_k


def _drop(shape, axis):
    """``shape`` without ``axis``."""
    axis = axis % len(shape)
    return tuple(s for i, s in enumerate(shape) if i != axis)


@st.composite
def shapes_and_axis(draw, min_dims: int = 1, max_dims: int = 3, max_side: int = 5, max_big: int = 2):
    """A shape of ``min_dims`` to ``max_dims`` sides, mostly 1 to ``max_side``, sometimes 8 to
    128 (at most one side 64 or more, at most ``max_big`` above ``max_side``), and an axis of it."""
    ndim = draw(sizes_of_rank(min_dims, max_dims))
    shape = draw(size_tuple(ndim, 1, max_side, distinct=False, max_large=1, max_big=max_big))
    axis = draw(st.integers(-len(shape), len(shape) - 1))
    return shape, axis


@functools.lru_cache(maxsize=None)
def sizes_of_rank(min_dims: int, max_dims: int):
    return st.integers(min_dims, max_dims)


def non_finite_values():
    return st.sampled_from([np.nan, np.inf, -np.inf])


@st.composite
def with_one_entry(draw, a: np.ndarray, value) -> tuple[np.ndarray, tuple]:
    """A copy of ``a`` with one drawn entry set to ``value``; returns it and the index."""
    a = a.copy()
    index = tuple(draw(st.integers(0, s - 1)) for s in a.shape)
    a[index] = value
    return a, index


#: Ways an array-like can arrive: a float64 array, float32, integers, or nested lists.
#: "int8" and "uint8" are narrow integer arrays with values that fill them: the contracts'
#: "computed in float64" holds for every dtype, and an answer that keeps an integer input in its
#: own dtype is exact in int64 with small values, but wraps around in x - max (uint8) or
#: q @ kᵀ (int8, uint8). BASIC_FORM_NAMES are for inputs whose values mean something on their
#: own (log-probabilities, probabilities), which these two would change into invalid ones.
#: "float64" is a float64 array laid out otherwise than in C order (every other property passes
#: C-ordered arrays): in Fortran order (np.asfortranarray) where it has 2 or more axes and an
#: even number of entries, else a view of every other entry along the last axis of a wider
#: array, NaN between them (not contiguous in memory). An answer that assumes C order (strides
#: computed by hand for as_strided, memory read back with np.ndarray(buffer=...)) reads the
#: wrong entries there. As a form of its own it would make the other forms rarer.
BASIC_FORM_NAMES = ("float64", "float32", "int", "list")
#: "longdouble": a wider float than float64 where the platform has one (x86-64's 80-bit); the
#: contracts return float64, and np.result_type(x, np.float64) keeps longdouble (stop 58's blind round).
FORM_NAMES = ("float64", "float32", "int", "int8", "uint8", "list", "longdouble")
INPUT_FORMS = st.sampled_from(FORM_NAMES)
BASIC_FORMS = st.sampled_from(BASIC_FORM_NAMES)


#: A "list" form of an array with more entries than this is a list of its rows (float64 arrays),
#: not nested lists of floats: the judge copies, sends and compares a call's inputs, and nested
#: lists of a few hundred thousand floats cost it seconds of the worker's CPU, counted against
#: the call (a right multihead_attention timed out at 2 s on one in CI).
LIST_ENTRIES = 4096


def as_form(a: np.ndarray, form: str):
    """``a`` converted to ``form``; returns (argument to pass, its float64 value). A "list" is
    nested lists of floats, or for an array of 2 or more axes past LIST_ENTRIES entries, a list
    of its rows."""
    if form == "float32":
        a = a.astype(np.float32)
        return a, a.astype(np.float64)
    if form == "longdouble":  # its values are the float64 ones: the answer must be the same
        return a.astype(np.longdouble), np.asarray(a, dtype=np.float64)
    if form == "int":
        a = np.round(a).astype(np.int64)
        return a, a.astype(np.float64)
    if form in ("int8", "uint8"):  # scaled so the largest entry fills the dtype (127, 255)
        top = float(np.abs(a).max(initial=0.0))
        if top == 0:
            a = np.zeros(a.shape, dtype=form)
        elif form == "uint8":
            a = np.round(np.abs(a) * (255 / top)).astype(np.uint8)
        else:
            a = np.round(a * (127 / top)).astype(np.int8)
        return a, a.astype(np.float64)
    if form == "list":
        given = [np.array(row) for row in a] if a.ndim >= 2 and a.size > LIST_ENTRIES else a.tolist()
        return given, np.asarray(given, dtype=np.float64)
    if form == "float64" and a.ndim:
        return laid_out_otherwise(np.asarray(a, dtype=np.float64)), a
    return a, a


def laid_out_otherwise(a: np.ndarray, layout: str | None = None) -> np.ndarray:
    """``a``'s values in another layout than C order: ``"fortran"`` (np.asfortranarray) or
    ``"view"`` (every other entry along the last axis of a wider array, NaN between them);
    by default Fortran where ``a`` has 2 or more axes and an even number of entries."""
    layout = layout or ("fortran" if a.ndim >= 2 and a.size % 2 == 0 else "view")
    if layout == "fortran":
        return np.asfortranarray(a)
    wider = np.full(a.shape[:-1] + (2 * a.shape[-1],), np.nan)
    wider[..., ::2] = a
    return wider[..., ::2]


# -- What a property draws (checked by tests/meta/test_strategies.py) ----------------------
# A judge that draws an invalid input blames correct code for the judge's own draw. So the
# strategy self-check draws every strategy the properties use and checks each drawn value
# against the contract, and asks the reference solution to accept it. For that, each strategy
# of valid inputs is declared where it is defined, with ``valid_inputs``. The rule, enforced
# by the self-check:
# - a property named ``test_rejects_*`` may draw anything (it breaks a contract on purpose);
#   whatever it draws from a declared strategy is still checked, since the ValueError it
#   expects must come from the rule it names, not from a second one;
# - every other property draws only declared strategies and PARAMETERS (or its module lists
#   it in ``INPUT_BUILT_INSIDE``: it draws no input at all and builds a fixed one itself).

#: Names of property arguments that are not an input of the kata but say how a property varies
#: its drawn case: a seed for its own choices, the form an array arrives in, a shift, which
#: array to convert. A property may draw these without declaring them.
PARAMETERS = frozenset({"seed", "shift", "form", "forms", "position_form", "penalty_form", "coefficients", "name", "as_int"})


def valid_inputs(calls=None):
    """Declare the decorated strategy (an ``st.composite`` function) as drawing valid inputs.

    ``calls(drawn)`` lists the keyword arguments of every call of the kata that one drawn value
    stands for: the drawn case, and any call a property makes from data drawn with it (new
    keys and values for a changed future, a second block size, chunks). Without ``calls`` the
    drawn value must be a dict that is exactly one call's keyword arguments.
    """

    def declare(factory):
        @functools.wraps(factory)
        def make(*args, **kwargs):
            strategy = factory(*args, **kwargs)
            strategy.dojo_valid_inputs = Declared(
                factory.__module__, factory.__name__, args, kwargs, calls or _one_call
            )
            return strategy

        return make

    return declare


class Declared:
    """What ``valid_inputs`` attaches to each strategy it declares."""

    def __init__(self, module: str, name: str, args: tuple, kwargs: dict, calls):
        self.module, self.name, self.args, self.kwargs, self.calls = module, name, args, kwargs, calls

    def key(self) -> tuple:
        """Equal for two strategies made by the same factory from the same arguments."""
        def part(v):
            return v if isinstance(v, (str, int, float, bool, type(None))) else id(v)

        return (self.module, self.name, tuple(map(part, self.args)),
                tuple(sorted((k, part(v)) for k, v in self.kwargs.items())))

    def __str__(self) -> str:
        def short(v):
            text = repr(v)
            return text if len(text) <= 40 else f"<{type(v).__name__}>"

        shown = [short(a) for a in self.args] + [f"{k}={short(v)}" for k, v in self.kwargs.items()]
        return f"{self.module}.{self.name}({', '.join(shown)})"


def _one_call(drawn) -> list[dict]:
    return [drawn]


def without(case: dict, *keys: str) -> dict:
    """``case`` less ``keys`` (a property's own extras, such as ``i`` or ``new_k``)."""
    return {k: v for k, v in case.items() if k not in keys}


def calls_with_the_future_replaced(case: dict) -> list[dict]:
    """The two calls of a changed-future case: before, and with the keys and values after query
    i's position p = m - n + i replaced by ``new_k`` and ``new_v``."""
    before = without(case, "i", "new_k", "new_v")
    p = case["k"].shape[0] - case["q"].shape[0] + case["i"]
    after = dict(before, k=case["k"].copy(), v=case["v"].copy())
    after["k"][p + 1 :], after["v"][p + 1 :] = case["new_k"], case["new_v"]
    return [before, after]


def calls_with_one_key_replaced(case: dict) -> list[dict]:
    """The two calls of a one-changed-key case: before, and with k[key], v[key] replaced by
    ``new_k`` and ``new_v``."""
    before = without(case, "key", "new_k", "new_v")
    after = dict(before, k=case["k"].copy(), v=case["v"].copy())
    after["k"][case["key"]], after["v"][case["key"]] = case["new_k"], case["new_v"]
    return [before, after]
