"""Every correct file passes the thorough profile, on one fixed seed.

The self-check (test_judge_catches_bugs.py) runs the right files with the practice profile:
20 examples per property, on the run seeds 1 and 2. A user who runs ``--hypothesis-profile thorough``
gets 400 random examples per property instead, and a judge draw that is invalid once in a few
hundred examples (the flash ±1e4 draw made q NaN when u rounded to 0) then blames their
correct answer. This runs every property of every kata against every right file
(tests/katas/<kata>/right/*.py) and the reference solution (solutions/<kata>.py) with 120 of
the thorough profile's 400 examples (a right file 30), random draws, no example
database, on a fixed seed (4, none of the self-check's), so that a failure repeats. It
catches what tests/meta/test_strategies.py cannot: an invalid input that a property builds inside its body, and a property that is wrong about correct
code on a rare input (a tolerance too tight, a check that reads too much into a draw).

Contributors' suite only (``pytest --impl solutions --contributors``), about ten minutes on
one core: spread it with pytest-xdist, ``-n 2``. (It ran three seeds until every practice run
drew fresh examples of every size; those runs and the self-check's seeds now do what
the other two did.)
"""

from __future__ import annotations

import pytest
from hypothesis import Phase, settings

from dojo.catalogue import registry
from tests.meta.selfcheck import described, implementations, judge

pytestmark = [pytest.mark.contributors, pytest.mark.filterwarnings("ignore::RuntimeWarning")]

#: 120 of the thorough profile's 400 examples (CI's budget: 150 until stop 52; 200 kept .ci/run at 30 minutes to
#: within a few seconds, stop 50), random and without an example database: a failure found
#: here must repeat from its seed, not from a replayed database entry. Every practice run draws
#: fresh examples too, and so do the self-check's seeds; test_strategies.py draws every
#: strategy 250 times on seed 1.
THOROUGH = settings(
    parent=settings.get_profile("thorough"),
    max_examples=120,
    database=None,
    derandomize=False,
    phases=[Phase.explicit, Phase.generate, Phase.shrink],
)
SEEDS = (4,)
#: A right file's examples: fewer than the reference's. A judge draw that is invalid once in
#: a few hundred examples shows on the reference (and on seed 1 of test_strategies.py, 250
#: draws of every strategy); what a right file adds is its own way of computing, and 30 random
#: examples of every property (one and a half practice runs; the self-check adds two more runs of fresh
#: examples on its seeds) test that. 100 cost CI three more minutes of its 30.
RIGHT_FILE = settings(parent=THOROUGH, max_examples=30)

CORRECT = [(k.module, k.solution_path) for k in registry.KATAS] + implementations("right")
#: Kata by kata: the files of one kata draw the same examples.
CASES = [(kata, path, s) for k in registry.KATAS for s in SEEDS for kata, path in CORRECT if kata == k.module]


def _id(case) -> str:
    kata, path, s = case
    return f"{kata}/{'solution' if path.parent.name == 'solutions' else path.stem}-seed{s}"


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_every_correct_file_passes_the_thorough_profile(case):
    """A correct file passes every property on 120 random examples (the reference; a right file
    30), seed fixed: a failure is a
    judge that blames correct code, or a right file that is not right. Find out which."""
    kata, path, s = case
    profile = THOROUGH if path.parent.name == "solutions" else RIGHT_FILE
    outcomes = judge(kata, path, stop_at_first_failure=False, profile=profile, seed=s)
    failed = [f"{o.property}: {type(o.error).__name__}: {o.error}" for o in outcomes if o.error]
    assert not failed, (
        f"the thorough profile (seed {s}) rejected a correct {kata} ({path.name}: "
        f"{described(path) if path.parent.name != 'solutions' else 'the reference'}):\n"
        + "\n".join(failed)
    )
