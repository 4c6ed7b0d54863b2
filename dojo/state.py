"""The tool's state: one small folder (``.dojo/`` by default, ignored by git).

Layout (documented in docs/state.md):

    .dojo/state.json         last verdict, hints used, give-ups and reveals, per kata
    .dojo/history.jsonl      one JSON object per interview attempt (``dojo interview``)
    .dojo/backups/<kata>/    a copy of your file before anything replaced it
    .dojo/attempts/          interview attempt files
    .dojo/cache/             the torch oracle's memoised answers (safe to delete)

Every write goes to a temporary file first and is renamed over the old one, so a crash never
leaves half a file. A file that cannot be read back is moved aside with a warning and the
tool carries on from an empty state.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

from dojo.env import Env

STATE_VERSION = 1


def atomic_write_text(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def set_aside(path: Path, env: Env, why: str) -> Path:
    """Move an unreadable file out of the way (never delete it) and say so."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(env.now()))
    aside = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while aside.exists():
        aside = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
        n += 1
    os.replace(path, aside)
    env.warn(f"warning: {path} could not be read ({why}); moved it to {aside.name} and started afresh.")
    return aside


class Store:
    def __init__(self, env: Env):
        self.env = env
        self.dir = env.state_dir
        self.path = self.dir / "state.json"
        self._data: dict | None = None

    # -- state.json -------------------------------------------------------------------------
    def load(self) -> dict:
        if self._data is not None:
            return self._data
        data = {"version": STATE_VERSION, "welcomed": False, "katas": {}}
        if self.path.exists():
            try:
                loaded = json.loads(self.path.read_text(encoding="utf-8"))
                if not isinstance(loaded, dict) or not isinstance(loaded.get("katas"), dict):
                    raise ValueError("not a dojo state object")
                if loaded.get("version") != STATE_VERSION:
                    raise ValueError(f"unknown version {loaded.get('version')!r}")
                data = loaded
            except (ValueError, OSError, UnicodeDecodeError) as e:
                set_aside(self.path, self.env, str(e))
        self._data = data
        return data

    def save(self) -> None:
        if self._data is not None:
            atomic_write_text(self.path, json.dumps(self._data, indent=1, sort_keys=True) + "\n")

    def kata(self, module: str) -> dict:
        entry = self.load()["katas"].setdefault(module, {})
        if not isinstance(entry, dict):
            entry = self.load()["katas"][module] = {}
        entry.setdefault("hints_used", 0)
        entry.setdefault("gave_up", False)
        entry.setdefault("revealed", False)
        entry.setdefault("solved", False)
        return entry

    # -- backups ----------------------------------------------------------------------------
    def backup(self, path: Path, module: str) -> Path | None:
        """Copy ``path`` to a new timestamped backup; returns where it went (None if no file)."""
        if not path.exists():
            return None
        folder = self.dir / "backups" / module
        folder.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(self.env.now()))
        target = folder / f"{stamp}.py"
        n = 1
        while target.exists():
            target = folder / f"{stamp}-{n}.py"
            n += 1
        tmp = target.with_name(f".{target.name}.tmp")
        shutil.copyfile(path, tmp)
        os.replace(tmp, target)
        return target

    def backups(self, module: str) -> list[Path]:
        folder = self.dir / "backups" / module
        if not folder.is_dir():
            return []
        return sorted(folder.glob("*.py"), key=lambda p: (p.stat().st_mtime_ns, p.name))
