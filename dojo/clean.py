"""``dojo clean``: remove interview attempt folders older than N days, keeping personal bests.

A folder's age is that of the newest thing in it: the latest modification time of the folder
and of every file and folder inside it (symbolic links are not followed). Kept whatever their
age: the folders ``history.jsonl`` points to as personal bests (``history.personal_best_folders``)
and the folder of the interview that is still open (``interview.json``). Only real folders
directly inside ``<state>/attempts/`` are ever removed; a symbolic link is left alone.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from dojo import history, screen
from dojo.cli import Exit, UsageError, confirm, number
from dojo.env import Env
from dojo.render import duration, line
from dojo.state import reason, where

DAY = 86400.0
MAX_DAYS = 36500  #: --days: at most a hundred years


@dataclass
class Folder:
    path: Path
    newest: float  # the latest modification time in it
    size: int  # bytes, files only
    keep: str | None = None  # why it is kept whatever its age


def survey(path: Path) -> tuple[float, int]:
    """(latest modification time, total size of the files) of a folder, not following links."""
    newest, size = path.lstat().st_mtime, 0
    for top, dirs, files in os.walk(path, followlinks=False):
        for name in dirs + files:
            try:
                st = os.lstat(os.path.join(top, name))
            except OSError:
                continue
            newest = max(newest, st.st_mtime)
            if name in files:
                size += st.st_size
    return newest, size


def size_text(n: int) -> str:
    """A size in powers of 1024, named as such (KiB, MiB, GiB)."""
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n} bytes"


def open_folders(env: Env) -> list[Path]:
    """The attempt folders of the interview that is still open: its running problem's and, for
    a loop, those of the stages already played (not in the history until the loop ends). Read
    with the interview's own reader, never changed: a file that cannot be read names none."""
    from dojo.interview import state

    try:
        session = state.from_json(env, json.loads(state.session_path(env).read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return []
    folders = [session.current.folder] if session.current else []
    folders += [s["attempt"] for s in (session.loop.stages if session.loop else []) if isinstance(s.get("attempt"), str)]
    return [(env.state_dir / f).resolve() for f in folders if f]


def readable_history(env: Env) -> list[dict] | None:
    """history.jsonl's records; None when it is there but cannot be read (``history.read``
    has then set it aside with a warning, or could not even do that)."""
    path = history.history_path(env)
    existed = path.exists() or path.is_symlink()
    records = history.read(env)
    if existed and not records:
        try:
            if path.read_text(encoding="utf-8").strip():
                return None
        except (OSError, ValueError):
            return None
    return records


def why_kept(env: Env, records: list[dict]) -> dict[Path, str]:
    """Resolved folder -> why it is kept whatever its age."""
    keep = {}
    folders = history.personal_best_folders(records)
    flat = history.attempts(records)
    bests = history.personal_bests(flat)
    for r in flat:
        folder = history.attempt_folder(r)
        if folder not in folders or not isinstance(r.get("kata"), str):
            continue
        b, what = bests[r["kata"]], []
        score, used = history.finite(r.get("score")), history.finite(r.get("used_s"))
        if score is not None and score == b["best_score"]:
            what.append(f"best score {score:g}")
        if r.get("outcome") == "passed" and used is not None and used == b["fastest"]:
            what.append(f"fastest pass {duration(used)}")
        try:
            path = (env.state_dir / folder).resolve()
        except (OSError, ValueError):
            continue
        keep[path] = f"personal best, {r['kata']}: {' and '.join(what)}"
    for folder in open_folders(env):
        keep[folder] = "the interview that is still open"
    return keep


def ask(env: Env, question: str) -> bool:
    """y/N on a terminal (``dojo.cli.confirm``); without one the answer is no, not an error."""
    if not env.stdin or not env.stdin.isatty():
        env.say(f"{question} Not asking without a terminal, so nothing is removed: add --yes to remove them.")
        return False
    return confirm(env, question)


def cmd_clean(env: Env, args) -> int:
    attempts = env.state_dir / "attempts"
    shown = where(attempts, env) + "/"
    if not attempts.is_dir():
        env.say(f"No attempt folders: {shown} does not exist.")
        return Exit.OK
    base = attempts.resolve()
    state = env.state_dir.resolve()
    if attempts.is_symlink() or state not in base.parents:
        raise UsageError(f"{shown} is not a folder inside {where(env.state_dir, env)}/ "
                         "(a symbolic link?): nothing there is removed.")
    records = readable_history(env)
    if records is None:
        raise UsageError(f"{where(history.history_path(env), env)} could not be read, so which attempt "
                         "folders are personal bests is unknown: nothing is removed. Put a readable "
                         "history back (the unreadable one was moved aside, see above) and run it again.")
    keep = why_kept(env, records)
    folders, others = [], 0
    for entry in sorted(attempts.iterdir()):
        if entry.is_symlink() or not entry.is_dir() or entry.resolve().parent != base:
            others += 1
            continue
        newest, size = survey(entry)
        folders.append(Folder(entry, newest, size, keep.get(entry.resolve())))
    cutoff = env.now() - args.days * DAY
    old = [f for f in folders if f.newest < cutoff]
    going = [f for f in old if f.keep is None]
    kept = [f for f in old if f.keep is not None]
    days = f"{args.days:g} day{'' if args.days == 1 else 's'}"
    if others:
        env.say(f"({others} entr{'y' if others == 1 else 'ies'} in {shown} that {'is' if others == 1 else 'are'} "
                "not a folder, or a symbolic link: left alone.)")
    if not going:
        env.say(f"Nothing to remove: no attempt folder in {shown} is older than {days}"
                + (", except those kept below." if kept else f" ({len(folders)} in all)."))
        show_kept(env, kept)
        return Exit.OK
    total = sum(f.size for f in going)
    env.say(f"{len(going)} of {len(folders)} attempt folders in {shown} are older than {days} "
            f"({size_text(total)}):")
    rows = [[f.path.name, age_text(env, f), size_text(f.size)] for f in going]
    screen.table(env, ["folder", "last changed", "size"], rows, indent=2, nowrap=(0,))
    show_kept(env, kept)
    if args.dry_run:
        env.say("Dry run: nothing removed. `dojo clean" + (f" --days {args.days:g}" if args.days != 30 else "")
                + " --yes` removes them.")
        return Exit.OK
    if not args.yes and not ask(env, f"Remove these {len(going)} folders ({size_text(total)})?"):
        env.say("Nothing removed.")
        return Exit.OK
    failed = 0
    for f in going:
        # Once more, just before: a real folder, directly inside attempts/, not kept.
        if f.path.is_symlink() or f.path.resolve().parent != base:
            continue
        try:
            shutil.rmtree(f.path)
        except OSError as e:
            failed += 1
            env.warn(f"dojo: cannot remove {where(f.path, env)}: {reason(e)}")
    removed = len(going) - failed
    env.say(f"Removed {removed} folder{'' if removed == 1 else 's'}"
            + (f" ({size_text(total)})." if not failed else f"; {failed} could not be removed (above)."))
    return Exit.USAGE if failed else Exit.OK


def age_text(env: Env, f: Folder) -> str:
    days = max(0, int((env.now() - f.newest) // DAY))  # a file from the future is 0 days old
    return f"{days} day{'' if days == 1 else 's'} ago"


def show_kept(env: Env, kept: list[Folder]) -> None:
    if not kept:
        return
    env.say(line(env, ("Kept", "bold"), " whatever their age:"))
    width = max(len(f.path.name) for f in kept)
    for f in kept:
        env.say(line(env, f"  {f.path.name:<{width}}  ({age_text(env, f)}): {f.keep}", hang=4))


def register(sub) -> None:
    p = sub.add_parser(
        "clean", help="remove interview attempt folders older than N days (not personal bests)",
        description="Remove interview attempt folders (.dojo/attempts/) older than N days: the age "
                    "of a folder is that of the newest file in it. The folders of your personal "
                    "bests in the history and of an interview that is still open are kept. It "
                    "lists what it would remove and asks first.",
    )
    p.add_argument("--days", type=number(0, MAX_DAYS, "days"), default=30.0, metavar="N",
                   help="remove folders older than N days (default 30)")
    p.add_argument("--yes", action="store_true", help="do not ask")
    p.add_argument("--dry-run", action="store_true", help="only list what would be removed")
    p.set_defaults(func=cmd_clean)
