"""Why a property failed, when its title does not say it (``dojo.judge.verdict.failure_category``).

A property's title states one claim ("q, k, v and mask are left exactly as they were"), but any
failure of the candidate's code fails it. The interview report shows only titles, ✓ or ✗ (no
failing input, no expected value), so a ✗ next to "left exactly as they were" for code that
raised on a valid input told the candidate something false. Each failure now carries its
category, worked out from the record's data (status, message id and parameters), never from
its text.

Which bug each test catches:
- a category read from the wrong field, or a failure of the property's own claim given one;
- a category derived from English text (the pseudo-language below changes every sentence);
- a judge that wraps a message as plain text, losing the id the category comes from.
"""

from __future__ import annotations

import pytest

from dojo.text import locale as dojo_locale
from dojo.text import messages
from dojo.catalogue import registry
from dojo.catalogue.env import Env
from dojo.text.messages import text
from dojo.judge.runner import judge
from dojo.judge.verdict import failure_category
from tests.tool.harness import REPO

WRONG = REPO / "tests" / "katas"  # then KATA / "wrong" / FILE


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory):
    """Real verdicts of realistic wrong answers from the catalogue, each failing properties for a
    reason their titles do not state."""
    found = {}
    for kata, stem in (("masked_attention", "truthiness_of_mask"),  # `if not mask:` raises ValueError
                       ("causal_self_attention", "returns_only_out"),  # not the pair (out, weights)
                       ("multihead_attention", "weights_query_major"),  # weights of the wrong shape
                       ("softmax", "modifies_input")):  # writes into x
        impl = tmp_path_factory.mktemp("impl")
        (impl / f"{kata}.py").write_text((WRONG / kata / "wrong" / f"{stem}.py").read_text())
        found[stem] = judge(Env(root=REPO, state_dir=impl / "state"), registry.get(kata), impl)
    return found


def categories(v) -> dict:
    """{property id: its category in words, or None} for every failed property."""
    out = {}
    for r in v.failures:
        c = failure_category(r)
        out[r["id"]] = text(c) if c else None
    return out


def test_code_that_raises_on_a_valid_input_is_not_said_to_break_the_property_it_ran_in(verdicts):
    found = categories(verdicts["truthiness_of_mask"])
    assert found["test_does_not_modify_its_inputs"] == "raised ValueError on a valid input"
    assert found["test_matches_torch_attention"] == "raised ValueError on a valid input"
    # what it does get right stays right, and nothing else is claimed
    assert "test_rejects_a_mask_that_is_not_bool" not in found


def test_a_wrong_kind_of_result_is_named(verdicts):
    found = categories(verdicts["returns_only_out"])
    assert found["test_does_not_modify_its_inputs"] == "did not return the pair (out, weights)"
    assert set(found.values()) == {"did not return the pair (out, weights)"}
    found = categories(verdicts["weights_query_major"])
    assert found["test_matches_torch_multihead_attention"] == "returned the wrong shape"
    # the judge kept the message's id when it added its explanation (not a plain text message)
    first = verdicts["weights_query_major"].failures[0]["message"]
    assert first["id"] == "result.shape.explained" and first["params"]["shape"]["id"] == "result.shape"


def test_writing_into_an_input_is_named_on_every_property_it_fails(verdicts):
    found = categories(verdicts["modifies_input"])
    assert found["test_matches_torch_softmax"] == "wrote into an input"
    assert found["test_does_not_modify_its_input"] == "wrote into an input"


def test_a_failure_of_the_propertys_own_claim_has_no_category():
    """A wrong value, a ValueError that never came, a property's own words: the title says it."""
    own = [
        ("fail", messages.message("values.wrong", what="out", why_text="", detail="", expected="", got="")),
        ("fail", messages.message("expect.value-error.returned", because_text="x is NaN", result="1.0")),
        ("fail", messages.message("text", text="weights above the diagonal are not 0")),
        ("pass", None),
    ]
    for status, said in own:
        assert failure_category({"status": status, "message": said}) is None, said


def test_every_status_and_judge_message_has_a_category_from_the_catalogue():
    m = messages.message
    cases = [
        ({"status": "error", "message": m("candidate.raised", type="KeyError", text="'a'")}, "raised KeyError"),
        ({"status": "error", "message": m("candidate.exit", function="f", code="0")}, "called sys.exit()"),
        ({"status": "error", "message": m("text", text="AttributeError: judge bug")},
         "the judge itself failed (not your fault)"),
        ({"status": "timeout", "message": m("candidate.timed-out", how_text="…", kata="softmax")}, "timed out"),
        ({"status": "skipped", "message": m("candidate.hung-before", kata="softmax")},
         "not run: an earlier property timed out"),
        ({"status": "incomplete", "message": None}, "not run: the judge stopped before it"),
        ({"status": "fail", "message": m("result.dtype", what="out", got="float32")}, "returned the wrong dtype"),
        ({"status": "fail", "message": m("values.not-finite", what="out", index="[0]", value="nan", array="")},
         "returned NaN/inf"),
        ({"status": "fail", "message": m("result.not-tuple", function="f", names="out, lse", type="list")},
         "did not return the tuple (out, lse)"),
    ]
    for record, words in cases:
        assert text(failure_category(record)) == words, record
    for key in messages.ENGLISH:
        if key.startswith("category."):
            assert key in {c for c in _category_ids()} or key == "category.because", key


def _category_ids():
    from dojo.judge.verdict import CATEGORIES, STATUS_CATEGORIES

    return set(CATEGORIES.values()) | set(STATUS_CATEGORIES.values()) | {"category.judge-error", "category.error"}


def test_the_category_comes_from_data_not_from_text(monkeypatch, verdicts):
    """In a catalogue where every sentence is its id, the categories are the same ids: nothing
    was worked out from English."""
    pseudo = {key: f"⟦{key}⟧" for key in messages.ENGLISH}
    monkeypatch.setitem(messages.CATALOGUES, "xx", pseudo)
    monkeypatch.setattr(dojo_locale, "LANGUAGE", "xx")
    found = categories(verdicts["truthiness_of_mask"])
    assert found["test_does_not_modify_its_inputs"] == "⟦category.raised-on-valid⟧"
