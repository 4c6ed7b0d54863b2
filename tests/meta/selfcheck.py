"""Run a kata's properties, in-process, against any implementation file.

The judge checks itself with this: every wrong implementation in tests/katas/<kata>/wrong/ must
break at least one property, every right one in tests/katas/<kata>/right/ must pass them all.
"""

from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass
from pathlib import Path

import hypothesis
import hypothesis.errors
from hypothesis import given, settings

from tests.plugin.profiles import SELF_CHECK
from dojo.catalogue import registry
from dojo.worker.loader import KataTimeout, load_kata
from tests.judge import Guarded

META = Path(__file__).resolve().parent

#: Exceptions that mean the judge itself misbehaved, not the implementation.
JUDGE_FAULTS = (
    hypothesis.errors.FailedHealthCheck,
    hypothesis.errors.Unsatisfiable,
    hypothesis.errors.InvalidArgument,
    hypothesis.errors.Flaky,
)


def properties(kata: str):
    """The property tests of a kata, in file order, as (name, test, strategies)."""
    module = importlib.import_module(f"tests.test_{kata}")
    found = []
    for name, obj in vars(module).items():
        if name.startswith("test_") and hasattr(obj, "_dojo_property"):
            test, strategies = obj._dojo_property
            found.append((name, test, strategies))
    return found


def implementations(kind: str) -> list[tuple[str, Path]]:
    """(kata, path) for every file in tests/katas/<kata>/<kind>/."""
    return [(k.module, p) for k in registry.KATAS for p in k.implementations(kind)]


def described(path: Path) -> str:
    """The first line of an implementation file's module docstring: what it does differently."""
    import ast

    doc = ast.get_docstring(ast.parse(path.read_text())) or path.stem
    return doc.strip().splitlines()[0]


@dataclass
class Outcome:
    property: str
    error: BaseException | None
    calls: list[dict] | None = None  # the calls of the failing example (for the diagnosis)


#: The run seeds the self-check judges every file on: a wrong file must be caught on each, a
#: right file and the reference accepted on each. Practice runs draw from a fresh seed each
#: time; these stand for them, fixed so that the self-check repeats.
SEEDS = (1, 2, 3)
#: The run seeds a right file is judged on: the first two (the thorough profile judges each
#: again, 30 random examples of every property on seed 4). A third seed of 20 examples cost CI
#: about a minute of its 30 and has never rejected a right file the first two accepted.
RIGHT_SEEDS = SEEDS[:2]


def judge(
    kata: str, path: Path, stop_at_first_failure: bool, timeout: float = 1.0,
    profile: settings = SELF_CHECK, seed: int | None = SEEDS[0], first: str | None = None,
) -> list[Outcome]:
    """Run every property of ``kata`` against the file at ``path``.

    With ``stop_at_first_failure`` (a known-wrong file) a quick sweep of a few examples per
    property comes first, since most bugs show at once; only if nothing fails does the full
    run follow. A right file always gets the full run of every property.

    ``profile``: the settings of the full run (default: the practice profile's examples);
    ``seed``: the run seed (as a practice run's), so a run repeats; ``first``: the property to
    run first (the one that caught the file on another seed: each property's examples depend on
    the seed and the property only, so the order changes what a stop at the first failure costs,
    never what is found).
    """
    spec = registry.get(kata)
    guarded = Guarded(load_kata(path, spec.function), spec.function, timeout)
    sweeps = [QUICK, profile] if stop_at_first_failure else [profile]
    for sweep in sweeps:
        outcomes = _sweep(kata, guarded, sweep, stop_at_first_failure, seed, first)
        if any(o.error is not None for o in outcomes):
            break
    return outcomes


QUICK = settings(SELF_CHECK, max_examples=5)


def _one_example_at_a_time(test):
    """``test`` with the judged function's call log cleared before each example (as the judge
    does), so a failure's calls are those of the failing example only."""

    @functools.wraps(test)  # the same examples as the property itself (see conftest.py)
    def run(kata, **kwargs):
        kata.calls = []
        return test(kata=kata, **kwargs)

    return run


def _sweep(kata, guarded, profile, stop_at_first_failure, seed=None, first=None) -> list[Outcome]:
    outcomes = []
    for name, test, strategies in sorted(properties(kata), key=lambda p: p[0] != first):
        run = profile(given(**strategies)(_one_example_at_a_time(test)))
        if seed is not None and not profile.derandomize:
            run = hypothesis.seed(seed)(run)
        try:
            run(kata=guarded)
            outcomes.append(Outcome(name, None))
        except JUDGE_FAULTS:
            raise
        except (Exception, KataTimeout) as e:
            outcomes.append(Outcome(name, e, list(guarded.calls)))
            if stop_at_first_failure:
                break
    return outcomes
