"""How close to the oracle an answer must be, and how close the shipped answers must stay to it.

The judge (``tests/judge.py``, ``check_close``) accepts ``got`` for ``want`` when, entry by
entry, ``|got - want| <= atol * max(1, max |want|) + rtol * |want|``, by default with
``RTOL = 1e-9`` and ``ATOL = 1e-12``. Correct answers written differently (einsum, loops,
logsumexp) agree with torch to about 1e-13 relative; realistic bugs are off by far more.

**Why the shipped answers may differ from live torch by a tenth of the judge's allowance.**
``tests/answers/`` holds torch's answers from one machine. Another torch build or another CPU
(its vector units decide the order of the additions) gives answers that differ in the last bits:
1e-11 relative has been seen. What must hold is that the judge gives the same verdict with the
shipped answer as with live torch. A candidate at distance ``e`` from live torch is at most
``e + d`` from the shipped answer, where ``d`` is the shipped answer's own difference. With
``d`` at most a tenth of the allowance, the two verdicts can only disagree for a candidate
whose error lies within 10% of the boundary itself: correct answers sit about 10,000 times
closer than the boundary (1e-13 against 1e-9), and a realistic bug sits far outside it. A
stricter bound (1e-12 relative, a thousandth of the allowance) fails on ordinary machines
for no verdict's sake; a looser one (the whole allowance) could let a shipped answer accept a
candidate that live torch rejects.

An answer file serves several properties, and a property may compare tighter than the
defaults. So the bound is a tenth of the *tightest* tolerance any comparison applied to that
file's answers: ``check_close`` reports each comparison against a shipped answer while the
answers are being verified (``note``), and ``tests/meta/test_answers.py`` checks against that.
"""

from __future__ import annotations

import numpy as np

RTOL = 1e-9
ATOL = 1e-12
#: The fraction of the judge's tightest allowance that shipped answers may use up.
SHIPPED_FRACTION = 0.1


class Answer(np.ndarray):
    """An oracle answer tagged with its oracle's file, while the shipped answers are verified:
    the comparisons it takes part in report their tolerances. Indexing and slicing keep the tag."""

    oracle_file: str | None = None

    def __array_finalize__(self, obj):
        self.oracle_file = getattr(obj, "oracle_file", None)


#: The tightest (rtol, atol) that a comparison applied to each oracle file's answers.
tightest: dict[str, tuple[float, float]] = {}


def tag(a: np.ndarray, oracle_file: str) -> Answer:
    tagged = np.asarray(a).view(Answer)
    tagged.oracle_file = oracle_file
    return tagged


def note(want, rtol: float, atol: float) -> None:
    """A comparison against ``want`` with these tolerances (``atol`` before the scaling by
    ``max(1, max |want|)``); remembered when ``want`` is a tagged answer."""
    name = getattr(want, "oracle_file", None)
    if name is not None:
        r, a = tightest.get(name, (RTOL, ATOL))
        tightest[name] = (min(r, rtol), min(a, atol))


def used_fraction(shipped: np.ndarray, live: np.ndarray, rtol: float, atol: float) -> float:
    """The largest share of the judge's allowance (at these tolerances) that the difference
    between ``shipped`` and ``live`` uses: 1.0 would be on the judge's boundary."""
    shipped = np.asarray(shipped, dtype=np.float64)
    live = np.asarray(live, dtype=np.float64)
    if shipped.shape != live.shape:
        return float("inf")
    same = (shipped == live) | (np.isnan(shipped) & np.isnan(live))
    if same.all():
        return 0.0
    finite = np.isfinite(live)
    if not (np.isfinite(shipped) == finite).all() or not same[~finite].all():
        return float("inf")  # an inf or NaN where the other has something else
    scale = float(np.max(np.abs(live[finite]), initial=1.0))
    allowance = atol * max(1.0, scale) + rtol * np.abs(live[finite & ~same])
    return float(np.max(np.abs(shipped[finite & ~same] - live[finite & ~same]) / allowance))
