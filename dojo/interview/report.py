"""What an interview says at the end: the score, and the report of one problem.

Score (also in docs/interview.md): ``100 × passed/total − 10 per hint``, plus a time bonus
of up to 20 points (``20 × time left / limit``) for a passing answer submitted in time;
rounded, never below 0. An untouched attempt is "no attempt" (no score), and an abandoned
one is not scored.
"""

from __future__ import annotations

from pathlib import Path

from dojo import screen
from dojo.interview.screen import clock_text
from dojo.messages import is_message, message, text
from dojo.render import STATE_LABELS, keep, line, pass_count
from dojo.verdict import diagnosis_words, first_failure_words, property_title

HINT_COST = 10  #: points per hint
TIME_BONUS = 20  #: points for a passing answer submitted at 0:00, falling to 0 at the limit

RESULT_WORDS = {"passed": "passed", "failed": "failed", "timed-out": "time ran out", "abandoned": "abandoned",
                "stopped": "stopped"}
ENDED_WORDS = {"submit": "submitted", "time": "time ran out", "abandon": "abandoned",
               "interrupt": "abandoned with Ctrl-C"}


def score(passed: int, total: int, hints: int, used_s: float, limit_s: float, in_time: bool) -> int:
    """``100 × passed/total − 10 × hints``, + ``20 × time left / limit`` when it passed in time."""
    base = 100 * passed / total if total else 0.0
    bonus = TIME_BONUS * max(0.0, limit_s - used_s) / limit_s if in_time and limit_s > 0 else 0.0
    return max(0, round(base - HINT_COST * hints + bonus))


def score_formula(rec: dict) -> str:
    in_time = rec["outcome"] == "passed"
    bonus = round(TIME_BONUS * max(0.0, rec["limit_s"] - rec["used_s"]) / rec["limit_s"]) if in_time else 0
    parts = f"100 × {rec['passed']}/{rec['total']}"
    if rec["hints"]:
        parts += f" − {HINT_COST} × {rec['hints']} hint{'s' if rec['hints'] != 1 else ''}"
    parts += f" + {bonus} time bonus" if in_time else " (no time bonus: not submitted passing in time)"
    return parts


def failure_words(first, kata: str | None = None, properties=None) -> str | None:
    """A first failure as a person says it: a property's title, or what is wrong with the file
    (a stored reference, or a verdict state). With the graded copy's ``properties``, a property
    that failed for a reason its title does not state says that reason's category too."""
    if isinstance(first, str) and first in STATE_LABELS:
        first = {"state": first}
    words = first_failure_words(first, kata)
    if words is not None and isinstance(first, dict) and isinstance(first.get("property"), str):
        category = categories(properties).get(first["property"])
        if category is not None:
            words = text(message("category.because", title_text=words, category=category))
    return words


def categories(properties) -> dict:
    """{property id: category message} of the failed properties of a verdict summary's
    ``properties`` ([id, passed, category]; entries of older summaries have no category)."""
    found = {}
    for entry in properties if isinstance(properties, list) else ():
        if isinstance(entry, list) and len(entry) > 2 and isinstance(entry[0], str) and not entry[1] \
                and is_message(entry[2]):
            found[entry[0]] = entry[2]
    return found


def property_lines(iv, kata: str, properties, indent: str = "  ") -> list[str]:
    """Every property of a graded copy, ✓ or ✗; a failure its title does not explain (it raised
    on a valid input, returned the wrong shape, timed out …) says which, as a category."""
    env, why = iv.env, categories(properties)
    lines = []
    for entry in properties if isinstance(properties, list) else ():
        if not (isinstance(entry, list) and len(entry) >= 2 and isinstance(entry[0], str)):
            continue
        pid, passed = entry[0], bool(entry[1])
        title = property_title(kata, pid)
        if not passed and pid in why:
            title = text(message("category.because", title_text=title, category=why[pid]))
        mark = (f"{indent}✓ ", "green") if passed else (f"{indent}✗ ", "red")
        lines.append(line(env, mark, title, hang=len(indent) + 2))
    return lines


def result_text(env, rec: dict) -> list:
    """The result, as runs (``screen.line``)."""
    ended = ENDED_WORDS[rec["ended_by"]]
    if not rec["attempted"]:
        return [("no attempt", "bold"), f" ({ended}; nothing written yet)"]
    return {
        "passed": [("passed", "green bold"), ": all properties pass, submitted in time"],
        "failed": [("failed", "red bold"), ": submitted with failing properties"],
        "timed-out": [("time ran out", "red bold"), " (hard stop; the frozen copy is graded)"],
        "abandoned": [(ended, "yellow bold")],
    }[rec["outcome"]]


def properties_text(rec: dict) -> str:
    if rec["outcome"] == "abandoned" and rec["attempted"] and rec["total"]:
        return f"{pass_count(rec['passed'], rec['total'])} (at the last judge run)"
    if rec["total"]:
        return pass_count(rec["passed"], rec["total"])
    if rec["state"]:
        return failure_words(rec["state"])
    return "—"


def report(iv, kata, ended, path: Path) -> None:
    """The report of one problem: result, time, properties, hints, score, what was checked."""
    env, say, rec, final = iv.env, iv.say, ended.record, ended.final
    if rec["score"] is not None:
        points = f"{rec['score']}   = {score_formula(rec)}"
    elif not rec["attempted"]:
        points = "— (no attempt)"
    else:
        points = "— (abandoned attempts are not scored)"
    first = failure_words(rec["first_failure"], kata.module, ended.properties) if rec["state"] != "passed" else None
    rows = [
        ("result", *result_text(env, rec)),
        ("time", f"{clock_text(rec['used_s'])} of {clock_text(rec['limit_s'])}"
                 + (f"  ({clock_text(rec['closed_s'])} while closed)" if rec["closed_s"] else "")),
        ("properties", properties_text(rec)),
        ("judge runs", str(rec["judge_runs"])),
        ("hints", f"{rec['hints']}" + (f" (−{HINT_COST * rec['hints']} points)" if rec["hints"] else "")),
        ("first failure", first or "—"),
        *([("behaves like", diagnosis_words(rec["diagnosis"], kata.module))] if rec.get("diagnosis") and first else []),
        ("score", points),
        ("attempt", str(path)),
    ]
    if final is not None:
        rows.append(("graded copy", str(final)))
    say()
    say(line(env, (f"Interview over: {kata.module} — {kata.title}", "bold")))
    for name, *value in rows:
        say(field_line(env, name, *value))
    checked(iv, kata, ended)
    followups(iv, kata)


def field_line(env, name: str, *value):
    """``  name           value`` (a report's row): a long value continues under itself."""
    return line(env, "  " + screen.pad(name, 15), *value, hang=17)


def followups(iv, kata) -> None:
    """The interviewer's follow-up questions, and where their model answers are (time is up)."""
    say = iv.say
    say()
    say(line(iv.env, ("The interviewer's follow-up questions:", "bold")))
    for i, q in enumerate(kata.followups, 1):
        say(line(iv.env, f"  {i}. {q}", hang=5))
    say()
    say(line(iv.env, "Answer them aloud first; then ", keep(f"`dojo followups {kata.module} --answers`"),
             " shows model answers and runs their demonstrations."))


def checked(iv, kata, ended) -> None:
    """Every property ✓/✗ (for the graded copy) and, after a failure, where to look next."""
    env, say, rec = iv.env, iv.say, ended.record
    if ended.properties and rec["attempted"]:
        say()
        if rec["outcome"] == "abandoned":  # nothing was graded: the properties are the last run's
            say(line(env, (text(message("report.checked.last-run")), "bold")))
        else:
            say(line(env, ("What the judge checked", "bold"), " (the graded copy):"))
        for said in property_lines(iv, kata.module, ended.properties):
            say(said)
    if rec["attempted"] and rec["state"] != "passed" and ended.final is not None:
        say()
        say(line(env, "Next: ", keep(f"`dojo compare {kata.module} --file {ended.final}`"),
                 " shows where your answer and the reference part ways."))


def summary(iv, done: list[dict], not_started: list[str]) -> None:
    """The end of an interview of several problems: each problem's result, time, properties and
    score, then the total (``done``: the records of the problems that ended, in order)."""
    env, say = iv.env, iv.say
    words = lambda key, **params: text(message(key, **params))  # noqa: E731
    rows, used, scores = [], 0.0, []
    for i, r in enumerate(done, 1):
        outcome = r.get("outcome")
        result = RESULT_WORDS.get(outcome, str(outcome)) if r.get("attempted", True) else words("report.no-attempt")
        props = pass_count(r["passed"], r["total"]) if r.get("total") else (failure_words(r.get("state")) or "—")
        used += r.get("used_s") or 0.0
        if isinstance(r.get("score"), (int, float)):
            scores.append(r["score"])
        rows.append([str(i), r["kata"], result, f"{clock_text(r.get('used_s'))} of {clock_text(r.get('limit_s'))}",
                     props, "—" if r.get("score") is None else str(r["score"])])
    for i, kata in enumerate(not_started, len(done) + 1):
        rows.append([str(i), kata, words("summary.not-started"), "—", "—", "—"])
    count = len(done) + len(not_started)
    passed = sum(r.get("outcome") == "passed" for r in done)
    rows.append([words("summary.total"), "", words("summary.passed", passed=passed, count=count),
                 clock_text(used), "", str(sum(scores)) if scores else "—"])
    say()
    say(line(env, (words("summary.heading", count=count), "bold")))
    say()
    heads = [words(f"summary.column.{c}") for c in ("problem", "kata", "result", "time", "properties", "score")]
    screen.table(env, heads, rows, indent=2, nowrap=(0, 1, 3, 5))
