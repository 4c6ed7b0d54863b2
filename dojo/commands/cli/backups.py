"""``dojo reset`` (the stub back, your file backed up first) and ``dojo restore`` (a backup back)."""

from __future__ import annotations

import hashlib
import time
from pathlib import Path

from dojo.catalogue import registry
from dojo.commands.cli.check import record_verdict
from dojo.commands.cli.common import Exit, UsageError, confirm, kata_arg, shown, words
from dojo.catalogue.env import Env
from dojo.text import screen
from dojo.screens.render import status_text
from dojo.state.state import CannotWrite, Store, atomic_write_bytes
from dojo.catalogue.stubs import stub_source, untouched


def backup_first(env: Env, store: Store, path: Path, kata: registry.Kata) -> Path | None:
    """Back ``path`` up before it is replaced; when that cannot be done, nothing is replaced."""
    try:
        return store.backup(path, kata.module)
    except CannotWrite as e:
        raise CannotWrite(e.errno, words("cli.backup.cannot", error=e.strerror, path=shown(env, path))) from None


def cmd_reset(env: Env, args) -> int:
    kata = kata_arg(args.kata)
    path = env.kata_file(kata)
    stub = stub_source(env.solution_file(kata), kata.function, language=None)  # in the tool's language
    if path.exists() and path.read_text(encoding="utf-8", errors="replace") == stub:
        env.say(words("cli.reset.already", path=shown(env, path)))
        return Exit.OK
    if not args.yes and not confirm(env, words("cli.reset.confirm", path=shown(env, path))):
        env.say(words("cli.reset.left"))
        return Exit.OK
    store = Store(env)
    saved = backup_first(env, store, path, kata)
    if saved:
        env.say(words("cli.reset.backed-up", path=shown(env, saved)))
    atomic_write_bytes(path, stub.encode("utf-8"), env)
    entry = store.kata(kata.module)
    entry.pop("verdict", None)
    store.save()
    env.say(words("cli.reset.done", path=shown(env, path), kata=kata.module))
    return Exit.OK


def backup_rows(env: Env, backups: list[Path], is_stub, current: bytes | None) -> list[list[str]]:
    """One row per backup, newest first, numbered as ``--pick`` takes them. ``is_stub(data)``:
    whether a file is an untouched stub (in any language)."""
    rows = []
    for n, b in enumerate(reversed(backups), 1):
        data = b.read_bytes()
        what = words("cli.backups.stub") if is_stub(data) else words("cli.backups.work")
        if data == current:
            what = words("cli.backups.current", what=what)
        when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(b.stat().st_mtime))
        rows.append([str(n), shown(env, b), when, words("cli.backups.bytes", count=len(data)), what])
    return rows


def stub_test(env: Env, kata: registry.Kata):
    """A function telling whether a file's bytes are ``kata``'s untouched stub in any language
    (``dojo.catalogue.stubs.untouched``)."""
    solution = env.solution_file(kata)
    seen: dict[bytes, bool] = {}

    def is_stub(data: bytes | None) -> bool:
        if data is None:
            return False
        if data not in seen:
            try:
                seen[data] = untouched(data.decode("utf-8"), solution, kata.function) is not None
            except UnicodeDecodeError:
                seen[data] = False
        return seen[data]
    return is_stub


def cmd_restore(env: Env, args) -> int:
    kata = kata_arg(args.kata)
    path = env.kata_file(kata)
    store = Store(env)
    backups = store.backups(kata.module)
    if not backups:
        raise UsageError(words("cli.restore.none", kata=kata.module))
    is_stub = stub_test(env, kata)
    current = path.read_bytes() if path.exists() else None
    newest_first = list(reversed(backups))
    if args.list:
        heads = [words(f"cli.backups.header.{h}") for h in ("number", "backup", "made", "size", "holds")]
        screen.table(env, heads, backup_rows(env, backups, is_stub, current), nowrap=(0, 1, 3))
        env.say(words("cli.restore.how-pick", kata=kata.module))
        return Exit.OK
    if args.pick is not None:
        if not 1 <= args.pick <= len(backups):
            raise UsageError(words("cli.restore.bad-pick", pick=args.pick, kata=kata.module, count=len(backups)))
        chosen = newest_first[args.pick - 1]
    else:
        work = [b for b in newest_first if not is_stub(b.read_bytes())]
        if not work:
            raise UsageError(words("cli.restore.only-stubs", kata=kata.module))
        chosen = work[0]
    content = chosen.read_bytes()
    if current == content:
        env.say(words("cli.restore.same", path=shown(env, path), backup=shown(env, chosen)))
        return Exit.OK
    if current is not None and not is_stub(current) and all(b.read_bytes() != current for b in backups):
        saved = backup_first(env, store, path, kata)
        env.say(words("cli.restore.backed-up", path=shown(env, saved)))
    atomic_write_bytes(path, content, env)
    env.say(words("cli.restore.done", path=shown(env, path), backup=shown(env, chosen)))
    from dojo.judge.runner import judge

    verdict = judge(env, kata, path.parent)
    record_verdict(store, kata, verdict, env, hashlib.sha256(content).hexdigest())
    env.say(words("cli.restore.judged", status=status_text(env, verdict.summary())))
    return Exit.OK
