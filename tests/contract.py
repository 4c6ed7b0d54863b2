"""The contract's error properties, built from what a kata declares.

Every kata's judge ends with properties that break one rule of the contract and expect a
ValueError: an array of the wrong rank, a size of 0, two arrays whose shared size disagrees,
NaN or inf in an array, a score that overflows. Most katas share those rules, so a judge
declares its arrays once, with the named size on each axis:

    CONTRACT = Contract({"q": ("n", "d_k"), "k": ("m", "d_k"), "v": ("m", "d_v")})  # = Contract(QKV)

and each error property stays a function of the judge's own file, with its name (the
property's id in verdicts and history), its docstring (the title a candidate reads) and its
place among the other properties, while a builder here supplies its body:

    @CONTRACT.rejects_a_wrong_rank(problems(kind="ordinary"), forms=not_2d_forms())
    def test_rejects_an_input_that_is_not_2d(kata, case):
        \"\"\"q, k or v that is not 2-D (a scalar, a vector, a 3-D batch) raises ValueError\"\"\"

The declared function has a docstring and nothing else (checked at import), and its parameters
after ``kata`` receive what the builder draws, in order. The property wraps it
(``functools.wraps``): pytest collects it under its own name, conftest's ``_title()`` reads its
docstring, and Hypothesis derives its derandomised examples from its source (the decorator's
arguments included), as for a property written out in full. Only ``test_rejects_*`` properties
are built here, so tests/meta/test_strategies.py lets them draw bad inputs.

What differs from kata to kata is an argument of the builder, never a silent default: which
sizes a replacement may take, which keys a query sees, how a message reads. A message
(``because``) is a ``str.format`` template filled with the bad call's arguments by name and the
fields each builder names, a message (``message("judge.<kata>.because.<id>")``, or with some
parameters already given) whose remaining placeholders are filled the same way, or a function of
the same fields returning the message. A builder's own default is a message of
``dojo/text/locale/<lang>/contract.toml``, so it reads in the screen's language.

Katas whose bad calls are drawn whole (multihead, grouped-query attention) draw ``(call,
because)`` pairs, from their own strategies or from ``Contract.a_call_*``, and declare each
property with ``rejects_each_call(strategy)``.
"""

from __future__ import annotations

import ast
import functools
import inspect
import textwrap

import numpy as np
from hypothesis import example
from hypothesis import strategies as st

from dojo.text import locale
from dojo.text.messages import _PLACEHOLDER, is_message, message
from tests import strategies as S
from tests.judge import expect_value_error, prop


def say(because, **fields):
    """The message: ``because`` called with ``fields`` (``how`` and ``names`` may be messages:
    pass them on as parameters); a message with its placeholders filled from ``fields`` (each as
    ``str.format`` would show it); or a template formatted with them."""
    if callable(because):
        return because(**fields)
    if is_message(because):
        params = dict(because.get("params") or {})
        for name in _PLACEHOLDER.findall(locale.lookup(because["id"], "en") or ""):
            if name not in params and name in fields:
                params[name] = _shown(fields[name])
        return {"id": because["id"], "params": params}
    from dojo.text.messages import text  # a template is English: a field that is a message reads so too

    return because.format(**{k: text(v, "en") if is_message(v) else v for k, v in fields.items()})


def _shown(value):
    """A field as message data: a message or an int as it is, anything else as ``format`` shows it."""
    if is_message(value) or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    return format(value)


def fresh(call: dict) -> dict:
    """``call`` with its arrays copied, so an implementation that writes into its inputs (which
    the ``kata`` fixture reports) cannot change an explicit example for the next call."""
    return {k: v.copy() if isinstance(v, np.ndarray) else v for k, v in call.items()}


@functools.lru_cache(maxsize=None)
def _integers(lo: int, hi: int):
    """``st.integers(lo, hi)``, built once per range (Hypothesis validates each new strategy)."""
    return st.integers(lo, hi)


def listed(names):
    """``"q, k and v"`` (a message: "and" in the screen's language)."""
    names = list(names)
    return names[0] if len(names) == 1 else message("contract.names", names=", ".join(names[:-1]), last=names[-1])


def _declared(stub, count: int) -> list[str]:
    """The parameters of a declared property after ``kata``; checks it is a ``test_rejects_*``
    with ``count`` of them and a body that is only its docstring."""
    where = f"{stub.__module__}.{stub.__name__}"
    if not stub.__name__.startswith("test_rejects_"):
        raise TypeError(f"{where}: only test_rejects_* properties are built from a contract")
    params = list(inspect.signature(stub).parameters)
    if params[:1] != ["kata"] or len(params) != count + 1:
        raise TypeError(f"{where}{tuple(params)} should take (kata, ...) and {count} drawn value(s)")
    tree = ast.parse(textwrap.dedent(inspect.getsource(stub)))
    body = tree.body[0].body
    if not (stub.__doc__ and len(body) == 1 and isinstance(body[0], ast.Expr)):
        raise TypeError(f"{where}: a declared property has its docstring and nothing else (the builder is its body)")
    return params[1:]


def rejects(draws, body, examples=()):
    """Decorator: the declared stub becomes ``prop`` over ``draws`` (one strategy per parameter
    after ``kata``, in order), whose test calls ``body(kata, *drawn)``. ``examples``: keyword
    arguments of explicit examples, in the order they are written."""

    def decorate(stub):
        names = _declared(stub, len(draws))

        @functools.wraps(stub)  # its name, title, module and source are the property's
        def test(kata, **drawn):
            body(kata, *(drawn[name] for name in names))

        for kwargs in reversed(examples):  # as @example decorators written top to bottom
            test = example(**kwargs)(test)
        return prop(**dict(zip(names, draws)))(test)

    return decorate


def rejects_each_call(strategy, examples=()):
    """A property drawing ``(call, because)`` from ``strategy``: the call (its arrays copied)
    must raise ValueError because of ``because``. ``examples``: ``(call, because)`` pairs tried
    first in every run (a rule one drawn example in several reaches, reached every time)."""

    def body(kata, drawn):
        call, because = drawn
        expect_value_error(lambda: kata(**fresh(call)), because)

    def decorate(stub):
        (name,) = _declared(stub, 1)
        return rejects([strategy], body, examples=[{name: e} for e in examples])(stub)

    return decorate


#: The arrays of scaled dot-product attention: q (n, d_k), k (m, d_k), v (m, d_v).
QKV = {"q": ("n", "d_k"), "k": ("m", "d_k"), "v": ("m", "d_v")}


def not_2d_forms(one_d=("{}[0], 1-D", lambda a: a[0].copy()), trailing_axis: bool = True) -> dict:
    """Ways to make a 2-D array not 2-D, keyed by the expression passed instead of it (``{}``
    stands for its name): a 0-d scalar, ``one_d`` (default: its first row), a batch axis in
    front and, with ``trailing_axis``, a unit axis at the end."""
    forms = {
        "{}[0, 0], a 0-d scalar": lambda a: np.float64(a[0, 0]),
        one_d[0]: one_d[1],
        "{}[None], 3-D": lambda a: a[None].copy(),
    }
    if trailing_axis:
        forms["{}[:, :, None], 3-D"] = lambda a: a[:, :, None].copy()
    return forms


#: A form's description after its expression ("{}[0, 0], a 0-d scalar"), as a message.
FORM_WORDS = {"a 0-d scalar": "contract.form.scalar"}


def form_text(how: str, name: str):
    """A form of ``not_2d_forms`` (``how``, ``{}`` standing for the array's name) as shown: its
    description in the screen's language where it has words, as it is where it is code."""
    shown = how.format(name)
    expr, _, words = shown.rpartition(", ")
    if expr and words in FORM_WORDS:
        return message(FORM_WORDS[words], expr=expr)
    return shown


class Contract:
    """A kata's array arguments and the named size on each of their axes, in call order:
    ``{"x": ("n", "d_model"), "w_q": ("d_model", "d_k"), ...}``. A size named twice must
    agree between the arrays."""

    def __init__(self, arrays: dict[str, tuple[str, ...]]):
        self.arrays = dict(arrays)

    def sizes_of(self, case: dict) -> dict[str, int]:
        """Each named size of a valid case, read from the first array that has it."""
        sizes = {}
        for name, dims in self.arrays.items():
            for dim, size in zip(dims, np.shape(case[name])):
                sizes.setdefault(dim, size)
        return sizes

    def shapes_of(self, case: dict) -> str:
        """``"q (2, 3), k (4, 3), v (4, 5)"``."""
        return ", ".join(f"{name} {np.shape(case[name])}" for name in self.arrays)

    # -- Ranks ---------------------------------------------------------------------------------

    def rejects_a_wrong_rank(self, case, forms, because=None):
        """Each array in turn passed in each of ``forms`` (``{how: reshape}``, ``how`` with ``{}``
        for the array's name; or a function of the name giving them): ValueError each time.

        ``because`` fields: ``name``, ``how``, ``shape`` (the bad array's), ``names`` (all the
        arrays, listed), ``rank``. The default says the bad array is shown with the input."""
        ranks = {len(dims) for dims in self.arrays.values()}
        if len(ranks) != 1:
            raise TypeError("rejects_a_wrong_rank needs arrays of one rank")
        rank = ranks.pop()
        forms_of = forms if callable(forms) else (lambda name: forms)
        if because is None:
            because = message("contract.wrong-rank")
        names = listed(self.arrays)

        def body(kata, case):
            for name in self.arrays:
                for how, reshape in forms_of(name).items():
                    bad = dict(case, **{name: reshape(case[name])})
                    expect_value_error(
                        lambda: kata(**bad),
                        say(because, name=name, how=form_text(how, name), shape=np.shape(bad[name]),
                            names=names, rank=rank),
                    )

        return rejects([case], body)

    def a_call_of_a_wrong_rank(self, calls, forms: dict):
        """``(call, because)``: a drawn valid call with one drawn array in one drawn form
        (``{how: reshape}``)."""
        names, hows = st.sampled_from(list(self.arrays)), st.sampled_from(list(forms))
        ranks = {len(dims) for dims in self.arrays.values()}
        if len(ranks) != 1:
            raise TypeError("a_call_of_a_wrong_rank needs arrays of one rank")
        rank = ranks.pop()

        @st.composite
        def a_call(draw):
            case = draw(calls)
            name = draw(names)
            how = draw(hows)
            case[name] = forms[how](case[name])
            return case, message("contract.wrong-rank.call", name=name, shape=str(case[name].shape),
                                 how=form_text(how, name), rank=rank)

        return a_call()

    # -- Sizes of 0 ----------------------------------------------------------------------------

    def rejects_a_zero_size(self, case, labels: dict[str, str], because=message("contract.zero-size")):
        """For each named size in ``labels`` (``{size: label}``), a drawn valid case with that
        size set to 0 in every array that has it (zeros; every other size kept): ValueError.
        ``because`` fields: ``label``, ``shapes`` (of the bad call)."""

        def body(kata, case):
            sizes = self.sizes_of(case)
            for dim, label in labels.items():
                bad = dict(case, **{
                    name: np.zeros(tuple(0 if d == dim else sizes[d] for d in dims))
                    for name, dims in self.arrays.items() if dim in dims
                })
                expect_value_error(lambda: kata(**bad), say(because, label=label, shapes=self.shapes_of(bad)))

        return rejects([case], body)

    def rejects_a_zero_size_of(self, dims, order: tuple[str, ...], zeros: tuple[str, ...],
                               because=message("contract.zero-size"),
                               extra: dict | None = None):
        """Sizes drawn from ``dims`` (named by ``order``) and a seed; for each size in ``zeros``,
        arrays of those sizes with that one set to 0, drawn from the seed in declaration order
        (plus ``extra`` arguments): ValueError. ``because`` fields: ``label`` ("n = 0"),
        ``shapes``."""

        def body(kata, dims, seed):
            for dim in zeros:
                sizes = dict(zip(order, dims), **{dim: 0})
                rng = S.rng_for(seed)
                bad = {name: S.normal(rng, tuple(sizes[d] for d in axes)) for name, axes in self.arrays.items()}
                bad.update(extra or {})
                expect_value_error(lambda: kata(**bad), say(because, label=f"{dim} = 0", shapes=self.shapes_of(bad)))

        return rejects([dims, S.SEEDS], body)

    # -- Sizes that must agree -----------------------------------------------------------------

    def rejects_a_size_that_disagrees(self, draw_case, dim: str, arrays: tuple[str, ...], choices,
                                      because, scale: float = 3.0):
        """A valid case (``draw_case(draw)`` gives it and its generator), one other size for
        ``dim`` drawn from ``choices(case)`` by the generator, and each of ``arrays`` in turn
        replaced by an array (N(0, 1) x ``scale``) whose ``dim`` axis has that size: ValueError.
        ``because`` fields: the bad call's arguments, ``name`` (the replaced array), ``size``."""
        axes = {name: self.arrays[name].index(dim) for name in arrays}

        @st.composite
        def with_a_size_that_disagrees(draw):
            case, rng = draw_case(draw)
            current = case[arrays[0]].shape[axes[arrays[0]]]
            size = int(rng.choice([s for s in choices(case) if s != current]))
            replacements = {}
            for name in arrays:
                shape = list(case[name].shape)
                shape[axes[name]] = size
                replacements[name] = S.normal(rng, tuple(shape), scale)
            return dict(case, replacements=replacements)

        def body(kata, case):
            valid = S.without(case, "replacements")
            for name, a in case["replacements"].items():
                bad = dict(valid, **{name: a})
                expect_value_error(lambda: kata(**bad), say(because, **bad, name=name, size=a.shape[axes[name]]))

        return rejects([with_a_size_that_disagrees()], body)

    # -- NaN and inf ---------------------------------------------------------------------------

    def rejects_non_finite(self, case, because=message("contract.non-finite"), retarget=None, examples=()):
        """A drawn valid case, a drawn NaN, inf or -inf and a seed: each array in turn with that
        value at an index drawn from the seed (``retarget(case, name, index, rng)`` may move it,
        drawing from the same generator): ValueError. ``because`` fields: ``name``, ``index``,
        ``value``."""

        def body(kata, case, value, seed):
            rng = S.rng_for(seed)
            for name in self.arrays:
                a = case[name].copy()
                index = tuple(int(rng.integers(0, s)) for s in a.shape)
                if retarget is not None:
                    index = retarget(case, name, index, rng)
                a[index] = value
                expect_value_error(lambda: kata(**dict(case, **{name: a})),
                                   say(because, name=name, index=index, value=value))

        return rejects([case, S.non_finite_values(), S.SEEDS], body, examples)

    def a_call_with_a_non_finite_entry(self, calls, index_from_seed: bool):
        """``(call, because)``: a drawn valid call with one entry of one drawn array set to a
        drawn NaN, inf or -inf. The index is drawn by Hypothesis (it shrinks) or, with
        ``index_from_seed``, from a drawn seed."""
        names, values = st.sampled_from(list(self.arrays)), S.non_finite_values()

        @st.composite
        def a_call(draw):
            case = draw(calls)
            name = draw(names)
            bad = draw(values)
            if index_from_seed:
                rng = S.rng_for(draw(S.SEEDS))
                index = tuple(int(rng.integers(0, side)) for side in case[name].shape)
            else:
                index = tuple(draw(_integers(0, side - 1)) for side in case[name].shape)
            case[name][index] = bad
            return case, message("contract.non-finite", name=name, index=str(index), value=str(bad))

        return a_call()

    # -- Scores that overflow ------------------------------------------------------------------

    def rejects_an_overflowing_score(self, draw_case, because, keys_seen=None):
        """For katas whose scores are q kᵀ / sqrt(d_k): a valid case (``draw_case(draw)`` gives it
        and its generator), a query i and a key j < ``keys_seen(case, i)`` (default: all m)
        drawn from the generator, and q[i], k[j] an ``S.overflowing_pair`` (plain or mixed), so
        that allowed score is past 1e396 (+inf) while every input stays finite; a mask, if any,
        allows (i, j). ValueError. (A score whose exact value overflows to -inf is not drawn: the
        contracts leave it open.)
        ``because`` fields: the case's arguments, ``i``, ``j``, ``case``."""
        if "q" not in self.arrays or "k" not in self.arrays:
            raise TypeError("rejects_an_overflowing_score needs arrays q and k")

        @st.composite
        def with_an_allowed_score_overflowing(draw):
            case, rng = draw_case(draw)
            n, m = case["q"].shape[0], case["k"].shape[0]
            i = int(rng.integers(0, n))
            j = int(rng.integers(0, m if keys_seen is None else keys_seen(case, i)))
            case["q"][i], case["k"][j] = S.overflowing_pair(rng, case["q"].shape[1], draw(st.booleans()))
            if case.get("mask") is not None:
                case["mask"][i, j] = True
            return case, i, j

        def body(kata, bad):
            case, i, j = bad
            why = say(because, **case, i=i, j=j, case=case)
            expect_value_error(lambda: kata(**case), S.mixed_overflow(why, case["q"][i], case["k"][j]))

        return rejects([with_an_allowed_score_overflowing()], body)
