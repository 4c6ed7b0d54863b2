"""The largest realistic case of each kata: its compare battery's speed run at the realistic size
(``dojo/catalogue/katas/<kata>/battery.py``, ``Speed.build(Speed.sizes[1])``: hundreds to thousands of tokens;
the smaller size for the few katas in ``SMALLER``),
as the keyword arguments of one call.

Each kata's judge has one property that runs this case against the torch oracle, through the
body of its main "matches torch" property (same oracle, same tolerance, same messages):

    @prop(seed=st.just(0))
    def test_the_largest_realistic_case_matches_torch(kata, seed):
        L.check_with(test_matches_torch_..., kata, L.largest_case("kata"))

The case is fixed (the battery builds it from its own seed), so the property has one example
per run whatever the profile: one call of the candidate at a realistic size, one of the oracle.
It lists itself in its module's ``INPUT_BUILT_INSIDE`` (tests/strategies.py).
"""

from __future__ import annotations


#: Katas whose speed run's smaller size is used instead: at the realistic size a correct answer
#: that loops over rows, heads or pairs (tests/katas/<kata>/right/) needs more than a third of the
#: self-check's 1 s per call (CPU seconds measured at (smaller, realistic) on this 2-core
#: machine: rope's pair_loop 0.24, 1.14 at n = 1024, 4096; batched attention's loops 0.33, 0.54
#: at n = 64, 128; latent attention's absorbed 0.25, 0.38 at n = 128, 256).
SMALLER = frozenset({"rope", "batched_attention", "latent_attention"})


def size(kata: str) -> int:
    """The n of the kata's largest realistic case (its speed run's realistic size, or the smaller
    one for the katas in SMALLER)."""
    from dojo.catalogue.batteries import BATTERIES

    smaller, realistic = BATTERIES[kata].speed.sizes
    return smaller if kata in SMALLER else realistic


def largest_case(kata: str, **defaults) -> dict:
    """The keyword arguments of the battery's speed case at ``size(kata)``, over ``defaults``
    (the arguments a property's case has that the call leaves at their defaults)."""
    from dojo.catalogue.batteries import BATTERIES

    return {**defaults, **BATTERIES[kata].speed.build(size(kata))}


def check_with(main_property, kata, case) -> None:
    """Run the body of ``main_property`` (a ``@prop`` of tests.judge) on ``case``."""
    test, strategies = main_property._dojo_property
    (name,) = strategies  # the main property draws one case
    test(kata, **{name: case})
