"""What an interview says at the end: the score, and the report of one problem.

Score (also in docs/interview.md): ``100 × passed/total − 10 per hint``, plus a time bonus
of up to 20 points (``20 × time left / limit``) for a passing answer submitted in time;
rounded, never below 0. An untouched attempt is "no attempt" (no score), and an abandoned
one is not scored.
"""

from __future__ import annotations

from pathlib import Path

from dojo.text import screen
from dojo.text import locale
from dojo.commands.cli.common import shown, words
from dojo.commands.interview.screen import around, clock_text
from dojo.text.messages import is_message, message, text
from dojo.screens.render import STATE_LABELS, line, pass_count
from dojo.judge.verdict import diagnosis_words, first_failure_words, property_title

HINT_COST = 10  #: points per hint
TIME_BONUS = 20  #: points for a passing answer submitted at 0:00, falling to 0 at the limit

#: a record's ``outcome`` (a loop's too) and how a problem ended (``ended_by``): ids of their words
OUTCOMES = ("passed", "failed", "timed-out", "abandoned", "stopped")
ENDINGS = ("submit", "time", "abandon", "interrupt")


def result_word(outcome, default: str | None = None) -> str | None:
    """An outcome as a word (``passed``, ``time ran out`` …); ``default`` for one the tool does not know."""
    return words(f"report.result.{outcome}") if outcome in OUTCOMES else default


def ended_word(ended_by, default: str | None = None) -> str | None:
    """How a problem ended, as words (``submitted``, ``abandoned with Ctrl-C`` …)."""
    return words(f"report.ended.{ended_by}") if ended_by in ENDINGS else default


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
        parts += words("report.formula.hints." + ("one" if rec["hints"] == 1 else "many"), cost=HINT_COST,
                       hints=rec["hints"])
    parts += words("report.formula.bonus", bonus=bonus) if in_time else words("report.formula.no-bonus")
    return parts


def failure_words(first, kata: str | None = None, properties=None) -> str | None:
    """A first failure as a person says it: a property's title, or what is wrong with the file
    (a stored reference, or a verdict state). With the graded copy's ``properties``, a property
    that failed for a reason its title does not state says that reason's category too."""
    if isinstance(first, str) and first in STATE_LABELS:
        first = {"state": first}
    said = first_failure_words(first, kata)
    if said is not None and isinstance(first, dict) and isinstance(first.get("property"), str):
        category = categories(properties).get(first["property"])
        if category is not None:
            said = text(message("category.because", title_text=said, category=category))
    return said


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
    ended = ended_word(rec["ended_by"])
    if not rec["attempted"]:
        return [(words("report.no-attempt"), "bold"), words("report.result.no-attempt.tail", ended=ended)]
    outcome = rec["outcome"]
    if outcome == "abandoned":
        return [(ended, "yellow bold")]
    colour = "green bold" if outcome == "passed" else "red bold"
    return [(result_word(outcome), colour), words(f"report.result.{outcome}.tail")]


def properties_text(rec: dict) -> str:
    if rec["outcome"] == "abandoned" and rec["attempted"] and rec["total"]:
        return words("report.properties.last-run", count=pass_count(rec["passed"], rec["total"]))
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
        points = words("report.score.no-attempt")
    else:
        points = words("report.score.abandoned")
    first = failure_words(rec["first_failure"], kata.module, ended.properties) if rec["state"] != "passed" else None
    rows = [
        ("result", *result_text(env, rec)),
        ("time", words("report.time", used=clock_text(rec["used_s"]), limit=clock_text(rec["limit_s"]))
                 + (words("report.time.closed", closed=clock_text(rec["closed_s"])) if rec["closed_s"] else "")),
        ("properties", properties_text(rec)),
        ("judge-runs", str(rec["judge_runs"])),
        ("hints", f"{rec['hints']}" + (words("report.hints.cost", points=HINT_COST * rec["hints"]) if rec["hints"] else "")),
        ("first-failure", first or "—"),
        *([("behaves-like", diagnosis_words(rec["diagnosis"], kata.module))] if rec.get("diagnosis") and first else []),
        ("score", points),
    ]
    say()
    over = words("report.over", kata=kata.module, title=locale.kata_title(kata))
    at = over.find(kata.module)  # too wide, the title continues under the kata's name, not at column 0
    say(line(env, (over, "bold"), hang=screen.cell_len(over[:at]) if at > 0 else None))
    for name, *value in rows:
        say(field_line(env, words(f"report.field.{name}"), *value))
    for said in file_lines(env, path, final):
        say(said)
    checked(iv, kata, ended)
    followups(iv, kata)


def field_line(env, name: str, *value):
    """``  name           value`` (a report's row): a long value continues under itself."""
    return line(env, "  " + screen.pad(name, 15), *value, hang=17)


def file_lines(env, path: Path, final: Path | None) -> list:
    """Where the attempt and its graded copy are: their folder, then each file in it under the
    report's values (a whole path beside its label was 73 to 90 columns: at 80 it left the label
    alone on a line). An attempt file that is not there says so."""
    folder = path.parent
    files = [(path.name, words("report.field.attempt")
              + ("" if path.is_file() else words("report.file.gone")))]
    if final is not None:
        files.append((final.relative_to(folder).as_posix() if final.is_relative_to(folder) else shown(env, final),
                      words("report.field.graded-copy")))
    width = max(screen.cell_len(name) for name, _ in files)
    lines = [field_line(env, words("report.field.folder"), shown(env, folder) + "/")]
    for name, what in files:
        lines.append(line(env, " " * 17 + screen.pad(name, width) + "   ", (what, "dim"), hang=20 + width))
    return lines


def followups(iv, kata) -> None:
    """The interviewer's follow-up questions, and where their model answers are (time is up)."""
    say = iv.say
    say()
    say(line(iv.env, (words("report.followups"), "bold")))
    for i, f in enumerate(locale.kata_followups(kata), 1):
        say(line(iv.env, f"  {i}. {f.question}", hang=5))
    say()
    say(line(iv.env, *around("report.followups.answers", "command", f"`{locale.command('followups', kata.module, '--answers')}`")))


def checked(iv, kata, ended) -> None:
    """Every property ✓/✗ (for the graded copy) and, after a failure, where to look next."""
    env, say, rec = iv.env, iv.say, ended.record
    if ended.properties and rec["attempted"]:
        say()
        if rec["outcome"] == "abandoned":  # nothing was graded: the properties are the last run's
            say(line(env, (text(message("report.checked.last-run")), "bold")))
        else:
            say(line(env, (words("report.checked"), "bold"), words("report.checked.tail")))
        for said in property_lines(iv, kata.module, ended.properties):
            say(said)
    if rec["attempted"] and rec["state"] != "passed" and ended.final is not None:
        say()
        say(line(env, *around("report.next-compare", "command", compare_command(env, kata.module, ended.final))))


def compare_command(env, kata: str, final: Path) -> str:
    """`dojo compare KATA --file FOLDER/` for a graded copy (``FOLDER/final/KATA.py``): the attempt
    folder stands for it, a path that fits 80 columns where the copy's did not (up to 90)."""
    return f"`dojo compare {kata} --file {shown(env, final.parent.parent)}/`"


def summary(iv, done: list[dict], not_started: list[str]) -> None:
    """The end of an interview of several problems: each problem's result, time, properties and
    score, then the total (``done``: the records of the problems that ended, in order)."""
    env, say = iv.env, iv.say
    rows, used, scores = [], 0.0, []
    for i, r in enumerate(done, 1):
        outcome = r.get("outcome")
        result = result_word(outcome, str(outcome)) if r.get("attempted", True) else words("report.no-attempt")
        props = pass_count(r["passed"], r["total"]) if r.get("total") else (failure_words(r.get("state")) or "—")
        used += r.get("used_s") or 0.0
        if isinstance(r.get("score"), (int, float)):
            scores.append(r["score"])
        rows.append([str(i), r["kata"], result, words("report.time", used=clock_text(r.get("used_s")),
                                                      limit=clock_text(r.get("limit_s"))),
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
