"""An array argument reaches the candidate's function in the layout the caller gave it (C order,
Fortran order, a strided view), its writes are found whatever the layout, and a failing input
that is not in C order says so (dojo/worker/shared_inputs.py, tests/strategies.py's forms
"float64", tests/plugin/report.py)."""

import numpy as np
import pytest

from dojo.screens.render import call_text
from dojo.text.messages import text
from tests import strategies as S
from tests.tool.test_workers import worker  # noqa: F401  (the fixture: a worker for a function f(x))

pytestmark = pytest.mark.smoke

VALUES = np.arange(12.0).reshape(3, 4)


def layouts():
    """The same values three ways: C order, Fortran order, every other entry of a wider array."""
    return {"c": VALUES.copy(), "fortran": S.laid_out_otherwise(VALUES, "fortran"),
            "view": S.laid_out_otherwise(VALUES, "view")}


def test_the_float64_form_is_laid_out_otherwise_with_the_same_values():
    made = layouts()
    for shape, layout in (((3, 4), "fortran"), ((3, 3), "view"), ((5,), "view"), ((2, 1, 3), "fortran")):
        given, value = S.as_form(np.arange(float(np.prod(shape))).reshape(shape), "float64")
        assert not given.flags.c_contiguous or given.size == 1, shape
        assert given.flags.f_contiguous == (layout == "fortran"), shape
        assert np.array_equal(given, value) and given.dtype == np.float64, shape
    assert made["fortran"].flags.f_contiguous and not made["fortran"].flags.c_contiguous
    assert not (made["view"].flags.c_contiguous or made["view"].flags.f_contiguous)
    assert np.isnan(made["view"].base).sum() == VALUES.size  # NaN between the entries
    for a in made.values():
        assert a.dtype == np.float64 and np.array_equal(a, VALUES)


def test_the_function_gets_the_layout_the_caller_gave(worker):
    w = worker("return (bool(x.flags.c_contiguous), bool(x.flags.f_contiguous), list(x.strides), x.tolist())")
    for name, given in layouts().items():
        reply = w.call({"x": given})
        assert reply.status == "returned", (name, reply)
        c, f, strides, values = reply.value
        assert (c, f, tuple(strides)) == (given.flags.c_contiguous, given.flags.f_contiguous, given.strides), name
        assert values == VALUES.tolist(), name


def test_a_write_into_an_input_is_found_in_every_layout(worker):
    w = worker("x[2, 1] = -1.0\nreturn 0.0")
    for name, given in layouts().items():
        before = given.copy()
        reply = w.call({"x": given})
        assert list(reply.mutated) == ["x"], name
        written = before.copy()
        written[2, 1] = -1.0
        assert np.array_equal(reply.mutated["x"], written), (name, reply.mutated["x"])
        assert np.array_equal(given, before), name  # the caller's array untouched


def test_a_failing_input_that_is_not_in_c_order_says_so():
    from tests.plugin.report import _call_data

    made = layouts()
    shown = {name: call_text("softmax", _call_data({"x": a})) for name, a in made.items()}
    assert "Fortran" not in shown["c"] and "contiguous" not in shown["c"]
    assert text({"id": "input.layout.fortran", "params": {}}) in shown["fortran"]
    assert "not contiguous in memory, strides (64, 16)" in shown["view"]
