"""The judge's Hypothesis profiles, and the budgets a candidate's calls and a failure's
shrinking get."""

from __future__ import annotations

from hypothesis import HealthCheck, Phase, settings

# -- Hypothesis profiles -------------------------------------------------------------------
# dojo      the practice loop: 20 fresh examples per property each run, from the run's seed
#           (tests/seeding.py); the last run's failure is tried first.
# dojo-ci   built on Hypothesis's own ``ci`` profile (loaded whenever CI is set): derandomised,
#           more examples.
# thorough  random and long: run it before you call a kata done (``--hypothesis-profile``).
_COMMON = dict(
    deadline=None,
    # Registered while Hypothesis's ``ci`` profile may be the default (CI set): say it, or the
    # practice and thorough profiles (and the self-check on its fixed seeds) inherit its
    # derandomisation and run one fixed set of examples whatever the seed.
    derandomize=False,
    report_multiple_bugs=False,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "dojo", max_examples=20, phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink], **_COMMON,
)
settings.register_profile(
    "dojo-ci", parent=settings.get_profile("ci"), max_examples=60, **dict(_COMMON, derandomize=True),
)
settings.register_profile("thorough", max_examples=400, **_COMMON)
#: The self-check runs every property against many implementations, with as many examples as
#: a candidate's practice run gets, on fixed seeds (tests/meta/selfcheck.py), so "the judge
#: catches this bug" is a statement about practice runs that repeats. It only needs a
#: verdict: no shrinking, no database.
SELF_CHECK = settings(
    parent=settings.get_profile("dojo"),
    phases=[Phase.explicit, Phase.generate],
    database=None,
)



#: practice): each stub's docstring states it under Speed.
CPU_PER_EXAMPLE = 1.0

#: How many examples Hypothesis may try while it shrinks one failure before the smallest
#: failing input so far is shown. A readable input matters more than the minimal one, and a
#: wrong answer should be judged about as fast as a right one. A count, not a time: a run's
#: seed then draws and shrinks the same inputs on a busy machine as on a quiet one (softmax's
#: six longest of 30 shrinks took 127-166 examples, 0.4-0.8 s on a quiet machine).
SHRINK_EXAMPLES = 200

#: A backstop for katas whose shrink steps are slow; only a very busy machine reaches it.
SHRINK_SECONDS = 10.0
