"""The error properties built by tests/contract.py are properties like any other: pytest
collects them under the declared name, the verdict shows the declared title, Hypothesis draws
their examples from the declared source, and a declaration cannot hide a body of its own."""

import inspect

import numpy as np
import pytest
from hypothesis import strategies as st

from tests import contract
from tests.meta.test_strategies import KATAS, kata_tests, properties_of


def _built(module):
    """The properties of a kata's test module that a contract builder made."""
    return [(name, obj) for name, obj in vars(module).items()
            if name.startswith("test_") and hasattr(obj, "_dojo_property")
            and getattr(obj._dojo_property[0], "__wrapped__", None) is not None]


@pytest.mark.parametrize("kata", KATAS)
def test_a_built_property_keeps_its_declared_name_title_module_and_source(kata):
    module = kata_tests(kata)
    for name, obj in _built(module):
        test, strategies = obj._dojo_property
        stub = test.__wrapped__
        assert (test.__name__, test.__qualname__, test.__module__) == (name, name, module.__name__)
        # what pytest collects: Hypothesis's wrapper names itself as for a property written out
        assert (obj.__name__, obj.__module__) == (name, module.__name__)
        assert obj.__qualname__.rsplit(".", 1)[-1] == name
        for f in (obj, test):
            assert f.__doc__ == stub.__doc__ and f.__doc__.strip()
        # Hypothesis derives a derandomised property's examples from this source
        assert inspect.getsource(test) == inspect.getsource(stub)
        # and the place pytest reports it at (it follows __wrapped__ too)
        assert inspect.getsourcefile(inspect.unwrap(test)) == module.__file__
        assert list(inspect.signature(test).parameters) == ["kata", *strategies]


def test_the_katas_declare_their_error_properties():
    """The katas that share the contract's rules build them: a kata that writes one out again
    shows here (and in `duplicates`)."""
    built = {kata: [name for name, _ in _built(kata_tests(kata))] for kata in KATAS}
    for kata in ("masked_attention", "kv_cache_attention", "flash_attention", "causal_self_attention",
                 "multihead_attention", "grouped_query_attention", "attention_backward"):
        assert built[kata], f"{kata} builds no error property from tests/contract.py"
    every = {name for name, _ in properties_of(kata_tests("masked_attention"))}
    assert set(built["masked_attention"]) <= every


def test_a_declaration_is_a_docstring_and_nothing_else():
    declared = contract.Contract(contract.QKV)
    strategy = st.just({"q": np.zeros((1, 1)), "k": np.zeros((1, 1)), "v": np.zeros((1, 1))})

    def test_rejects_with_a_body(kata, case):
        """A title"""
        assert case  # a body the builder would silently replace

    def test_without_the_prefix_rejects(kata, case):
        """A title"""

    def test_rejects_without_a_title(kata, case):
        pass

    def test_rejects_the_wrong_parameters(kata, case, extra):
        """A title"""

    for stub, words in ((test_rejects_with_a_body, "docstring and nothing else"),
                        (test_without_the_prefix_rejects, "only test_rejects_"),
                        (test_rejects_without_a_title, "docstring and nothing else"),
                        (test_rejects_the_wrong_parameters, "1 drawn value")):
        with pytest.raises(TypeError, match=words):
            declared.rejects_a_wrong_rank(strategy, forms=contract.not_2d_forms())(stub)


def test_a_built_property_expects_the_valueerror_its_rule_names():
    """The rank property built for q, k, v fails an answer that accepts a 1-D q, and its message
    is the declared one; an answer that rejects every wrong rank passes."""
    from hypothesis import settings

    from tests.judge import KataMismatch

    declared = contract.Contract(contract.QKV)
    case = {"q": np.ones((2, 3)), "k": np.ones((4, 3)), "v": np.ones((4, 5))}

    @declared.rejects_a_wrong_rank(st.just(case), forms=contract.not_2d_forms())
    def test_rejects_an_input_that_is_not_2d(kata, case):
        """q, k or v that is not 2-D raises ValueError"""

    def strict(q, k, v):
        if any(np.ndim(a) != 2 for a in (q, k, v)):
            raise ValueError("not 2-D")
        return q

    def lax(q, k, v):
        if np.ndim(q) == 1:
            return q
        return strict(q, k, v)

    run = settings(max_examples=1, database=None)(test_rejects_an_input_that_is_not_2d)
    run(kata=strict)
    with pytest.raises(KataMismatch, match=r"q was passed as q\[0\], 1-D of shape \(3,\) \(with the q shown "
                                           r"below\): q, k and v must each be 2-D"):
        run(kata=lax)
