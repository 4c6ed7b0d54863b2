"""The head counts the judges draw: a "multi-head" case keeps two heads or more however far over
its budget of work the other sizes are (halving 3 heads gave 1, and the head-reordering
property of latent and multi-head attention then failed with an IndexError on the reference),
and grouped-query attention never draws more heads than MAX_HEADS."""

import pytest
from hypothesis import HealthCheck, given, settings

import tests.test_grouped_query_attention as gqa
import tests.test_latent_attention as latent
import tests.test_multihead_attention as mha

pytestmark = pytest.mark.contributors

MANY = settings(max_examples=300, deadline=None, database=None, suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize("judge", [latent, mha], ids=["latent_attention", "multihead_attention"])
def test_a_multi_head_case_keeps_two_heads_when_every_case_is_over_budget(judge, monkeypatch):
    monkeypatch.setattr(judge, "BUDGET", 0)  # every draw over budget: the heads are halved to the fewest

    @MANY
    @given(sizes=judge.MULTI_HEAD_SIZES)
    def check(sizes):
        assert sizes["h"] >= 2, sizes

    check()


def test_grouped_query_attention_draws_at_most_max_heads():
    @MANY
    @given(sizes=gqa.ANY_SIZES)
    def check(sizes):
        assert sizes["h"] <= gqa.MAX_HEADS, sizes

    check()
