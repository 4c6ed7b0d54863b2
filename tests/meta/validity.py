"""What every kata's written-out contract check (``tests/katas/<kata>/valid.py``) shares:
a drawn call breaks the contract by raising ``Broken`` (``need``), and the pieces of the
attention contracts (finite arrays of a shape, bool masks, scores that do not overflow).
tests/meta/test_strategies.py draws every strategy of valid inputs and checks each call with
the kata's ``check``."""

from __future__ import annotations

import numbers

import numpy as np


class Broken(AssertionError):
    """A drawn call breaks the contract."""


def need(condition, message: str) -> None:
    if not condition:
        raise Broken(message)


def a_positive_int(value, what: str) -> int:
    need(isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)) and value >= 1,
         f"{what} = {value!r} is not a positive int")
    return int(value)


def a_bool(value, what: str) -> bool:
    need(isinstance(value, (bool, np.bool_)), f"{what} = {value!r} is not a bool")
    return bool(value)


def finite_array(call: dict, name: str, ndim: int) -> np.ndarray:
    """``call[name]`` as float64: ``ndim``-D, no zero dimension, no NaN or inf."""
    a = np.asarray(call[name], dtype=np.float64)
    need(a.ndim == ndim and 0 not in a.shape,
         f"{name} has shape {a.shape}: it should be {ndim}-D, every dimension >= 1")
    need(np.isfinite(a).all(), f"{name} contains NaN or inf")
    return a


def shaped(a: np.ndarray, name: str, shape: tuple) -> None:
    need(a.shape == tuple(shape), f"{name} has shape {a.shape}, the contract says {tuple(shape)}")


def finite_scores(scores: np.ndarray, what: str = "q kᵀ / sqrt(d_k)") -> None:
    """No score overflows: an allowed one must raise ValueError, a blocked one is left open."""
    need(np.isfinite(scores).all(),
         f"a score of {what} is not finite (an allowed one makes the input invalid; a blocked one "
         f"is left open by the contract, so a correct answer may reject it too)")


def bool_mask(mask, shape: tuple, what: str) -> np.ndarray:
    mask = np.asarray(mask)
    need(mask.dtype == np.bool_, f"{what} has dtype {mask.dtype}, not bool")
    shaped(mask, what, shape)
    return mask


def scores(q, k):
    with np.errstate(over="ignore", invalid="ignore"):
        return q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])


def q_k_v(call, causal_cache=False):
    q, k, v = (finite_array(call, name, 2) for name in ("q", "k", "v"))
    (n, d_k), (m, d_v) = q.shape, v.shape
    shaped(k, "k", (m, d_k))
    if causal_cache:
        need(m >= n, f"m = {m} keys < n = {n} queries")
    finite_scores(scores(q, k))
    return q, k, v


def heads(x, w, heads: int) -> np.ndarray:
    """(heads, n, width / heads): the contiguous column blocks of x w."""
    with np.errstate(over="ignore", invalid="ignore"):
        p = x @ w
    need(np.isfinite(p).all(), "a projection x w is not finite")
    return p.reshape(x.shape[0], heads, -1).transpose(1, 0, 2)

