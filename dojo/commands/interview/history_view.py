"""``dojo history``: past interviews, personal bests, and a chart of time used per attempt."""

from __future__ import annotations

import time

from dojo.state import history
from dojo.text import screen
from dojo.commands.cli import Exit, kata_arg, words
from dojo.catalogue.env import Env
from dojo.commands.interview.report import ended_word, result_word
from dojo.screens.render import duration, keep, line

num = history.finite


def text_or_dash(value) -> str:
    return value if isinstance(value, str) and value else "—"


def row(r: dict, number: str, when: str, kata: str) -> list[str]:
    """One attempt's row: result, time used of its limit (and as a bar), properties, hints, score."""
    used, limit = num(r.get("used_s")), num(r.get("limit_s"))
    outcome = r.get("outcome")
    result = result_word(outcome, "—")
    if r.get("attempted") is False:
        result = words("history.no-attempt", ended=ended_word(r.get("ended_by"), result))
    passed, total = num(r.get("passed")), num(r.get("total"))
    props = words("history.props", passed=f"{passed:g}", total=f"{total:g}") if total and passed is not None else "—"
    chart = history.bar(used / limit) if used is not None and limit and limit > 0 else ""
    score_ = num(r.get("score"))
    hints = num(r.get("hints"))
    return [number, when, kata, result, f"{duration(used)} / {duration(limit)}", chart, props,
            "—" if hints is None else f"{hints:g}", "—" if score_ is None else f"{score_:g}"]


def loop_rows(r: dict, number: str, when: str) -> list[list[str]]:
    """A loop: one row for the whole (how far it got), then one per stage reached."""
    stages = [s for s in r["stages"] if isinstance(s, dict)]
    planned = r.get("planned")
    of = len(planned) if isinstance(planned, list) else len(stages)
    passed = sum(s.get("outcome") == "passed" for s in stages)
    head = row({**r, "passed": None, "total": None}, number, when, words("history.loop-from", kata=text_or_dash(r.get("kata"))))
    head[3] = words("history.loop.passed", passed=passed, planned=of)
    head[6] = words("history.loop.reached", count=len(stages))
    rows = [head]
    for i, s in enumerate(stages, 1):
        stage = num(s.get("stage"))
        rows.append(row(s, "", "", keep(f"  {stage if stage is not None else i:g}. {text_or_dash(s.get('kata'))}")))
    return rows


def when_text(r: dict) -> str:
    started = num(r.get("started_at"))
    try:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(started)) if started else "—"
    except (OverflowError, OSError, ValueError):
        return "—"


def cmd_history(env: Env, args) -> int:
    records = history.read(env)
    if args.kata:
        kata = kata_arg(args.kata)
        records = [r for r in records
                   if any(a.get("kata") == kata.module for a in history.attempts([r]))]
    if not records:
        env.say(words("history.none"))
        return Exit.OK
    shown_from = 0 if args.all or len(records) <= 20 else len(records) - 20
    rows = []
    for i, r in enumerate(records[shown_from:], shown_from + 1):
        if r.get("kind") == "loop" and isinstance(r.get("stages"), list):
            rows += loop_rows(r, str(i), when_text(r))
        else:
            rows.append(row(r, str(i), when_text(r), text_or_dash(r.get("kata"))))
    many = "one" if len(records) == 1 else "many"
    env.say(line(env, (words(f"history.heading.{many}", count=len(records)), "bold")))
    if shown_from:
        env.say(words("history.last-20", count=len(records)))
    env.say()
    headers = [words(f"history.column.{c}") for c in ("number", "date", "kata", "result", "time-used", "of-limit",
                                                      "props", "hints", "score")]
    nowrap = (0, 5, 7, 8)
    if not screen.fits(env, headers, rows, nowrap=nowrap):  # a narrow terminal: no number, no bar
        keep = [1, 2, 3, 4, 6, 7, 8]
        headers, rows, nowrap = [headers[i] for i in keep], [[r[i] for i in keep] for r in rows], (5, 6)
    screen.table(env, headers, rows, nowrap=nowrap)
    attempts = history.attempts(records)
    if args.kata:
        attempts = [a for a in attempts if a.get("kata") == kata.module]
    bests = history.personal_bests(attempts)
    if not bests:
        return Exit.OK
    env.say()
    env.say(line(env, (words("history.bests"), "bold"), words("history.bests.tail")))
    rows = [[k, str(b["attempts"]), str(b["passed"]), duration(b["fastest"]),
             "—" if b["best_score"] is None else f"{b['best_score']:g}"] for k, b in bests.items()]
    heads = [words(f"history.column.{c}") for c in ("kata", "attempts", "passed", "fastest", "best-score")]
    screen.table(env, heads, rows, nowrap=(0,))
    env.say()
    env.say(line(env, (words("history.chart"), "bold"), words("history.chart.tail")))
    width = max(len(k) for k in bests)
    for kata in bests:
        mine = [(used, limit) for r in attempts if r.get("kata") == kata
                and (used := num(r.get("used_s"))) is not None and (limit := num(r.get("limit_s"))) and limit > 0]
        if not mine:
            continue
        spark = history.sparkline([used / limit for used, limit in mine], top=1.0)
        env.say(f"  {screen.pad(kata, width)}  {spark}  " + words("history.chart.last", time=duration(mine[-1][0])))
    return Exit.OK
