"""The judge for katas/relu.py: relu(x).

Shapes: x of 1 to 3 dimensions, each side drawn up to past 64. Left open: nothing.
"""

import numpy as np
from hypothesis import strategies as st

from dojo.text.messages import message
from tests import oracle
from tests import strategies as S
from tests.judge import check_array, check_close, check_leaves_inputs_alone, expect_value_error, prop


def PROBE():
    return {"x": np.array([-1.0, 0.0, 2.0])}


@oracle.memoised
def torch_relu(x):
    """torch.relu, float64."""
    return (oracle.torch().relu(oracle.tensor(x)).numpy(),)


def run(kata, x):
    return check_array(kata(x=x), "relu(x)", np.shape(x))


@S.valid_inputs(calls=lambda x: [{"x": x}])
@st.composite
def inputs(draw):
    ndim = draw(st.integers(1, 3))
    shape = tuple(draw(st.integers(1, 70 if ndim == 1 else 9)) for _ in range(ndim))
    return S.normal(S.rng_for(draw(st.integers(0, 2**32 - 1))), shape, 3.0)


@prop(x=inputs())
def test_matches_torch_relu(kata, x):
    """Matches torch.relu entry by entry"""
    check_close(run(kata, x), torch_relu(x), message("judge.relu.what.relu"))


@prop(x=inputs())
def test_does_not_modify_its_input(kata, x):
    """x is left exactly as it was"""
    check_leaves_inputs_alone(lambda: run(kata, x), {"x": x}, "relu")


@prop(x=inputs(), bad=S.non_finite_values(), seed=S.SEEDS)
def test_rejects_nan_or_inf(kata, x, bad, seed):
    """NaN or inf anywhere in x raises ValueError"""
    x = x.copy()
    x.flat[int(np.random.default_rng(seed).integers(x.size))] = bad
    expect_value_error(lambda: kata(x=x), message("judge.relu.because.non-finite"))


@prop(value=st.floats(-10, 10))
def test_rejects_a_scalar(kata, value):
    """A 0-d input raises ValueError"""
    expect_value_error(lambda: kata(x=np.float64(value)), message("judge.relu.because.scalar"))
