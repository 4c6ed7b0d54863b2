"""``dojo clean``: remove interview attempt folders older than N days, keeping personal bests.

A folder's age is that of the newest thing in it: the latest modification time of the folder
and of every file and folder inside it (symbolic links are not followed). Kept whatever their
age: the folders ``history.jsonl`` points to as personal bests (``history.personal_best_folders``)
and the folder of the interview that is still open (``interview.json``). Only real folders
directly inside ``<state>/attempts/`` are ever removed; a symbolic link is left alone.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from dojo.state import history
from dojo.text import screen
from dojo.commands.cli import Exit, UsageError, confirm, number, words
from dojo.commands.cli.common import styled
from dojo.catalogue.env import Env
from dojo.screens.render import duration, line
from dojo.state.state import reason, where

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
            return words("cli.clean.bytes", count=n) if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1024
    return words("cli.clean.bytes", count=n)


def open_folders(env: Env) -> list[Path]:
    """The attempt folders of the interview that is still open: its running problem's and, for
    a loop, those of the stages already played (not in the history until the loop ends). Read
    with the interview's own reader, never changed: a file that cannot be read names none."""
    from dojo.commands.interview import state

    try:
        from dojo.text import safe_read

        session = state.from_json(env, safe_read.read_json(state.session_path(env)))
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
            from dojo.text import safe_read

            text = safe_read.read_text(path)
            if text is None or text.strip():  # set aside (gone now) or unreadable: unknown
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
            what.append(words("cli.clean.best-score", score=f"{score:g}"))
        if r.get("outcome") == "passed" and used is not None and used == b["fastest"]:
            what.append(words("cli.clean.fastest", time=duration(used)))
        try:
            path = (env.state_dir / folder).resolve()
        except (OSError, ValueError):
            continue
        keep[path] = words("cli.clean.personal-best", kata=r["kata"], what=words("cli.clean.and").join(what))
    for folder in open_folders(env):
        keep[folder] = words("cli.clean.open")
    return keep


def ask(env: Env, question: str) -> bool:
    """y/N on a terminal (``dojo.commands.cli.confirm``); without one the answer is no, not an error."""
    if not env.stdin or not env.stdin.isatty():
        env.say(words("cli.clean.no-terminal", question=question))
        return False
    return confirm(env, question)


def cmd_clean(env: Env, args) -> int:
    from dojo.judge import warm

    if not getattr(args, "dry_run", False) and warm.stop(env.root):
        env.say(words("cli.clean.warm-judge"))
    attempts = env.state_dir / "attempts"
    shown = where(attempts, env) + "/"
    if not attempts.is_dir():
        env.say(words("cli.clean.no-folder", path=shown))
        return Exit.OK
    base = attempts.resolve()
    state = env.state_dir.resolve()
    if attempts.is_symlink() or state not in base.parents:
        raise UsageError(words("cli.clean.not-inside", path=shown, state=where(env.state_dir, env)))
    records = readable_history(env)
    if records is None:
        raise UsageError(words("cli.clean.no-history", path=where(history.history_path(env), env)))
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
    days = words(f"cli.clean.days.{'one' if args.days == 1 else 'many'}", days=f"{args.days:g}")
    if others:
        env.say(words(f"cli.clean.others.{'one' if others == 1 else 'many'}", count=others, path=shown))
    if not going:
        env.say(words("cli.clean.nothing-but-kept", path=shown, days=days) if kept
                else words("cli.clean.nothing", path=shown, days=days, count=len(folders)))
        show_kept(env, kept)
        return Exit.OK
    total = sum(f.size for f in going)
    env.say(words("cli.clean.going", going=len(going), count=len(folders), path=shown, days=days,
                  size=size_text(total)))
    rows = [[f.path.name, age_text(env, f), size_text(f.size)] for f in going]
    heads = [words(f"cli.clean.header.{h}") for h in ("folder", "changed", "size")]
    screen.table(env, heads, rows, indent=2, nowrap=(0,))
    show_kept(env, kept)
    if args.dry_run:
        command = "dojo clean" + (f" --days {args.days:g}" if args.days != 30 else "") + " --yes"
        env.say(words("cli.clean.dry-run", command=command))
        return Exit.OK
    if not args.yes and not ask(env, words("cli.clean.confirm", count=len(going), size=size_text(total))):
        env.say(words("cli.clean.nothing-removed"))
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
            env.warn(words("cli.clean.cannot-remove", path=where(f.path, env), reason=reason(e)))
    removed = len(going) - failed
    which = f"cli.clean.{'removed-failed' if failed else 'removed'}.{'one' if removed == 1 else 'many'}"
    env.say(words(which, count=removed, size=size_text(total), failed=failed))
    return Exit.USAGE if failed else Exit.OK


def age_text(env: Env, f: Folder) -> str:
    days = max(0, int((env.now() - f.newest) // DAY))  # a file from the future is 0 days old
    return words(f"cli.clean.ago.{'one' if days == 1 else 'many'}", days=days)


def show_kept(env: Env, kept: list[Folder]) -> None:
    if not kept:
        return
    env.say(styled(env, "cli.clean.kept", {"kept": "bold"}, kept=words("cli.clean.kept-word")))
    width = max(screen.cell_len(f.path.name) for f in kept)
    for f in kept:
        said = words("cli.clean.kept-item", name=screen.pad(f.path.name, width), age=age_text(env, f), why=f.keep)
        env.say(line(env, f"  {said}", hang=4))


def register(sub) -> None:
    p = sub.add_parser("clean", help=words("cli.clean.help"), description=words("cli.clean.description"))
    p.add_argument("--days", type=number(0, MAX_DAYS, "days"), default=30.0, metavar="N",
                   help=words("cli.clean.days-help"))
    p.add_argument("--yes", action="store_true", help=words("cli.arg.yes"))
    p.add_argument("--dry-run", action="store_true", help=words("cli.clean.dry-run-help"))
    p.set_defaults(func=cmd_clean)
