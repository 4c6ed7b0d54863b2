"""Follow-up questions with model answers (issue 13, part 2): the registry refuses follow-ups
without a sound answer, every demonstration runs and its claim holds in its own numbers, and
`dojo followups` works through the real entry point."""

import importlib

import pytest

from dojo.catalogue import demos, registry

# -- every demonstration supports its answer with the numbers it computed -------------------


def _claims() -> dict:
    """Every kata's claims (tests/katas/<kata>/claims.py), by demonstration name."""
    found = {}
    for kata in registry.KATAS:
        try:
            module = importlib.import_module(f"tests.katas.{kata.module}.claims")
        except ModuleNotFoundError as e:
            if e.name != f"tests.katas.{kata.module}.claims":
                raise
            continue
        found.update(module.CLAIMS)
    return found


CLAIMS = _claims()


def test_every_demonstration_has_a_checked_claim():
    """Each demonstration's claim is in its kata's tests/katas/<kata>/claims.py."""
    missing = sorted(set(demos.DEMOS) - set(CLAIMS))
    assert not missing, f"demonstrations without a claim in tests/katas/<kata>/claims.py: {missing}"
    assert not sorted(set(CLAIMS) - set(demos.DEMOS)), "claims for demonstrations that are gone"


@pytest.mark.parametrize("name", sorted(demos.DEMOS))
def test_each_demonstration_runs_and_its_claim_holds_in_its_own_numbers(name):
    shown = demos.run(name)
    assert shown.lines and all(isinstance(line, str) and line.strip() for line in shown.lines)
    assert CLAIMS[name](shown.result) in (None, True), f"{name}: {shown.result}"


def test_every_demonstration_backs_some_answer():
    used = {f.demo for k in registry.KATAS for f in k.followup_answers}
    assert set(demos.DEMOS) <= used


# -- the registry refuses follow-ups without a sound answer ---------------------------------

ENTRY = '''
[[kata]]
module = "softmax"
track = "t"
function = "softmax"
title = "Numerically stable softmax"
difficulty = "easy"
minutes = 10
hints = ["a hint"]
'''
GOOD_ANSWER = "A sentence of about twenty words that explains the point, with a reason and a consequence. " * 4


def problems_of(followups: str) -> list[str]:
    import tomllib

    return registry.check_registry(registry.parse(tomllib.loads(ENTRY + followups)))


def followup(question="Why?", answer=GOOD_ANSWER, demo=None) -> str:
    text = f'\n[[kata.followup]]\nquestion = "{question}"\n'
    if answer is not None:
        text += f"answer = '''{answer}'''\n"
    if demo is not None:
        text += f'demo = "{demo}"\n'
    return text


def test_a_sound_followup_passes():
    assert problems_of(followup(demo="sqrt_dk")) == []


def test_a_followup_without_an_answer_is_refused():
    assert problems_of(followup(answer=None)) == ["softmax: follow-up 1 has no answer"]
    assert problems_of(followup() + followup(answer="   ")) == ["softmax: follow-up 2 has no answer"]


@pytest.mark.parametrize("sentences, lines", [(1, 1), (2, 2), (9, 9), (12, 12)])
def test_an_answer_shorter_than_3_or_longer_than_8_lines_is_refused(sentences, lines):
    answer = " ".join(["x" * 90] * sentences)  # one wrapped line per 90-letter word
    [problem] = problems_of(followup(answer=answer))
    assert f"takes {lines} lines at 95 columns, not 3 to 8" in problem


def test_an_unknown_demo_is_refused():
    assert problems_of(followup(demo="no_such_demo")) == [
        "softmax: follow-up 1: no demonstration called 'no_such_demo' in dojo/catalogue/katas/<kata>/demos.py"
    ]


def test_a_kata_without_followups_or_with_an_empty_question_is_refused():
    assert problems_of("") == ["softmax: needs follow-up questions"]
    assert problems_of(followup(question=" ")) == ["softmax: follow-up 1 has an empty question"]


def test_the_old_list_of_questions_and_stray_keys_are_refused():
    import tomllib

    with pytest.raises(registry.RegistryError, match="old shape"):
        registry.parse(tomllib.loads(ENTRY + 'followups = ["Why?"]\n'))
    # a kata key written after the follow-ups lands in the last follow-up table
    with pytest.raises(registry.RegistryError, match="unknown keys \\['next'\\]"):
        registry.parse(tomllib.loads(ENTRY + followup() + 'next = "masked_attention"\n'))


def test_the_questions_are_still_the_followups_callers_read():
    kata = registry.get("masked_attention")
    assert kata.followups == tuple(f.question for f in kata.followup_answers)
    assert kata.followups[0].startswith("Why divide by sqrt(d_k)?")


# -- dojo followups, through the real entry point -------------------------------------------

SOFTMAX = registry.get("softmax")


def test_followups_lists_the_numbered_questions_without_answers(sandbox):
    r = sandbox.run("followups", "softmax")
    assert r.code == 0, r.out + r.err
    for i, f in enumerate(SOFTMAX.followup_answers, 1):
        assert f"  {i}. {f.question[:60]}" in r.out
        assert f.answer_lines()[0] not in r.out
    assert "computed now" not in r.out
    assert "dojo followups softmax --answers" in r.out


def test_followups_with_answers_shows_each_answer_and_runs_its_demonstration(sandbox):
    r = sandbox.run("followups", "softmax", "--answers")
    assert r.code == 0, r.out + r.err
    for f in SOFTMAX.followup_answers:
        for line in f.answer_lines():
            assert line in r.out
        if f.demo:
            where = demos.DEMOS[f.demo].__module__.replace(".", "/")
            assert f"computed now ({where}.py: {f.demo})" in r.out
            for line in demos.run(f.demo).lines:
                assert line in r.out
    assert r.out.count("computed now") == sum(1 for f in SOFTMAX.followup_answers if f.demo)


def test_followups_without_a_kata_takes_the_next_one(sandbox):
    r = sandbox.run("followups")
    assert r.code == 0
    assert r.out.startswith(f"softmax — {SOFTMAX.title}")


def test_followups_of_an_unknown_kata_is_a_usage_error_with_suggestions(sandbox):
    r = sandbox.run("followups", "sofmax")
    assert r.code == 2
    assert "did you mean 'softmax'" in r.err.lower()
    assert r.out == ""


def test_help_lists_followups(sandbox):
    r = sandbox.run("--help")
    assert r.code == 0 and "followups" in r.out


def test_followups_without_a_kata_follows_progress_and_asks_for_one_when_all_pass(sandbox):
    import json

    def passed(modules):
        sandbox.state.mkdir(exist_ok=True)
        katas = {m: {"verdict": {"state": "passed", "passed": 1, "total": 1, "at": 0.0,
                                 "sha256": sandbox.worked_on(m, "passed")},
                     "hints_used": 0, "solved": True, "gave_up": False, "revealed": False}
                 for m in modules}
        (sandbox.state / "state.json").write_text(json.dumps({"version": 1, "welcomed": True, "katas": katas}))

    passed(["softmax"])
    r = sandbox.run("followups")
    assert r.code == 0 and r.out.startswith("masked_attention — "), r.out + r.err
    passed([k.module for k in registry.KATAS])
    r = sandbox.run("followups")
    assert r.code == 2
    assert "dojo followups softmax" in r.err
