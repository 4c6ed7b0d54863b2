"""The judge checks itself: wrong implementations are caught, right ones all pass, and the
diagnosis names each wrong one as itself (or a declared twin) and never names a right one."""

import pytest

from dojo.catalogue import registry
from dojo.judge.diagnosis import catalogue, diagnose
from dojo.worker.loader import KataTimeout, load_kata
from tests.meta.selfcheck import RIGHT_SEEDS, SEEDS, described, implementations, judge

# Wrong implementations overflow and divide by zero on purpose: their warnings are expected.
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

WRONG = implementations("wrong")
RIGHT = implementations("right")

#: The README's test line judges every SAMPLE-th right file and wrong file of each kata (in name
#: order, the first included); the contributors' suite judges the others.
SAMPLE = 4


def _id(case):
    kata, path = case
    return f"{kata}/{path.stem}"


def _sampled(cases):
    """Each case as a pytest.param: in the README's test line if it is its kata's SAMPLE-th
    (counting from the first), in the contributors' suite otherwise."""
    seen: dict[str, int] = {}
    params = []
    for kata, path in cases:
        index = seen[kata] = seen.get(kata, -1) + 1
        marks = () if index % SAMPLE == 0 else (pytest.mark.contributors,)
        params.append(pytest.param((kata, path), id=_id((kata, path)), marks=marks))
    return params


@pytest.mark.parametrize("case", _sampled(WRONG))
def test_every_realistic_bug_is_caught(case):
    """Caught on every one of the self-check's run seeds, and diagnosed as itself from the
    calls of the first seed's failure."""
    kata, path = case
    outcomes = judge(kata, path, stop_at_first_failure=True, seed=SEEDS[0])
    caught = [o for o in outcomes if o.error is not None]
    # on the other seeds the property that caught it runs first: each property's examples depend
    # on the seed and the property alone, so the order changes what the check costs, not what it finds
    first = caught[0].property if caught else None
    missed = [] if caught else [SEEDS[0]]
    missed += [s for s in SEEDS[1:] if not any(
        o.error is not None for o in judge(kata, path, stop_at_first_failure=True, seed=s, first=first))]
    assert not missed, (f"the judge passed a wrong {kata} on run seed(s) {missed} of {list(SEEDS)}: "
                        f"{described(path)} ({path.name})")
    if isinstance(caught[0].error, KataTimeout):
        return  # a hang is reported as a hang, never diagnosed
    function = registry.get(kata).function
    # generous limits: a busy machine must not turn a slow call into a missing diagnosis
    found = diagnose(kata, function, load_kata(path, function), caught[0].calls, budget=60, call=1)
    known = {k.stem: k for k in catalogue(kata)}
    entry = known[path.stem]
    if entry.first_draft_of:  # a first draft without checks: its value bug named, its checks said apart
        named = known[entry.first_draft_of]
        twins = {named.stem, *named.behaves_like}
        assert found is not None and named.stem in found.stems and set(found.stems) <= twins, (
            f"{kata}/{path.name}, a first draft of {named.stem}, is not diagnosed as {named.stem} (got {found})"
        )
        assert sorted(found.unchecked) == sorted(entry.unchecked), (
            f"{kata}/{path.name}: the diagnosis says it does not raise ValueError for {sorted(found.unchecked)}, "
            f"the file's UNCHECKED says {sorted(entry.unchecked)}"
        )
        return
    if not entry.shows_in_values:  # caught another way (e.g. memory): values cannot name it
        assert found is None, f"{kata}/{path.name} is diagnosed although values cannot show its bug: {found}"
        return
    twins = {path.stem, *entry.behaves_like}
    assert found is not None and path.stem in found.stems, (
        f"{kata}/{path.name} is not diagnosed as itself (got {found}): the compare battery "
        f"(dojo/catalogue/katas/{kata}/battery.py) should have an input on which it behaves differently"
    )
    assert set(found.stems) <= twins, (
        f"{kata}/{path.name} behaves like {sorted(set(found.stems) - twins)} on every input tried: "
        f"add a battery case that tells them apart, or declare BEHAVES_LIKE in both files"
    )
    assert sorted(found.unchecked) == sorted(entry.unchecked), (
        f"{kata}/{path.name}: the diagnosis says it does not raise ValueError for {sorted(found.unchecked)}, "
        f"the file's UNCHECKED says {sorted(entry.unchecked)}"
    )
    # Named on its valid inputs alone (as a first draft would be), no other file may be taken for
    # it: files that differ only in their checks must differ on valid inputs too, or be twins.
    assert set(found.alike_on_valid) <= twins, (
        f"{kata}/{path.name} behaves like {sorted(set(found.alike_on_valid) - twins)} on every valid input "
        f"tried: add a battery case that tells them apart, or declare BEHAVES_LIKE in both files"
    )


def _right_on_each_seed(cases):
    """Each right file on each of its run seeds (RIGHT_SEEDS), one test apiece: the README's line
    judges its sampled files on the first seed, the contributors' suite every other pair (so CI
    tries every right file on every one of them, and a user's check of an install costs less)."""
    params = []
    for param in _sampled(cases):
        for seed in RIGHT_SEEDS:
            marks = param.marks if seed == SEEDS[0] else (pytest.mark.contributors,)
            params.append(pytest.param((*param.values[0], seed), id=f"{param.id}@seed{seed}", marks=marks))
    return params


@pytest.mark.parametrize("case", _right_on_each_seed(RIGHT))
def test_every_correct_variant_passes(case):
    """Accepted on each of a right file's run seeds (one test per seed), and never diagnosed
    as a known bug."""
    kata, path, seed = case
    failed = [f"run seed {seed}: {o.property}: {type(o.error).__name__}: {o.error}"
              for o in judge(kata, path, stop_at_first_failure=False, seed=seed) if o.error]
    assert not failed, f"the judge rejected a correct {kata} ({described(path)}):\n" + "\n".join(failed)
    if seed != SEEDS[0]:
        return  # the diagnosis looks at no seed's draws: once per file is enough
    function = registry.get(kata).function
    found = diagnose(kata, function, load_kata(path, function), [], budget=60, call=1)
    assert found is None, f"a correct {kata} ({path.name}) is diagnosed as a known bug: {found}"


@pytest.mark.parametrize("kata", [k.module for k in registry.KATAS])
def test_declared_twins_name_each_other(kata):
    known = {k.stem: k for k in catalogue(kata)}
    for stem, entry in known.items():
        for other in entry.behaves_like:
            assert other in known, f"{kata}/{stem}.py: BEHAVES_LIKE names {other!r}, which does not exist"
            assert stem in known[other].behaves_like, f"{kata}/{other}.py should declare BEHAVES_LIKE {stem!r} too"


def test_there_are_enough_bugs_and_variants_per_kata():
    from dojo.catalogue import registry

    for kata in registry.KATAS:
        wrong = [p for k, p in WRONG if k == kata.module]
        right = [p for k, p in RIGHT if k == kata.module]
        assert len(wrong) >= 8, f"{kata.module}: only {len(wrong)} wrong implementations"
        assert len(right) >= 3, f"{kata.module}: only {len(right)} correct variants"
