"""``dojo`` (no command: the welcome, the progress table, the katas due for a drill, the next one)
and ``dojo list``."""

from __future__ import annotations

from dojo import history, registry, schedule, screen
from dojo.cli.common import Exit, next_kata, shown, state_now, words
from dojo.env import Env
from dojo.render import duration, keep, line, paint, status_text
from dojo.state import CHANGED, MISSING, UNJUDGED, Store


#: The welcome: a greeting, a paragraph (its line breaks are where a pipe gets them), and the
#: first commands to know, two a line.
WELCOME_TEXT = """\
Welcome to attention dojo.
You will write attention from scratch in NumPy, one kata at a time. Each kata is a file in
katas/ whose docstring is the contract; the judge runs property tests against PyTorch and
accepts any correct answer, however you write it."""
WELCOME_COMMANDS = [
    ("dojo show KATA", "read the problem"), ("dojo test KATA", "judge your file once"),
    ("dojo watch KATA", "re-judge on every save"), ("dojo hint KATA", "the next hint"),
    ("dojo interview", "a timed mock interview"), ("dojo --help", "everything else"),
]
WELCOME = WELCOME_TEXT + "\n\n" + "".join(
    f"  {a:<19}{b:<24}{c:<18}{d}\n"
    for (a, b), (c, d) in zip(WELCOME_COMMANDS[::2], WELCOME_COMMANDS[1::2]))


def cmd_progress(env: Env, args) -> int:
    store = Store(env)
    data = store.load()
    if not data.get("welcomed"):
        say_welcome(env)
        data["welcomed"] = True
        store.save()
    drills = progress_table(env, store)
    for said in now_lines(env, store) + open_interview_lines(env) + due_lines(env, drills):
        env.say(said)
    nxt = next_kata(store)
    env.say()
    if nxt is None:
        env.say(line(env, ("Every kata passes. ", "green bold"), "Try ", keep("`dojo interview`"), " against the clock."))
    else:
        state = state_now(store, nxt)
        any_passed = any(state_now(store, k) == "passed" for k in registry.KATAS)
        verb = "Continue with" if state not in (None, "not-started") else ("Next:" if any_passed else "Start with")
        env.say(line(env, f"{verb} ", (nxt.module, "bold"), f" ({nxt.title}):"))
        env.say(line(env, f"  {keep(f'dojo show {nxt.module}')}      then edit {shown(env, env.kata_file(nxt))}", hang=4))
        env.say(line(env, f"  {keep(f'dojo watch {nxt.module}')}     re-judges on every save", hang=4))
    return Exit.OK


def say_welcome(env: Env) -> None:
    """The welcome; on a terminal too narrow for it, its paragraph wrapped and one command a
    line."""
    width = screen.columns(env)
    if width is None or max(screen.cell_len(ln) for ln in WELCOME.splitlines()) <= width:
        env.say(WELCOME)
        return
    greeting, text = WELCOME_TEXT.split("\n", 1)
    env.say(greeting)
    env.say(" ".join(text.split()))
    env.say()
    for command, what in WELCOME_COMMANDS:
        env.say(line(env, "  ", keep(command), " " * (19 - len(command)), what, hang=21))
    env.say()


def gave_up(env: Env, verdict: dict | None, status, short: bool):
    """The status of a kata whose answer was revealed (``dojo solution --give-up``)."""
    from dojo.messages import message, text

    if short and verdict and verdict.get("state") in ("passed", "failing"):
        return line(env, (text(message("status.short.gave-up", passed=verdict.get("passed"),
                                       total=verdict.get("total"))), "yellow"))
    return line(env, *status.runs, ("  (gave up)", "yellow"))


#: The table's headers, and the shorter ones of a narrow terminal (with ``status_text(short)``).
HEADERS = ["kata", "difficulty", "status", "hints", "next drill", "best interview"]
SHORT_HEADERS = ["kata", "level", "status", "hints", "drill", "best"]


def progress_table(env: Env, store: Store) -> dict:
    """Print the progress table; return the drill schedule it shows (kata -> schedule.Entry).

    One table, so the columns line up across tracks, its rows grouped under track headings; the
    numbers are the registry's order, running on across tracks. A terminal too narrow for it
    gets shorter headers and statuses (one row a kata at 80 columns)."""
    records = history.read(env)  # read once: best times and the schedule both come from it
    best = history.best_times(records)
    drills = schedule.schedule(records, env.now())

    def rows(short: bool) -> list:
        out = []
        for track in registry.TRACKS:
            out.append(screen.heading(env, track))
            for i, k in enumerate(registry.KATAS, 1):
                if k.track != track:
                    continue
                entry = store.kata(k.module)
                now = store.verdict_now(k)  # the saved verdict only while it is about the file
                status = status_text(env, now, short=short)
                if entry.get("gave_up"):
                    status = gave_up(env, now, status, short)
                hints = f"{entry['hints_used']}/{len(k.hints)}" if entry["hints_used"] else "—"
                drill = drills[k.module].cell() if k.module in drills else "—"
                out.append([f"{i}. {k.module}", k.difficulty, status, hints, drill, duration(best.get(k.module))])
        return out

    table = rows(False)
    headers = HEADERS
    if not screen.fits(env, headers, table, indent=2):
        table, headers = rows(True), SHORT_HEADERS
    screen.table(env, headers, table, indent=2, nowrap=(0, 1, 3, 4, 5))
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
        line(env, ("Due for a drill: ", "yellow bold"), names + ".", hang=2),
        line(env, f"  {keep('dojo drill')}             an interview on {first.kata}, the most overdue, from a blank stub",
             hang=25),
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
