"""The shipped oracle answers (tests/answers/) are complete and true.

Complete: judging the reference solutions with the practice profile asks torch nothing that
is not shipped, so a correct answer's first run in a fresh clone never imports torch.
True: every shipped answer is as close to what torch computes on this machine as the judge's
verdicts need. Another torch build or CPU changes the last bits of float64 results, so "equal"
cannot be the rule. The bound is a tenth of the tightest tolerance the judge applied to that
oracle's answers in the same run: then the shipped answer and live torch give the same verdict
to every answer that is not within 10% of the judge's own boundary (tests/tolerance.py argues
it in full).
Rebuild them with ``python -m tests.answer_store build`` after changing a judge or an oracle
(a change that alters the practice profile's examples shows up here as missing answers).
"""

import pytest

from tests import answer_store
from tests.tolerance import ATOL, RTOL, SHIPPED_FRACTION

#: The README's test line checks one kata's answers against this machine's torch (its attention
#: oracle is the one most katas share); the contributors' suite checks every kata's (CI runs it
#: with pip's default torch, another build than the one the answers were made with).
SAMPLE = ["masked_attention"]


def _check(tmp_path, katas=None):
    proc, verified = answer_store.verify(tmp_path, katas)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    rebuild = "rebuild them: python -m tests.answer_store build"
    assert verified["checked"] > 0
    assert not verified["missing"], (
        f"{len(verified['missing'])} of {verified['checked']} oracle answers the practice profile "
        f"asks for are not shipped; {rebuild}"
    )
    assert not verified["different"], (
        f"shipped answers differ from live torch by more than {SHIPPED_FRACTION} of the judge's "
        f"allowance: {verified['different'][:5]}; {rebuild}"
    )
    # every answer was compared, each with a tolerance no looser than the judge's defaults
    assert sum(f["answers"] for f in verified["files"].values()) == verified["checked"]
    for name, f in verified["files"].items():
        assert f["rtol"] <= RTOL and f["atol"] <= ATOL, (name, f)


def test_one_katas_shipped_answers_match_this_machines_torch(tmp_path):
    _check(tmp_path, SAMPLE)


@pytest.mark.contributors  # every kata's practice profile again, with live torch: long
def test_shipped_answers_cover_the_practice_profile_and_match_live_torch(tmp_path):
    _check(tmp_path)
