"""``dojo`` (no command: the welcome, the progress table, the katas due for a drill, the next one)
and ``dojo list``."""

from __future__ import annotations

from dojo import history, registry, schedule
from dojo.cli.common import Exit, next_kata, shown, state_now, words
from dojo.env import Env
from dojo.render import duration, paint, status_text, table
from dojo.state import CHANGED, MISSING, UNJUDGED, Store


WELCOME = """\
Welcome to attention dojo.
You will write attention from scratch in NumPy, one kata at a time. Each kata is a file in
katas/ whose docstring is the contract; the judge runs property tests against PyTorch and
accepts any correct answer, however you write it.

  dojo show KATA     read the problem        dojo test KATA    judge your file once
  dojo watch KATA    re-judge on every save  dojo hint KATA    the next hint
  dojo interview     a timed mock interview  dojo --help       everything else
"""


def cmd_progress(env: Env, args) -> int:
    store = Store(env)
    data = store.load()
    if not data.get("welcomed"):
        env.say(WELCOME)
        data["welcomed"] = True
        store.save()
    drills = progress_table(env, store)
    for line in now_lines(env, store) + open_interview_lines(env) + due_lines(env, drills):
        env.say(line)
    nxt = next_kata(store)
    env.say()
    if nxt is None:
        env.say(paint(env, "Every kata passes. ", "green", "bold") + "Try `dojo interview` against the clock.")
    else:
        state = state_now(store, nxt)
        any_passed = any(state_now(store, k) == "passed" for k in registry.KATAS)
        verb = "Continue with" if state not in (None, "not-started") else ("Next:" if any_passed else "Start with")
        env.say(f"{verb} {paint(env, nxt.module, 'bold')} ({nxt.title}):")
        env.say(f"  dojo show {nxt.module}      then edit {shown(env, env.kata_file(nxt))}")
        env.say(f"  dojo watch {nxt.module}     re-judges on every save")
    return Exit.OK


def progress_table(env: Env, store: Store) -> dict:
    """Print the progress table; return the drill schedule it shows (kata -> schedule.Entry)."""
    records = history.read(env)  # read once: best times and the schedule both come from it
    best = history.best_times(records)
    drills = schedule.schedule(records, env.now())
    rows = []
    for i, k in enumerate(registry.KATAS, 1):
        entry = store.kata(k.module)
        status = status_text(env, store.verdict_now(k))  # the saved verdict only while it is about the file
        if entry.get("gave_up"):
            status += paint(env, "  (gave up)", "yellow")
        hints = f"{entry['hints_used']}/{len(k.hints)}" if entry["hints_used"] else "—"
        drill = drills[k.module].cell() if k.module in drills else "—"
        rows.append([f"{i}. {k.module}", k.difficulty, status, hints, drill, duration(best.get(k.module))])
    # One table, so the columns line up across tracks, its rows grouped under track headings;
    # the numbers are the registry's order, running on across tracks.
    header, rule, *lines = table(rows, ["kata", "difficulty", "status", "hints", "next drill", "best interview"])
    env.say("  " + header)
    env.say("  " + rule)
    for track in registry.TRACKS:
        env.say(paint(env, track, "bold"))
        for k, line in zip(registry.KATAS, lines):
            if k.track == track:
                env.say("  " + line)
    return drills


def cmd_list(env: Env, args) -> int:
    progress_table(env, Store(env))
    return Exit.OK


def due_lines(env: Env, entries: dict[str, schedule.Entry]) -> list[str]:
    """What bare ``dojo`` says under the table when katas are due (``entries``: the schedule
    the table shows): which, and the command."""
    katas = schedule.drillable(env)
    first = schedule.most_overdue(entries, katas)
    if first is None:
        return []
    due = sorted((e for e in entries.values() if e.kata in katas and e.overdue is not None),
                 key=lambda e: (e is not first, -e.overdue, katas.index(e.kata)))
    names = ", ".join(f"{e.kata} ({e.cell()})" for e in due)
    return [
        "",
        paint(env, "Due for a drill: ", "yellow", "bold") + names + ".",
        f"  dojo drill             an interview on {first.kata}, the most overdue, from a blank stub",
    ]


def now_lines(env: Env, store: Store) -> list[str]:
    """Under the table: the katas whose file has no verdict as it is now (changed since it was
    judged, or edited and never judged), and those whose file is missing. Bare ``dojo`` says so
    and does not judge them itself: judging takes seconds a kata, the table a fraction of one."""
    states = {k.module: state_now(store, k) for k in registry.KATAS}
    stale = [m for m, s in states.items() if s in (CHANGED, UNJUDGED)]
    missing = [m for m, s in states.items() if s == MISSING]
    lines = []
    if stale:
        lines.append(words("progress.stale", katas=", ".join(stale), first=stale[0]))
    if missing:
        lines.append(words("progress.missing", katas=", ".join(missing), first=missing[0]))
    return [""] + lines if lines else []


def open_interview_lines(env: Env) -> list[str]:
    """An interview still open (``.dojo/interview.json``): which kata, its clock, how to go on."""
    from dojo.messages import message

    if not (env.state_dir / "interview.json").exists():  # the common case costs one stat
        return []
    from dojo.interview import state

    session = state.load(env)  # one that cannot be resumed is set aside, with a warning
    if session is None:
        return []
    p = session.current
    kata = p.kata if p is not None else session.entry.kata
    stage = (message("interview.open.stage", number=session.index + 1, total=len(session.queue))
             if session.loop is not None else "")
    if p is None:
        clock = message("interview.open.between")
    else:
        left = p.limit_s - (p.elapsed_s + max(0.0, env.now() - p.tick_wall))
        clock = (message("interview.open.left", left=duration(left)) if left > 0
                 else message("interview.open.over"))
    return ["", paint(env, words("interview.open", kata=kata, stage=stage, clock=clock), "yellow")]
