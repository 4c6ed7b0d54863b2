"""``dojo reset`` (the stub back, your file backed up first) and ``dojo restore`` (a backup back)."""

from __future__ import annotations

import hashlib
import time
from pathlib import Path

from dojo import registry
from dojo.cli.check import record_verdict
from dojo.cli.common import Exit, UsageError, confirm, kata_arg, shown
from dojo.env import Env
from dojo import screen
from dojo.render import status_text
from dojo.state import CannotWrite, Store, atomic_write_bytes, check_oracle_cache
from dojo.stubs import stub_source


def backup_first(env: Env, store: Store, path: Path, kata: registry.Kata) -> Path | None:
    """Back ``path`` up before it is replaced; when that cannot be done, nothing is replaced."""
    try:
        return store.backup(path, kata.module)
    except CannotWrite as e:
        raise CannotWrite(e.errno, f"{e.strerror}. {shown(env, path)} is left as it was: "
                                   "it is never replaced without a backup.") from None


def cmd_reset(env: Env, args) -> int:
    kata = kata_arg(args.kata)
    path = env.kata_file(kata)
    stub = stub_source(env.solution_file(kata), kata.function)
    if path.exists() and path.read_text(encoding="utf-8", errors="replace") == stub:
        env.say(f"{shown(env, path)} is already the untouched stub; nothing to do.")
        return Exit.OK
    if not args.yes and not confirm(env, f"Replace {shown(env, path)} with the untouched stub?"):
        env.say("Left as it was.")
        return Exit.OK
    store = Store(env)
    saved = backup_first(env, store, path, kata)
    if saved:
        env.say(f"Backed up your file to {shown(env, saved)}")
    atomic_write_bytes(path, stub.encode("utf-8"), env)
    entry = store.kata(kata.module)
    entry.pop("verdict", None)
    store.save()
    env.say(f"{shown(env, path)} is the untouched stub again. `dojo restore {kata.module}` brings your version back.")
    return Exit.OK


def backup_rows(env: Env, backups: list[Path], stub: bytes, current: bytes | None) -> list[list[str]]:
    """One row per backup, newest first, numbered as ``--pick`` takes them."""
    rows = []
    for n, b in enumerate(reversed(backups), 1):
        data = b.read_bytes()
        what = "the untouched stub" if data == stub else "your work"
        if data == current:
            what += " (= the file now)"
        when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(b.stat().st_mtime))
        rows.append([str(n), shown(env, b), when, f"{len(data)} bytes", what])
    return rows


def cmd_restore(env: Env, args) -> int:
    kata = kata_arg(args.kata)
    path = env.kata_file(kata)
    store = Store(env)
    backups = store.backups(kata.module)
    if not backups:
        raise UsageError(f"no backups of {kata.module} yet (they are made by `dojo reset`).")
    stub = stub_source(env.solution_file(kata), kata.function).encode("utf-8")
    current = path.read_bytes() if path.exists() else None
    newest_first = list(reversed(backups))
    if args.list:
        screen.table(env, ["#", "backup", "made", "size", "holds"], backup_rows(env, backups, stub, current),
                     nowrap=(0, 1, 3))
        env.say(f"`dojo restore {kata.module} --pick N` brings back number N.")
        return Exit.OK
    if args.pick is not None:
        if not 1 <= args.pick <= len(backups):
            raise UsageError(f"--pick {args.pick}: {kata.module} has backups 1 to {len(backups)} "
                             f"(`dojo restore {kata.module} --list` shows them).")
        chosen = newest_first[args.pick - 1]
    else:
        work = [b for b in newest_first if b.read_bytes() != stub]
        if not work:
            raise UsageError(f"every backup of {kata.module} is the untouched stub: none holds your work "
                             f"(`dojo restore {kata.module} --list` shows them; --pick N takes one anyway).")
        chosen = work[0]
    content = chosen.read_bytes()
    if current == content:
        env.say(f"{shown(env, path)} already matches the backup {shown(env, chosen)}.")
        return Exit.OK
    if current is not None and current != stub and all(b.read_bytes() != current for b in backups):
        saved = backup_first(env, store, path, kata)
        env.say(f"Backed up the file being replaced to {shown(env, saved)}")
    atomic_write_bytes(path, content, env)
    env.say(f"Restored {shown(env, path)} from {shown(env, chosen)}")
    from dojo.runner import judge

    check_oracle_cache(env)
    verdict = judge(env, kata, path.parent)
    record_verdict(store, kata, verdict, env, hashlib.sha256(content).hexdigest())
    env.say(f"Judged it again for your progress: {status_text(env, verdict.summary())}.")
    return Exit.OK
