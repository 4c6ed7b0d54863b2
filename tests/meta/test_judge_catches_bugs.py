"""The judge checks itself: wrong implementations are caught, right ones all pass."""

import pytest

from tests.meta.selfcheck import described, implementations, judge

# Wrong implementations overflow and divide by zero on purpose: their warnings are expected.
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

WRONG = implementations("wrong")
RIGHT = implementations("right")


def _id(case):
    kata, path = case
    return f"{kata}/{path.stem}"


@pytest.mark.parametrize("case", WRONG, ids=[_id(c) for c in WRONG])
def test_every_realistic_bug_is_caught(case):
    kata, path = case
    outcomes = judge(kata, path, stop_at_first_failure=True)
    caught = [o for o in outcomes if o.error is not None]
    assert caught, f"the judge passed a wrong {kata}: {described(path)} ({path.name})"


@pytest.mark.parametrize("case", RIGHT, ids=[_id(c) for c in RIGHT])
def test_every_correct_variant_passes(case):
    kata, path = case
    outcomes = judge(kata, path, stop_at_first_failure=False)
    failed = [f"{o.property}: {type(o.error).__name__}: {o.error}" for o in outcomes if o.error]
    assert not failed, f"the judge rejected a correct {kata} ({described(path)}):\n" + "\n".join(failed)


def test_there_are_enough_bugs_and_variants_per_kata():
    from dojo import registry

    for kata in registry.KATAS:
        wrong = [p for k, p in WRONG if k == kata.module]
        right = [p for k, p in RIGHT if k == kata.module]
        assert len(wrong) >= 8, f"{kata.module}: only {len(wrong)} wrong implementations"
        assert len(right) >= 3, f"{kata.module}: only {len(right)} correct variants"
