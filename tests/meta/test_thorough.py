"""Every correct file passes the thorough profile, on three fixed seeds.

The README's self-check (test_judge_catches_bugs.py) runs the right files with the practice
profile: 20 fixed examples per property. A user who runs ``--hypothesis-profile thorough``
gets 400 random examples per property instead, and a judge draw that is invalid once in a few
hundred examples (the flash ±1e4 draw made q NaN when u rounded to 0) then blames their
correct answer. This runs every property of every kata against every right file
(tests/meta/right/<kata>/*.py) and the reference solution (solutions/<kata>.py) with the
thorough profile's example count, random draws, no example database, on three fixed seeds,
so that a failure repeats. It catches what tests/meta/test_strategies.py cannot: an invalid
input that a property builds inside its body, and a property that is wrong about correct
code on a rare input (a tolerance too tight, a check that reads too much into a draw).

Contributors' suite only (``pytest --impl solutions --contributors``), about half an hour on
one core: spread it with pytest-xdist, ``-n 2``.
"""

from __future__ import annotations

import pytest
from hypothesis import Phase, settings

from dojo import registry
from tests.meta.selfcheck import described, implementations, judge

pytestmark = [pytest.mark.contributors, pytest.mark.filterwarnings("ignore::RuntimeWarning")]

#: The thorough profile's examples (conftest.py), random and without an example database: a
#: failure found here must repeat from its seed, not from a replayed database entry.
THOROUGH = settings(
    parent=settings.get_profile("thorough"),
    database=None,
    derandomize=False,
    phases=[Phase.explicit, Phase.generate, Phase.shrink],
)
SEEDS = (1, 2, 3)

CORRECT = [(k.module, k.solution_path) for k in registry.KATAS] + implementations("right")
#: Kata by kata, seed by seed: the files of one kata and seed draw the same examples, so the
#: oracle's memo answers all but the first.
CASES = [(kata, path, s) for k in registry.KATAS for s in SEEDS for kata, path in CORRECT if kata == k.module]


def _id(case) -> str:
    kata, path, s = case
    return f"{kata}/{'solution' if path.parent.name == 'solutions' else path.stem}-seed{s}"


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_every_correct_file_passes_the_thorough_profile(case):
    """A correct file passes every property on 400 random examples (seed fixed): a failure is a
    judge that blames correct code, or a right file that is not right. Find out which."""
    kata, path, s = case
    outcomes = judge(kata, path, stop_at_first_failure=False, profile=THOROUGH, seed=s)
    failed = [f"{o.property}: {type(o.error).__name__}: {o.error}" for o in outcomes if o.error]
    assert not failed, (
        f"the thorough profile (seed {s}) rejected a correct {kata} ({path.name}: "
        f"{described(path) if path.parent.name != 'solutions' else 'the reference'}):\n"
        + "\n".join(failed)
    )
