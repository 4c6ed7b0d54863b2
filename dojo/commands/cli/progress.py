"""``dojo`` (no command: the welcome, the progress table, the katas due for a drill, the next one)
and ``dojo list``."""

from __future__ import annotations

from dojo.state import history, schedule
from dojo.text import locale, screen
from dojo.catalogue import registry
from dojo.commands.cli.common import Exit, next_kata, shown, state_now, styled, words
from dojo.catalogue.env import Env
from dojo.screens.render import duration, keep, line, paint, status_text
from dojo.state.state import CHANGED, MISSING, UNJUDGED, Store
from dojo.text.messages import listed


#: The first commands to know, two a line under the welcome: (command, what it does: an id).
WELCOME_COMMANDS = [
    ("dojo show KATA", "cli.welcome.show"), ("dojo test KATA", "cli.welcome.test"),
    ("dojo watch KATA", "cli.welcome.watch"), ("dojo hint KATA", "cli.welcome.hint"),
    ("dojo interview", "cli.welcome.interview"), ("dojo --help", "cli.welcome.help"),
]


def welcome() -> str:
    """The welcome: a greeting, a paragraph (its line breaks are where a pipe gets them), and
    the first commands to know, two a line (padded in cells)."""
    commands = [(c, words(id)) for c, id in WELCOME_COMMANDS]
    left = max(24, max(screen.cell_len(b) + 2 for _, b in commands[::2]))
    rows = "".join(f"  {screen.pad(a, 19)}{screen.pad(b, left)}{screen.pad(c, 18)}{d}\n"
                   for (a, b), (c, d) in zip(commands[::2], commands[1::2]))
    return words("cli.welcome.greeting") + "\n" + words("cli.welcome.text") + "\n\n" + rows


def cmd_progress(env: Env, args) -> int:
    from dojo.judge import warm

    warm.start_ahead(env.root)  # so the first verdict after this is warm too
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
        env.say(line(env, (words("cli.progress.all-pass"), "green bold"),
                     *styled(env, "cli.progress.try-interview", {"command": "keep"}, command="`dojo interview`").runs))
    else:
        state = state_now(store, nxt)
        any_passed = any(state_now(store, k) == "passed" for k in registry.KATAS)
        verb = "continue" if state not in (None, "not-started") else ("next" if any_passed else "start")
        env.say(styled(env, f"cli.progress.{verb}", {"kata": "bold"}, kata=nxt.module, title=locale.kata_title(nxt)))
        edit = words("cli.progress.then-edit", path=shown(env, env.kata_file(nxt)))
        env.say(line(env, f"  {keep(f'dojo show {nxt.module}')}      {edit}", hang=4))
        env.say(line(env, f"  {keep(f'dojo watch {nxt.module}')}     {words('cli.progress.rejudges')}", hang=4))
    return Exit.OK


def say_welcome(env: Env) -> None:
    """The welcome; on a terminal too narrow for it, its paragraph wrapped and one command a
    line."""
    from dojo.text import cjk

    width = screen.columns(env)
    text = welcome()
    if width is None or max(screen.cell_len(ln) for ln in text.splitlines()) <= width:
        env.say(text)
        return
    env.say(words("cli.welcome.greeting"))
    env.say(cjk.join_lines(words("cli.welcome.text")))
    env.say()
    for command, id in WELCOME_COMMANDS:
        env.say(line(env, "  ", keep(command), " " * (19 - len(command)), words(id), hang=21))
    env.say()


def gave_up(env: Env, verdict: dict | None, status, short: bool):
    """The status of a kata whose answer was revealed (``dojo solution --give-up``)."""
    from dojo.text.messages import message, text

    if short and verdict and verdict.get("state") in ("passed", "failing"):
        return line(env, (text(message("status.short.gave-up", passed=verdict.get("passed"),
                                       total=verdict.get("total"))), "yellow"))
    return line(env, *status.runs, ("  " + words("cli.progress.gave-up"), "yellow"))


#: The table's columns: ``cli.progress.header.<column>``, and the shorter headers of a narrow
#: terminal (with ``status_text(short)``), ``cli.progress.short.<column>``.
COLUMNS = ("kata", "difficulty", "status", "hints", "drill", "best")


def headers(short: bool = False) -> list[str]:
    return [words(f"cli.progress.{'short' if short else 'header'}.{c}") for c in COLUMNS]


def difficulty(kata: registry.Kata) -> str:
    id = f"cli.difficulty.{kata.difficulty}"
    return words(id) if locale.has(id) else kata.difficulty


def drill_cell(entry: schedule.Entry) -> str:
    """The progress table's *next drill* cell (``schedule.Entry.cell``, in the tool's language)."""
    if entry.overdue == 0:
        return words("cli.progress.drill.today")
    if entry.overdue:
        return words("cli.progress.drill.overdue", days=entry.overdue)
    return words("cli.progress.drill.tomorrow") if entry.days_left == 1 else words("cli.progress.drill.in",
                                                                                  days=entry.days_left)


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
            out.append(screen.heading(env, locale.track_name(track)))
            for i, k in enumerate(registry.KATAS, 1):
                if k.track != track:
                    continue
                entry = store.kata(k.module)
                now = store.verdict_now(k)  # the saved verdict only while it is about the file
                status = status_text(env, now, short=short)
                if entry.get("gave_up"):
                    status = gave_up(env, now, status, short)
                hints = f"{entry['hints_used']}/{len(k.hints)}" if entry["hints_used"] else "—"
                drill = drill_cell(drills[k.module]) if k.module in drills else "—"
                out.append([f"{i}. {k.module}", difficulty(k), status, hints, drill, duration(best.get(k.module))])
        return out

    table, heads = rows(False), headers()
    if not screen.fits(env, heads, table, indent=2):
        table, heads = rows(True), headers(short=True)
    screen.table(env, heads, table, indent=2, nowrap=(0, 1, 3, 4, 5))
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
    names = words("cli.join.list").join(words("cli.progress.due-item", kata=e.kata, when=drill_cell(e)) for e in due)
    return [
        "",
        line(env, (words("cli.progress.due"), "yellow bold"), words("cli.progress.due-list", katas=names), hang=2),
        line(env, f"  {keep('dojo drill')}             {words('cli.progress.drill-what', kata=first.kata)}", hang=25),
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
        lines.append(words("progress.stale", katas=listed(stale), first=stale[0]))
    if missing:
        lines.append(words("progress.missing", katas=listed(missing), first=missing[0]))
    return [""] + lines if lines else []


def open_interview_lines(env: Env) -> list[str]:
    """An interview still open (``.dojo/interview.json``): which kata, its clock, how to go on."""
    from dojo.text.messages import message

    if not (env.state_dir / "interview.json").exists():  # the common case costs one stat
        return []
    from dojo.commands.interview import state

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
