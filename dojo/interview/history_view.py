"""``dojo history``: past interviews, personal bests, and a chart of time used per attempt."""

from __future__ import annotations

import time

from dojo import history
from dojo.cli import Exit, kata_arg
from dojo.env import Env
from dojo.interview.report import ENDED_WORDS, RESULT_WORDS
from dojo.render import duration, paint, table

num = history.finite


def text_or_dash(value) -> str:
    return value if isinstance(value, str) and value else "—"


def cmd_history(env: Env, args) -> int:
    records = history.read(env)
    if args.kata:
        kata = kata_arg(args.kata)
        records = [r for r in records if r.get("kata") == kata.module]
    if not records:
        env.say("No interviews yet. `dojo interview` starts one.")
        return Exit.OK
    shown_from = 0 if args.all or len(records) <= 20 else len(records) - 20
    rows = []
    for i, r in enumerate(records[shown_from:], shown_from + 1):
        used, limit = num(r.get("used_s")), num(r.get("limit_s"))
        started = num(r.get("started_at"))
        try:
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(started)) if started else "—"
        except (OverflowError, OSError, ValueError):
            when = "—"
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
        rows.append([
            str(i), when, text_or_dash(r.get("kata")), result,
            f"{duration(used)} / {duration(limit)}", chart, props,
            "—" if hints is None else f"{hints:g}", "—" if score_ is None else f"{score_:g}",
        ])
    env.say(paint(env, f"Interview history ({len(records)} attempt{'s' if len(records) != 1 else ''})", "bold"))
    if shown_from:
        env.say(f"(the last 20; `dojo history --all` shows all {len(records)})")
    env.say()
    headers = ["#", "date", "kata", "result", "time used", "of the limit", "props", "hints", "score"]
    for line in table(rows, headers):
        env.say(line)
    bests = history.personal_bests(records)
    if not bests:
        return Exit.OK
    env.say()
    env.say(paint(env, "Personal bests", "bold"))
    rows = [[k, str(b["attempts"]), str(b["passed"]), duration(b["fastest"]),
             "—" if b["best_score"] is None else f"{b['best_score']:g}"] for k, b in bests.items()]
    for line in table(rows, ["kata", "attempts", "passed", "fastest pass", "best score"]):
        env.say(line)
    env.say()
    env.say(paint(env, "Time used per attempt", "bold") + " (oldest → newest; full height is the time limit)")
    width = max(len(k) for k in bests)
    for kata in bests:
        mine = [(used, limit) for r in records if r.get("kata") == kata
                and (used := num(r.get("used_s"))) is not None and (limit := num(r.get("limit_s"))) and limit > 0]
        if not mine:
            continue
        spark = history.sparkline([used / limit for used, limit in mine], top=1.0)
        env.say(f"  {kata:<{width}}  {spark}  last {duration(mine[-1][0])}")
    return Exit.OK
