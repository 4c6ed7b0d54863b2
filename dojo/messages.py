"""Every sentence the judge says, by id: a verdict stores ``{"id": ..., "params": {...}}`` and a
screen turns it into text here, in the tool's language (English, the only catalogue so far).

A message is data, so a stored verdict (the history, an interview record, ``dojo test --json``)
reads in whatever language renders it later. Parameters are plain JSON values, arrays (see
``array_param``), or messages themselves. A parameter named ``text`` or ending in ``_text``
holds a sentence written where it is used (a property's own reason, the candidate's exception
message, a worker's account of a death): those are shown as they are.

Placeholders are ``{name}``. A multi-line array continues under the column its placeholder
starts at, so it lines up under its label ("  got:      [[1. 2.]\n             [3. 4.]]").
"""

from __future__ import annotations

import re

#: The English catalogue. Keys are stable ids: reword a sentence freely, never reuse an id for a
#: different meaning (stored verdicts keep the id).
ENGLISH: dict[str, str] = {
    # -- what the judge says about a result --------------------------------------------------
    "text": "{text}",
    "result.not-array": "{what} should be a NumPy array, got {type}: {repr_text}",
    "result.shape": "{what} should have shape {want}, got {got}",
    "result.dtype": "{what} should be float64 (the contract computes in float64), got {got}",
    "result.not-pair": "{function}() should return a tuple (out, weights), got {type}",
    "result.not-tuple": "{function}() should return a tuple ({names}), got {type}",
    "result.shape.explained": "{shape}\n  {note_text}\n  {dims_text}",
    "values.wrong": "{what} is wrong.{why_text}\n{detail}\n  expected: {expected}\n  got:      {got}",
    "values.wrong-shape": "{what} is wrong.{why_text}\n  expected: {expected}\n  got:      {got}",
    "values.nan-at": "  your result contains NaN, first at {index}; expected {want} there",
    "values.first-difference": "  first differing entry {index}: expected {want}, got {got}  (largest difference {largest})",
    "values.not-finite.explained": "{what}{index} is {value}{explanation_text}",
    "values.not-finite": ("{what}{index} is {value} although the input is valid and every score that "
                          "takes part in the softmax is finite.\n  {what}: {array}"),
    "input.modified": ("your {function}() modified its input `{key}` in place.\n"
                       "  The caller's input must be left as it was: copy it (np.asarray(..., "
                       "dtype=np.float64) does not copy a float64 array)\n  before writing into it.\n"
                       "  before: {before}\n  after:  {after}"),
    "expect.value-error.returned": "expected a ValueError because {because_text}, but your code returned a result:\n  {result}",
    "expect.value-error.raised": ("expected a ValueError because {because_text}, but your code raised {type}: {text}\n"
                                  "  Contract violations must raise ValueError (a subclass is fine)."),
    "expect.value-error.escaped": "expected a ValueError because {because_text}, but {escape}",
    # -- hints: a generic suggestion, dropped when a diagnosis names the bug -------------------
    "hint.nan": "  NaN comes from exp() overflowing (large scores without the max shift) or from a 0/0 row (every weight 0).",
    "hint.nan.overflow": ("  The scores here reach {largest}, and exp() overflows above 709: subtract each "
                          "row's max before exp()."),
    "hint.nan.no-overflow": ("  The scores here are at most {largest} in size, so exp() cannot overflow: look "
                             "for a 0/0 instead, a row whose weights are all 0 (every key blocked? check which "
                             "way round the mask is) or an inf - inf."),
    # -- what the candidate's code did -------------------------------------------------------
    "candidate.raised": "your code raised {type}: {text}",
    "candidate.raised-on-valid": "your code raised {type} on a valid input: {text}",
    "candidate.at": "  at {file}, line {line}: {source_text}",
    "candidate.exit": ("your {function}() called sys.exit({code}) (SystemExit). A kata function must return "
                       "its result or raise ValueError; it may not end the program or stop the judge."),
    "candidate.stopped-judge": ("your {function}() raised {type}{colon}{text}. A kata function must return its "
                                "result or raise ValueError; it may not end the program or stop the judge."),
    "candidate.died": ("the process running your {function}() ended: {how_text}. A kata function must return "
                       "its result or raise ValueError."),
    "candidate.broken": "your {function}() could not be judged: {how_text}",
    "candidate.timed-out": "timed out: {how_text}\n  The remaining properties of {kata} are skipped.",
    "candidate.too-slow": ("too slow: your {function}() took about {each} s of CPU a call over {calls} calls"
                           "{estimate}, and the judge allows {budget} s of CPU for the whole kata (see Speed in "
                           "the docstring). The judge stopped here, not because an answer was wrong: make it "
                           "faster (vectorise the loops over single entries)."),
    "candidate.too-slow.skipped": "{slow}\n  The remaining properties of {kata} are skipped.",
    "candidate.too-slow.estimate": "; the judge needs about {calls} calls for this kata, about {seconds} s",
    "candidate.flaky": ("your {function}() gave different results for the same input: the judge ran one input "
                        "twice and it failed only once. Does it keep state between calls (a global, a default "
                        "argument that is a list), use randomness or the clock?"),
    "candidate.hung-before": "{kata} timed out in an earlier property; fix the hang first",
    # -- the failing input ---------------------------------------------------------------------
    "input.shrunk": "failing input (shrunk by Hypothesis), as your function got it:",
    "input.shrunk-calls": "failing input (shrunk by Hypothesis): the property called your function {count} times",
    "input.call": "call {number}: {call}",
    "input.more-calls": "(and {count} more calls)",
    "input.hung-on": "the input it hung on:",
    "input.last-given": "the last input it was given:",
    "input.example": "failing input (shrunk by Hypothesis):",
    # -- the diagnosis ------------------------------------------------------------------------
    "diagnosis": "Your answer behaves like a known bug: {description_text}.",
    # what the answer itself did on the compare battery's inputs that the contract rules out
    # (cases_text: the battery's names of those cases, joined with "; ")
    "diagnosis.unchecked": "It also does not raise ValueError for: {cases_text}.",
    "diagnosis.unchecked-more": "It also does not raise ValueError for: {cases_text}; and {count} more.",
    # -- a kata file that cannot be judged at all ------------------------------------------------
    "kata.not-started": ("not implemented yet. Write {function}() in {file} (the docstring is the contract), "
                         "then run this again."),
    "kata.numpy-only": ("{file} imports {module} at line {line}; a kata may import NumPy and nothing like it "
                        "({forbidden} … are not allowed)."),
    "kata.numpy-only.no-line": ("{file} imports {module}; a kata may import NumPy and nothing like it "
                                "({forbidden} … are not allowed)."),
    "kata.malformed-load": "{file} could not be judged: the process running it sent a malformed answer while loading it",
    "kata.judge-stopped": ("stopped after {seconds} s while running {property}: the whole-run deadline of a "
                           "kata. The judge itself did not finish (not your fault: every call into your code "
                           "has its own limit). Run it again; if it happens again, report it."),
    # -- a first failure that is not a property (the interview report) ---------------------------
    "first-failure.not-started": "not started (the function still raises NotImplementedError)",
    "first-failure.cannot-import": "the file does not import",
    "first-failure.numpy-only": "breaks the NumPy-only rule",
    "first-failure.timed-out": "the code did not return in time",
    "first-failure.incomplete": "stopped early",
    "first-failure.error": "judge error",
    "first-failure.failing": "failing",
    # -- why a property failed, when its title does not say it (dojo.verdict.failure_category) ---
    # Categories only: the interview report shows them, and they must give no pitfall away.
    "category.raised-on-valid": "raised {type} on a valid input",
    "category.raised": "raised {type}",
    "category.exit": "called sys.exit()",
    "category.died": "its process ended",
    "category.broken": "could not be judged",
    "category.timed-out": "timed out",
    "category.too-slow": "too slow: over the judge's CPU budget",
    "category.not-run.hung": "not run: an earlier property timed out",
    "category.not-run": "not run: the judge stopped before it",
    "category.skipped": "not run",
    "category.judge-stopped": "not finished: the judge ran out of time (not your fault)",
    "category.not-array": "did not return an array",
    "category.not-pair": "did not return the pair (out, weights)",
    "category.not-tuple": "did not return the tuple ({names})",
    "category.shape": "returned the wrong shape",
    "category.dtype": "returned the wrong dtype",
    "category.not-finite": "returned NaN/inf",
    "category.modified-input": "wrote into an input",
    "category.flaky": "gave different results for the same input",
    "category.judge-error": "the judge itself failed (not your fault)",
    "category.error": "stopped with an error",
    "category.because": "{title_text} — {category}",
    # -- the interview and loop reports -----------------------------------------------------------
    "report.checked.last-run": "What the judge checked (at the last judge run):",
    "loop.checked": "What the judge checked, stage by stage (the graded copies):",
    "loop.checked-stage": "  Stage {stage}: {kata} — {result}",
    "loop.checked-stage.last-run": "  Stage {stage}: {kata} — {result} (at the last judge run)",
    "report.no-attempt": "no attempt",
    "interview.keys.asking": "y yes · any other key no",
    "interview.output-closed": ("dojo interview: its output was closed (the program reading it ended), "
                                "which is taken as a hang-up."),
    "summary.heading": "The interview, all {count} problems:",
    "summary.column.problem": "problem",
    "summary.column.kata": "kata",
    "summary.column.result": "result",
    "summary.column.time": "time",
    "summary.column.properties": "properties",
    "summary.column.score": "score",
    "summary.not-started": "not started",
    "summary.total": "total",
    "summary.passed": "{passed} of {count} passed",
    # -- the verdict as a whole ------------------------------------------------------------------
    "verdict.incomplete": ("the judge stopped after {ran} of {owed} properties (last: {last}), so nothing is "
                           "counted as passed."),
    "verdict.judge-timeout": "the judge did not finish within {seconds} s",
    "verdict.no-report": "the judge produced no report",
    "verdict.nothing-ran": "no properties ran",
    # -- what is true now: a saved verdict against the file as it is (dojo/state.py) -----------
    "status.changed": "changed since judged",
    "status.unjudged": "edited, not judged yet",
    "status.missing": "file missing",
    "status.unreadable": "file cannot be read",
    "progress.stale": ("No verdict for the file as it is now: {katas}. `dojo test {first}` judges it; "
                       "`dojo check` judges every kata."),
    "progress.missing": "Missing from katas/: {katas}. `dojo reset {first}` puts the untouched stub back.",
    # -- an interview left open, as bare `dojo` tells it ------------------------------------------
    "interview.open": "An interview is still open: {kata}{stage}. {clock}",
    "interview.open.stage": " (stage {number} of {total} of an interview loop)",
    "interview.open.left": ("Its clock ran on while it was closed: {left} left. Continue it with "
                            "`dojo interview --resume` (press q there to abandon it)."),
    "interview.open.over": ("Its time ran out while it was closed: `dojo interview --resume` ends it "
                            "and gives the report."),
    "interview.open.between": "Continue it with `dojo interview --resume` (press q there to abandon it).",
    # -- usage errors that say what is really wrong ------------------------------------------------
    "usage.no-current-kata": "every kata passes, so there is no current one: name one, e.g. `dojo {command} 1`.",
    "usage.loop-random": ("--loop and --random do not go together: a loop is one kata and the chain of its "
                          "next questions (`dojo interview --loop [KATA]`, default: {first}); --random picks "
                          "the kata of a single interview."),
    "usage.loop-katas": ("--loop starts from one kata, not {count}: `dojo interview --loop [KATA]` (default: "
                         "{first}) follows its next questions. For several katas one after another, leave out --loop."),
    "usage.one-kata": "`dojo {command}` takes one kata at a time (also given: {extra}).",
    "usage.drill-resume": ("`dojo drill` has no --resume: a drill is an interview, so an interrupted one is "
                           "continued with `dojo interview --resume`."),
    # -- pytest pointed at a folder or file that holds no tests (conftest.py) -------------------
    "pytest.no-tests": ("dojo: no tests in {where}: katas/ and solutions/ hold answers, so pytest ran nothing. "
                        "The judge is in tests/.\n"
                        "  From {root}: `pytest` judges every kata in katas/, `pytest tests/test_{kata}.py` one kata,\n"
                        "  `dojo test {kata}` the same on the dojo's own screen (`--impl solutions`: the reference answers)."),
    # -- dojo compare: speed (dojo/compare/speed.py) and growth (dojo/compare/growth.py) -------
    "compare.speed.timed-at": ("Timed at n = {sizes}: the least CPU time of one call, over {rounds} rounds "
                               "(one round where a call takes {one_round} or more)."),
    "compare.speed.slow": "Yours is slow: {problem}.",
    "compare.speed.no-torch": "torch cannot be imported ({error})",
    "compare.speed.problem.timeout": "one call at n={n} took longer than {seconds} s",
    "compare.speed.problem.failed": "timing failed at n={n}: {text}",
    "compare.speed.not-timed": "Yours was not timed above n={at}: one call there already took {took}.",
    "compare.speed.slower": ("Yours is {times} slower than the reference at n={n}. Look for a Python loop "
                             "over rows or entries, or work repeated per call."),
    "compare.speed.memory": "Yours allocates {times} the reference's peak memory: extra copies of the big arrays?",
    "compare.speed.memory-growth": ("Your peak memory grows like n^{yours}, the reference's like n^{reference}: "
                                    "an array that grows faster than the reference's biggest?"),
    "compare.speed.fine": "Yours runs at {ratio} the reference's time at n={n}: fine.",
    "compare.growth.faster": ("Yours grows faster than the reference: its time like {yours}, the reference's "
                              "like {reference}, fitted over n = {sizes} (95% intervals apart). An extra loop "
                              "over n somewhere?"),
    "compare.growth.slower": ("Yours grows more slowly than the reference: its time like {yours}, the "
                              "reference's like {reference}, fitted over n = {sizes} (95% intervals apart)."),
    "compare.growth.alike": ("Yours grows like the reference, as far as these timings tell: its time like "
                             "{yours}, the reference's like {reference}, fitted over n = {sizes}."),
    "compare.growth.unknown": "How yours grows against the reference cannot be told from these timings: {why}.",
    "compare.growth.and": "{first}; {second}",
    "compare.growth.why.loose": ("{who} fits n^{exponent} only to ±{pm} over n = {sizes} (a growth rate is "
                                 "stated to ±{bound}): too noisy to tell (a busy machine?), or not one power "
                                 "of n at these sizes. Run it again on a quieter machine"),
    "compare.growth.why.floor": ("{who} takes under {floor} a call at n = {sizes}, too quick to time apart "
                                 "from the clock's own noise; fewer than {need} sizes are left to fit"),
    "compare.growth.why.few": "{who} was timed at {count} sizes, and a growth rate needs {need}",
    "compare.growth.why.common": "yours and the reference share {count} sizes to fit, and a growth rate needs {need}",
    "compare.growth.cell.loose": "— (too noisy to tell)",
    "compare.growth.cell.floor": "— (too quick to time)",
    "compare.growth.cell.few": "— (too few sizes)",
    # -- the compact forms a narrow terminal gets (dojo/screen.py decides when) -------------------
    "status.short.count": "{label} {passed}/{total}",
    "status.short.numpy-only": "not NumPy-only",
    "status.short.gave-up": "gave up {passed}/{total}",
}

CATALOGUES = {"en": ENGLISH}
#: The language every screen renders in (one catalogue so far).
LANGUAGE = "en"

_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


def message(id: str, **params) -> dict:
    """A message as data. Unknown ids are a bug in the judge: caught here, where it is written."""
    if id not in ENGLISH:
        raise KeyError(f"no message {id!r} in dojo/messages.py")
    return {"id": id, "params": params}


def is_message(value) -> bool:
    return isinstance(value, dict) and isinstance(value.get("id"), str) and isinstance(value.get("params", {}), dict)


def array_param(a, indent: int = 0) -> dict:
    """An array as message data: its shape, dtype, a compact printout (NumPy's, at most 60
    entries) and, when small, its values (non-finite ones as "nan", "inf", "-inf")."""
    import numpy as np

    from dojo.screen import array_width

    a = np.asarray(a)
    # its rows start about 14 cells in: "  " + "  expected: " (a verdict's failure)
    text = np.array2string(a, precision=6, threshold=60, edgeitems=3, max_line_width=array_width(90, 14))
    data = {"array": text, "shape": list(a.shape), "dtype": str(a.dtype)}
    if a.size <= 256 and a.dtype.kind in "biuf":
        data["values"] = _json_values(a.tolist())
    return data


def _json_values(v):
    if isinstance(v, list):
        return [_json_values(x) for x in v]
    if isinstance(v, float) and v != v:
        return "nan"
    if isinstance(v, float) and v in (float("inf"), float("-inf")):
        return "inf" if v > 0 else "-inf"
    return v


def text(msg, language: str | None = None, glue: bool = False) -> str:
    """A message (or a stored plain string, from before messages had ids) as text. ``glue``:
    an array's "(shape …, dtype)" is joined by no-break spaces, so a terminal moves it to the
    next line whole (``dojo.screen.NBSP``; printed as plain spaces)."""
    language = language or LANGUAGE
    if msg is None:
        return ""
    if isinstance(msg, str):
        return msg
    if not is_message(msg):
        return str(msg)
    template = CATALOGUES.get(language, ENGLISH).get(msg["id"]) or ENGLISH.get(msg["id"])
    params = msg.get("params") or {}
    if template is None:  # an id from a newer tool: say what can be said
        return " ".join(_value(v, language, glue) for v in params.values()) or msg["id"]
    out = []
    for line in template.split("\n"):
        out.append(_fill(line, params, language, glue))
    return "\n".join(out)


def _fill(line: str, params: dict, language: str, glue: bool = False) -> str:
    pieces, at = [], 0
    column = 0
    for m in _PLACEHOLDER.finditer(line):
        literal = line[at:m.start()]
        pieces.append(literal)
        column = _column_after(pieces)
        raw = params.get(m.group(1), "")
        value = _value(raw, language, glue)
        if "\n" in value and _is_array(raw):  # an array lines up under its first row
            first, *rest = value.split("\n")  # a blank line between blocks stays empty
            value = "\n".join([first, *(" " * column + ln if ln.strip() else "" for ln in rest)])
        pieces.append(value)
        at = m.end()
    pieces.append(line[at:])
    return "".join(pieces)


def _column_after(pieces: list[str]) -> int:
    """The terminal column after ``pieces``: cells, not characters (a Chinese label is wide).
    Counted with the standard library: this runs in the kata's worker too, whose sandbox cannot
    read rich (and loading rich costs ~80 ms)."""
    import unicodedata

    joined = "".join(pieces)
    tail = joined[joined.rfind("\n") + 1:]
    if tail.isascii():
        return len(tail)
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
               for c in tail)


def _is_array(value) -> bool:
    return isinstance(value, dict) and "array" in value and "shape" in value


def _value(value, language: str | None = None, glue: bool = False) -> str:
    if is_message(value):
        return text(value, language, glue)
    if isinstance(value, dict) and "array" in value and "shape" in value:
        shape = f"(shape {tuple(value['shape'])}, {value['dtype']})"
        return f"{value['array']}   " + (shape.replace(" ", "\u00a0") if glue else shape)
    if isinstance(value, list) and all(isinstance(v, int) for v in value):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    return "" if value is None else str(value)
