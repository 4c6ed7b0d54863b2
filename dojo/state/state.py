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

import hashlib
import json
import math
import os
import time
from pathlib import Path

from dojo.text import safe_read
from dojo.catalogue.env import Env
from dojo.text.messages import t
from dojo.catalogue.stubs import BODY
from dojo.judge.verdict import migrate_summary

STATE_VERSION = 1


class CannotWrite(OSError):
    """A file the tool keeps could not be written (a full disk, a read-only folder, …)."""


def where(path: Path, env: Env | None = None) -> str:
    """``path`` as a person finds it: relative to the repository (``.dojo/state.json``,
    ``katas/softmax.py``) when it is inside, else in full."""
    path = Path(path)
    if env is not None:
        try:
            return str(path.relative_to(env.root))
        except ValueError:
            pass
    return str(path)


def reason(error: OSError) -> str:
    """``No space left on device`` rather than ``[Errno 28] No space left on device: '/x/y'``
    (in the tool's language, for the errors a person meets: a full disk, no permission, …)."""
    import errno as codes

    from dojo.text import locale

    name = codes.errorcode.get(error.errno or 0)
    if name and locale.LANGUAGE != "en":
        said = locale.lookup(f"os.{name}")
        if said:
            return said
    return error.strerror or str(error)


TMP_MARK = ".tmp"


def temp_name(path: Path, pid: int | None = None) -> Path:
    """The temporary name a write to ``path`` goes through: ``.<name>.tmp<pid>`` beside it."""
    return path.with_name(f".{path.name}{TMP_MARK}{os.getpid() if pid is None else pid}")


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def clean_stale_temps(folder: Path) -> None:
    """Remove ``.<name>.tmp<pid>`` files left by a writer that was killed (its process is gone)."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        if not name.startswith(".") or TMP_MARK not in name:
            continue
        pid = name.rsplit(TMP_MARK, 1)[1]
        if pid.isdigit() and int(pid) != os.getpid() and not _pid_alive(int(pid)):
            try:
                os.unlink(folder / name)
            except OSError:
                pass


def atomic_write_bytes(path: Path, data: bytes, env: Env | None = None) -> None:
    """Write ``data`` to ``path`` so that a crash, a kill or a full disk never leaves half a file.

    The data goes into an unnamed file in the same folder (Linux ``O_TMPFILE``: a kill leaves
    nothing behind), which gets a temporary name only for the instant before it is renamed over
    ``path``; elsewhere a ``.<name>.tmp<pid>`` file. Temporary files of writers that were killed
    are removed on the way. Any failure raises ``CannotWrite`` saying which file and why, and
    leaves ``path`` as it was, with no temporary file behind.
    """
    path = Path(path)
    tmp = temp_name(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        clean_stale_temps(path.parent)
        fd = None
        if hasattr(os, "O_TMPFILE"):
            try:
                fd = os.open(path.parent, os.O_TMPFILE | os.O_WRONLY, 0o644)
            except OSError:
                fd = None  # a file system without unnamed files: a named one then
        named = fd is None
        if named:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
            if not named:  # give the unnamed file its temporary name (linkat, following /proc's link)
                folder = os.open(path.parent, os.O_RDONLY)
                try:
                    os.link(f"/proc/self/fd/{fd}", tmp.name, dst_dir_fd=folder, follow_symlinks=True)
                finally:
                    os.close(folder)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise CannotWrite(e.errno, t("state.cannot-write", path=where(path, env), reason=reason(e))) from e


def atomic_write_text(path: Path, text: str, env: Env | None = None) -> None:
    atomic_write_bytes(path, text.encode("utf-8"), env)


def read_text(path: Path) -> str | None:
    """The file's text, None when there is no file; anything that is there but unreadable raises
    (``dojo.text.safe_read``: never blocks, bounded in size; a FIFO or a device is refused)."""
    return safe_read.read_text(path)


def loads(text: str):
    """A state file's JSON, its depth bounded before it is parsed (``dojo.text.safe_read``)."""
    return safe_read.loads(text)


def set_aside(path: Path, env: Env, why: str) -> Path | None:
    """Move an unreadable file out of the way (never delete it) and say so.

    When even that fails (a read-only folder), the file stays where it is, the warning says so,
    and the tool carries on without it.
    """
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(env.now()))
    aside = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while aside.exists() or aside.is_symlink():
        aside = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
        n += 1
    try:
        os.replace(path, aside)
    except OSError as e:
        env.warn(t("state.unreadable.kept", path=where(path, env), why=why, reason=reason(e)))
        return None
    env.warn(t("state.unreadable.moved", path=where(path, env), why=why, aside=aside.name))
    return aside


def read_error(e: Exception) -> str:
    """Why a state file could not be read, in a few words."""
    if isinstance(e, IsADirectoryError):
        return t("state.why.folder")
    if isinstance(e, safe_read.NotAFile):
        return t(f"state.why.{e.kind}")
    if isinstance(e, safe_read.TooLarge):
        return t("state.why.too-large", size=f"{e.limit // 2**20} MiB")
    if isinstance(e, safe_read.TooDeep):
        return t("state.why.too-deep", depth=e.limit)
    if isinstance(e, UnicodeDecodeError):
        return t("state.why.not-utf8")
    if isinstance(e, OSError):
        return reason(e)
    if isinstance(e, json.JSONDecodeError):
        return t("state.why.not-json", line=e.lineno, column=e.colno)
    return str(e)


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def state_problem(data) -> str | None:
    """What makes ``data`` not a state.json of the documented shape (None: it is one)."""
    if not isinstance(data, dict) or not isinstance(data.get("katas"), dict):
        return t("state.problem.not-state")
    if data.get("version") != STATE_VERSION:
        return t("state.problem.version", version=repr(data.get("version")))
    if not isinstance(data.get("welcomed", False), bool):
        return t("state.problem.not-bool", key="welcomed")
    for module, entry in data["katas"].items():
        if not isinstance(entry, dict):
            return t("state.problem.not-object", key=f"katas.{module}")
        for key in ("solved", "gave_up", "revealed"):
            if not isinstance(entry.get(key, False), bool):
                return t("state.problem.not-bool", key=f"katas.{module}.{key}")
        if not (_is_int(entry.get("hints_used", 0)) and entry.get("hints_used", 0) >= 0):
            return t("state.problem.not-count", key=f"katas.{module}.hints_used")
        verdict = entry.get("verdict")
        if verdict is None:
            continue
        if not isinstance(verdict, dict) or not isinstance(verdict.get("state"), str):
            return t("state.problem.not-verdict", key=f"katas.{module}.verdict")
        if not all(_is_int(verdict.get(k, 0)) and verdict.get(k, 0) >= 0 for k in ("passed", "total")):
            return t("state.problem.not-counts", key=f"katas.{module}.verdict")
        if not isinstance(verdict.get("first_failure"), (str, dict, type(None))):
            return t("state.problem.not-first-failure", key=f"katas.{module}.verdict.first_failure")
        if not isinstance(verdict.get("diagnosis"), (str, dict, type(None))):
            return t("state.problem.not-diagnosis", key=f"katas.{module}.verdict.diagnosis")
        at = verdict.get("at", 0)
        if isinstance(at, bool) or not isinstance(at, (int, float)) or not math.isfinite(at):
            return t("state.problem.not-time", key=f"katas.{module}.verdict.at")
        if not isinstance(verdict.get("sha256"), (str, type(None))):
            return t("state.problem.not-hash", key=f"katas.{module}.verdict.sha256")
    return None


#: A kata file larger than this is not read by the tool (the judge says what it makes of it).
KATA_FILE_LIMIT = safe_read.MAX_BYTES


def content_hash(path: Path) -> str | None:
    """The sha256 of a file's bytes (what a saved verdict is about); None when it cannot be read."""
    try:
        data = safe_read.read_bytes(path, limit=KATA_FILE_LIMIT)  # a FIFO there hung `dojo test`
    except (OSError, ValueError):
        return None
    return None if data is None else hashlib.sha256(data).hexdigest()


#: What ``Store.verdict_now`` says instead of a saved verdict that is not about the file now
#: (never stored: worked out from the file each time a verdict is shown or used).
CHANGED = "changed"  #: judged, and the file has changed since (or the saved verdict has no hash)
UNJUDGED = "unjudged"  #: no verdict saved, and the file is not the untouched stub
MISSING = "missing"  #: there is no file
UNREADABLE = "unreadable"  #: there is something, but it cannot be read (a folder, no permission)
NOW_STATES = (CHANGED, UNJUDGED, MISSING, UNREADABLE)
STUB_BODY = BODY.encode("utf-8")  #: how every stub ends


class Store:
    def __init__(self, env: Env):
        self.env = env
        self.dir = env.state_dir
        self.path = self.dir / "state.json"
        self._data: dict | None = None
        self.unsaved: str | None = None  # why the last save failed, once said
        self._stubs: dict[str, bytes | None] = {}
        self._untouched: dict[tuple[str, bytes], bool] = {}

    # -- state.json -------------------------------------------------------------------------
    def load(self) -> dict:
        if self._data is not None:
            return self._data
        data = {"version": STATE_VERSION, "welcomed": False, "katas": {}}
        try:
            text = read_text(self.path)
            if text is not None:
                loaded = loads(text)
                problem = state_problem(loaded)
                if problem:
                    raise ValueError(problem)
                data = loaded
                for module, entry in data["katas"].items():  # sentences from before ids
                    if isinstance(entry.get("verdict"), dict):
                        entry["verdict"] = migrate_summary(entry["verdict"], module)
        except (ValueError, OSError) as e:
            set_aside(self.path, self.env, read_error(e))
        self._data = data
        return data

    def save(self) -> bool:
        """Write state.json; on failure say why once (the command carries on) and return False."""
        if self._data is None:
            return True
        try:
            atomic_write_text(self.path, json.dumps(self._data, indent=1, sort_keys=True) + "\n", self.env)
        except CannotWrite as e:
            if self.unsaved is None:
                self.env.warn(t("state.not-saved", error=e.strerror))
            self.unsaved = e.strerror
            return False
        return True

    def kata(self, module: str) -> dict:
        entry = self.load()["katas"].setdefault(module, {})
        entry.setdefault("hints_used", 0)
        entry.setdefault("gave_up", False)
        entry.setdefault("revealed", False)
        entry.setdefault("solved", False)
        return entry

    def verdict_now(self, kata) -> dict | None:
        """What is true of ``kata``'s file now (``kata``: a ``registry.Kata``).

        The saved verdict, when the file still holds the bytes it was given (its ``sha256``);
        else None when the file is byte for byte the untouched stub (not started), or
        ``{"state": s}`` with ``s`` one of ``NOW_STATES``: a verdict that no longer belongs to
        the file is never shown or counted as passed or failing. Reads the file (cheap: no judge).
        """
        saved = self.kata(kata.module).get("verdict")
        try:
            data = safe_read.read_bytes(self.env.kata_file(kata), limit=KATA_FILE_LIMIT)
        except (OSError, ValueError):  # a folder, no permission, a FIFO, a device, over 8 MiB
            return {"state": UNREADABLE}
        if data is None:
            return {"state": MISSING}
        if isinstance(saved, dict) and saved.get("sha256") == hashlib.sha256(data).hexdigest():
            return saved
        if data.endswith(STUB_BODY) and self.untouched(kata, data):  # (deriving the stub parses a file)
            return None
        return {"state": CHANGED if isinstance(saved, dict) else UNJUDGED}

    def untouched(self, kata, data: bytes) -> bool:
        """Whether ``data`` is ``kata``'s untouched stub in any language (``dojo.catalogue.stubs.untouched``):
        the English one first, which needs no catalogue."""
        if data == self.stub(kata):
            return True
        key = (kata.module, data)
        if key not in self._untouched:
            from dojo.catalogue.stubs import untouched

            try:
                found = untouched(data.decode("utf-8"), self.env.solution_file(kata), kata.function)
            except (UnicodeDecodeError, OSError, SyntaxError, ValueError, StopIteration):
                found = None
            self._untouched[key] = found is not None
        return self._untouched[key]

    def stub(self, kata) -> bytes | None:
        """The kata's untouched stub (as ``dojo reset`` writes it); None when it cannot be derived."""
        if kata.module not in self._stubs:
            from dojo.catalogue.stubs import stub_source

            try:
                self._stubs[kata.module] = stub_source(self.env.solution_file(kata), kata.function).encode("utf-8")
            except (OSError, SyntaxError, ValueError, StopIteration):
                self._stubs[kata.module] = None
        return self._stubs[kata.module]

    # -- backups ----------------------------------------------------------------------------
    def backup(self, path: Path, module: str) -> Path | None:
        """Copy ``path`` to a new timestamped backup; returns where it went (None if no file).

        Raises ``CannotWrite`` when the copy cannot be made: then nothing may replace ``path``."""
        if not path.exists():
            return None
        folder = self.dir / "backups" / module
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(self.env.now()))
        target = folder / f"{stamp}.py"
        n = 1
        while target.exists():
            target = folder / f"{stamp}-{n}.py"
            n += 1
        atomic_write_bytes(target, path.read_bytes(), self.env)
        return target

    def backups(self, module: str) -> list[Path]:
        """This kata's backups, oldest first."""
        folder = self.dir / "backups" / module
        if not folder.is_dir():
            return []
        return sorted(folder.glob("*.py"), key=lambda p: (p.stat().st_mtime_ns, p.name))
