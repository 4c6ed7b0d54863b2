"""``dojo history``: past interviews, personal bests, and a chart of time used per attempt."""

from __future__ import annotations

import time

from dojo import history, screen
from dojo.cli import Exit, kata_arg
from dojo.env import Env
from dojo.interview.report import ENDED_WORDS, RESULT_WORDS
from dojo.render import duration, keep, line

num = history.finite


def text_or_dash(value) -> str:
    return value if isinstance(value, str) and value else "—"


def row(r: dict, number: str, when: str, kata: str) -> list[str]:
    """One attempt's row: result, time used of its limit (and as a bar), properties, hints, score."""
    used, limit = num(r.get("used_s")), num(r.get("limit_s"))
    outcome = r.get("outcome")
    result = RESULT_WORDS.get(outcome, "—") if isinstance(outcome, str) else "—"
    if r.get("attempted") is False:
        ended = r.get("ended_by")
        result = f"no attempt ({ENDED_WORDS.get(ended, result) if isinstance(ended, str) else result})"
    passed, total = num(r.get("passed")), num(r.get("total"))
    props = f"{passed:g} of {total:g}" if total and passed is not None else "—"
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
    head = row({**r, "passed": None, "total": None}, number, when, f"loop from {text_or_dash(r.get('kata'))}")
    head[3] = f"{passed} of {of} stages passed"
    head[6] = f"{len(stages)} reached"
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
        env.say("No interviews yet. `dojo interview` starts one.")
        return Exit.OK
    shown_from = 0 if args.all or len(records) <= 20 else len(records) - 20
    rows = []
    for i, r in enumerate(records[shown_from:], shown_from + 1):
        if r.get("kind") == "loop" and isinstance(r.get("stages"), list):
            rows += loop_rows(r, str(i), when_text(r))
        else:
            rows.append(row(r, str(i), when_text(r), text_or_dash(r.get("kata"))))
    env.say(line(env, (f"Interview history ({len(records)} attempt{'s' if len(records) != 1 else ''})", "bold")))
    if shown_from:
        env.say(f"(the last 20; `dojo history --all` shows all {len(records)})")
    env.say()
    headers = ["#", "date", "kata", "result", "time used", "of the limit", "props", "hints", "score"]
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
    env.say(line(env, ("Personal bests", "bold"), " (loop stages count for their kata)"))
    rows = [[k, str(b["attempts"]), str(b["passed"]), duration(b["fastest"]),
             "—" if b["best_score"] is None else f"{b['best_score']:g}"] for k, b in bests.items()]
    screen.table(env, ["kata", "attempts", "passed", "fastest pass", "best score"], rows, nowrap=(0,))
    env.say()
    env.say(line(env, ("Time used per attempt", "bold"), " (oldest → newest; full height is the time limit)"))
    width = max(len(k) for k in bests)
    for kata in bests:
        mine = [(used, limit) for r in attempts if r.get("kata") == kata
                and (used := num(r.get("used_s"))) is not None and (limit := num(r.get("limit_s"))) and limit > 0]
        if not mine:
            continue
        spark = history.sparkline([used / limit for used, limit in mine], top=1.0)
        env.say(f"  {kata:<{width}}  {spark}  last {duration(mine[-1][0])}")
    return Exit.OK
