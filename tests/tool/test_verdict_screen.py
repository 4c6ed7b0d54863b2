"""What ``dojo test`` shows under a failing verdict: which failure comes first, and what the
candidate's code printed for the failing input (issue 35).

Which bug each test catches:
- a verdict that shows the first failing property in file order ("Matches torch…", which
  explains nothing) while a specific rule that names the mistake also fails;
- prints never shown, or shown uncapped, or shown for every example the property tried instead
  of the failing one.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import numpy as np
import pytest

from dojo.catalogue import registry
from dojo.catalogue.env import Env
from dojo.judge.verdict import Verdict
from dojo.screens.render import PRINTED_LINES, verdict_lines
from dojo.text.messages import message


def _record(id: str, status: str = "fail", **extra) -> dict:
    return {"id": id, "title": id, "status": status, "state": "failing",
            "message": message("text", text=f"{id} failed"), **extra}


def _shown(verdict: Verdict) -> str:
    env = Env(color=False, stdout=io.StringIO())
    return "\n".join(ln.text if hasattr(ln, "text") else str(ln) for ln in verdict_lines(env, verdict, registry.get("softmax"), "katas/softmax.py"))


def _first_failure(text: str) -> str:
    return text.split("First failure:")[1].strip().splitlines()[0]


def test_a_specific_rule_is_shown_before_the_oracle_comparison_and_the_contract_errors():
    records = [_record("test_rejects_nan_or_inf"), _record("test_matches_torch_softmax"),
               _record("test_the_largest_realistic_case_matches_torch"),
               _record("test_rows_sum_to_one"), _record("test_is_left_unchanged", status="pass")]
    verdict = Verdict("softmax", "failing", passed=1, total=5, records=records)
    assert [r["id"] for r in verdict.failures] == [
        "test_rows_sum_to_one", "test_matches_torch_softmax", "test_the_largest_realistic_case_matches_torch",
        "test_rejects_nan_or_inf"]
    text = _shown(verdict)
    assert _first_failure(text) == "test_rows_sum_to_one failed"
    # the ✓/✗ list keeps the judge's order
    marks = [ln.split(" ", 3)[-1] for ln in text.splitlines() if ln.startswith(("  ✗", "  ✓"))]
    assert marks == [r["id"] for r in records]
    assert verdict.summary()["first_failure"] == {"property": "test_rows_sum_to_one"}
    # with only comparisons and errors failing, the comparison comes first
    only = Verdict("softmax", "failing", total=2, records=[_record("test_rejects_nan_or_inf"),
                                                           _record("test_matches_torch_softmax")])
    assert _first_failure(_shown(only)) == "test_matches_torch_softmax failed"


def test_what_the_code_printed_is_shown_under_the_first_failure_capped():
    printed = "".join(f"line {i}\n" for i in range(1, 26))
    verdict = Verdict("softmax", "failing", total=1, records=[_record("test_rows_sum_to_one", output=printed)])
    text = _shown(verdict)
    assert "What your code printed for this input:" in text
    assert f"    line {PRINTED_LINES}" in text and f"line {PRINTED_LINES + 1}\n" not in text + "\n"
    assert f"(+{25 - PRINTED_LINES} more lines; plain `pytest tests/test_softmax.py` shows all of it)" in text
    # an escape sequence the code printed reaches no screen
    sneaky = Verdict("softmax", "failing", total=1, records=[_record("test_rows_sum_to_one", output="\x1b[2J\n")])
    assert "\x1b" not in _shown(sneaky) and "\\x1b[2J" in _shown(sneaky)
    # nothing printed: no heading
    quiet = Verdict("softmax", "failing", total=1, records=[_record("test_rows_sum_to_one", output="")])
    assert "What your code printed" not in _shown(quiet)


PRINTING = '''import numpy as np


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=np.float64)
    print("softmax called")
    e = np.exp(x - x.max())  # the global max: a slice far below it underflows to 0/0
    return e / e.sum(axis=axis, keepdims=True)
'''


@pytest.mark.contributors  # a whole judge run through the tool (about 3 s)
def test_dojo_test_shows_what_the_code_printed_for_the_failing_input_only(sandbox):
    sandbox.write_kata("softmax", PRINTING)
    r = sandbox.run("test", "softmax")
    assert r.code == 1, r.out + r.err
    block = r.out.split("What your code printed for this input:")[1].split("\n\n")[0]
    printed = [ln.strip() for ln in block.strip().splitlines()]
    # one line a call of the failing input: not the lines of every example the property tried
    said = re.search(r"the property called your function (\d+) times", r.out)
    calls = int(said.group(1)) if said else 1
    assert printed == ["softmax called"] * calls, r.out


def test_a_property_on_which_a_known_bug_was_named_comes_before_other_rules():
    named = dict(diagnosis="softmax/float32_arithmetic")
    records = [_record("test_rows_sum_to_one"), _record("test_matches_torch_softmax", **named),
               _record("test_large_logits_stay_finite", **named), _record("test_rejects_nan", **named)]
    verdict = Verdict("softmax", "failing", total=4, records=records)
    assert [r["id"] for r in verdict.failures] == [
        "test_large_logits_stay_finite", "test_matches_torch_softmax", "test_rows_sum_to_one", "test_rejects_nan"]


def test_an_answer_that_raised_on_a_valid_input_is_shown_first_in_the_judges_order():
    raised = dict(status="error")
    records = [_record("test_rows_sum_to_one"), _record("test_matches_torch_softmax", **raised),
               _record("test_is_left_unchanged", **raised), _record("test_rejects_a_0d_input", **raised)]
    verdict = Verdict("softmax", "failing", total=4, records=records)
    assert [r["id"] for r in verdict.failures] == [
        "test_matches_torch_softmax", "test_is_left_unchanged", "test_rows_sum_to_one", "test_rejects_a_0d_input"]


def test_expected_and_got_are_printed_with_enough_digits_to_differ():
    """A float32 rounding error (1e-8) printed at NumPy's 6 digits shows two identical arrays
    under "expected" and "got"; the judge prints the digits that tell them apart."""
    import numpy as np

    from tests.judge import KataMismatch, check_close

    want = np.array([0.09003057317038045, 0.24472847105479764, 0.6652409557748219])
    got = want.astype(np.float32).astype(np.float64)
    with pytest.raises(KataMismatch) as caught:
        check_close(got, want, "softmax(x)")
    params = caught.value.message["params"]
    assert params["expected"]["array"] != params["got"]["array"], params
    # a difference visible at 6 digits keeps NumPy's compact 6
    with pytest.raises(KataMismatch) as caught:
        check_close(want + 0.01, want, "softmax(x)")
    assert caught.value.message["params"]["expected"]["array"] == np.array2string(want, precision=6)


def test_a_header_too_wide_for_80_columns_continues_under_the_title(monkeypatch):
    """"(katas/masked_attention.py)" wrapped onto a line of its own at column 0 (issue 35)."""
    from dojo.text import screen

    monkeypatch.setenv("COLUMNS", "80")
    out = io.StringIO()
    env = Env(color=False, stdout=out)
    kata = registry.get("masked_attention")
    verdict = Verdict("masked_attention", "failing", total=1, records=[_record("test_x")])
    env.say(verdict_lines(env, verdict, kata, "katas/masked_attention.py")[0])
    lines = out.getvalue().splitlines()
    assert len(lines) == 2 and all(screen.cell_len(ln) <= 80 for ln in lines), lines
    assert lines[1].startswith(" " * (len("masked_attention") + 3)) and lines[1].strip(), lines


def test_a_failing_input_of_many_calls_shows_the_first_and_the_last_call():
    from tests.plugin.report import _call_data

    def call(dtype):
        return _call_data({"x": np.array([127, -127]).astype(dtype), "axis": 0})
    record = _record("test_accepts_array_likes_and_returns_float64", inputs_label="input.shrunk",
                     calls=[call("float64"), call("int8")], call_count=4)
    text = _shown(Verdict("softmax", "failing", total=1, records=[record]))
    block = text.split("the property called your function 4 times")[1]
    assert block.index("call 1: softmax(") < block.index("(2 more calls in between)") < block.index("call 4: softmax(")
    assert "dtype=int8" in block.split("call 4: softmax(")[1] and "call 2" not in block


INTEGER_DTYPE_KEPT = (Path(__file__).parents[1] / "katas" / "softmax" / "wrong" / "integer_input_kept_in_its_dtype.py")


@pytest.mark.contributors  # a whole judge run through the tool (about 3 s)
def test_dojo_test_shows_the_call_the_property_found_wrong(sandbox):
    sandbox.write_kata("softmax", INTEGER_DTYPE_KEPT.read_text())
    r = sandbox.run("test", "softmax")
    assert r.code == 1, r.out + r.err
    shown = r.out.split("failing input")[1].split("\n\n")[0]  # the calls shown, the last one last
    last = shown.rsplit("softmax(", 1)[1]
    assert "int8" in last, r.out  # the failing call is in int8 or uint8 (its dtype wraps there)
