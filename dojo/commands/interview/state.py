"""The open interview, as data: what ``.dojo/interview.json`` holds, and the one place it is
read, checked and written.

An open interview is a `Session`: its queue of problems (`Entry`: a kata and its time limit),
the index of the one it is at, the running problem (`Problem`, or None between problems) and,
for an interview loop (``dojo interview --loop``), the `Loop` the stages share a clock in.
The file is JSON (format in docs/state.md); a file that cannot be read or resumed is set
aside with a warning, never trusted and never deleted.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from pathlib import Path

from dojo.state import history
from dojo.catalogue import registry
from dojo.catalogue.env import Env
from dojo.state.state import CannotWrite, atomic_write_text, loads, read_error, read_text, reason, set_aside, where

SESSION_VERSION = 1


@dataclass
class Entry:
    """One problem of the queue: a kata and its time limit (seconds)."""

    kata: str
    limit_s: float


@dataclass
class Problem:
    """The running problem: one kata attempt and its clock.

    ``elapsed_s`` is interview time (in a loop: the loop's clock, which every stage shares),
    saved once a second with ``tick_wall``, the wall-clock time of that save (see
    docs/interview.md for why both). ``seen``/``judged`` are hashes of the attempt file as
    last seen before the deadline and as last judged; ``verdict`` is that judge run's summary."""

    id: str
    kata: str
    folder: str  #: the attempt folder, relative to the state folder
    limit_s: float
    started_at: float
    elapsed_s: float = 0.0
    tick_wall: float = 0.0
    closed_s: float = 0.0
    resumed: int = 0
    hints: int = 0
    judge_runs: int = 0
    warned: list = field(default_factory=list)
    seen: str | None = None
    judged: str | None = None
    verdict: dict | None = None
    #: a loop stage: the clock when it started (its time used is counted from there)
    stage_start_s: float = 0.0
    #: hash of the file the attempt started as, when that is not the bare stub (a loop stage
    #: starts with the earlier stages' code above the stub; kept in ``.start.py``)
    start: str | None = None


@dataclass
class Loop:
    """An interview loop: one clock for a chain of stages (the queue), and the stages done."""

    id: str
    started_at: float
    limit_s: float
    stages: list = field(default_factory=list)  #: the records of the stages that ended
    elapsed_s: float = 0.0  #: the clock when the last stage ended
    #: what the judge checked in each stage's graded copy, by stage number ("1", "2" …): the
    #: verdict summary's ``properties`` ([id, passed, category]), for the report at the end
    checked: dict = field(default_factory=dict)


@dataclass
class Session:
    queue: list[Entry]
    index: int = 0
    current: Problem | None = None
    coach: bool = False
    watch: bool = True
    loop: Loop | None = None
    version: int = SESSION_VERSION
    #: the records of the problems that ended (not a loop's: its stages are in ``loop``), for
    #: the summary of a several-problem interview
    done: list = field(default_factory=list)

    @property
    def entry(self) -> Entry:
        return self.queue[self.index]

    def to_json(self) -> dict:
        data = dataclasses.asdict(self)
        if self.loop is None:
            del data["loop"]
        return data


# -- reading: every field checked, so a resumed interview never trips over the file ----------


def seconds(value, what: str, positive: bool = False) -> float:
    """A finite, non-negative number of seconds (more than 0 if ``positive``)."""
    v = history.finite(value)
    if v is None or v < 0 or (positive and v <= 0):
        raise ValueError(f"{what} is not a number of seconds")
    return float(v)


def count(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{what} is not a count")
    return value


def inside(env: Env, relative) -> Path:
    """``state_dir / relative``, refusing any path that would lead out of the state folder."""
    if not isinstance(relative, str) or not relative or Path(relative).is_absolute():
        raise ValueError(f"folder {relative!r} is not a path inside the state folder")
    base = env.state_dir.resolve()
    path = (base / relative).resolve()
    if path == base or base not in path.parents:
        raise ValueError(f"folder {relative!r} leads outside the state folder")
    return path


def _hash(value, what: str) -> str | None:
    if value is not None and not isinstance(value, str):
        raise ValueError(f"{what} is not a hash")
    return value


def _problem(env: Env, data) -> Problem:
    if not isinstance(data, dict):
        raise ValueError("the running problem is not an object")
    warned = data.get("warned", [])
    if not isinstance(warned, list):
        raise ValueError("warned is not a list")
    verdict = data.get("verdict")
    if verdict is not None and not isinstance(verdict, dict):
        raise ValueError("verdict is not an object")
    inside(env, data["folder"])
    return Problem(
        id=str(data["id"]), kata=registry.get(data["kata"]).module, folder=data["folder"],
        limit_s=seconds(data["limit_s"], "limit_s", positive=True),
        started_at=seconds(data.get("started_at", 0.0), "started_at"),
        **{k: seconds(data.get(k, 0.0), k) for k in ("elapsed_s", "tick_wall", "closed_s", "stage_start_s")},
        **{k: count(data.get(k, 0), k) for k in ("hints", "judge_runs", "resumed")},
        warned=[w for w in warned if isinstance(w, str)],
        seen=_hash(data.get("seen"), "seen"), judged=_hash(data.get("judged"), "judged"), verdict=verdict,
        start=_hash(data.get("start"), "start"),
    )


def _loop(data) -> Loop:
    if not isinstance(data, dict) or not isinstance(data.get("stages", []), list):
        raise ValueError("loop is not an interview loop")
    if not all(isinstance(s, dict) and "kata" in s for s in data.get("stages", [])):
        raise ValueError("a stage of the loop is not a record")
    return Loop(id=str(data["id"]), started_at=seconds(data.get("started_at", 0.0), "started_at"),
                limit_s=seconds(data["limit_s"], "the loop's time limit", positive=True),
                stages=list(data.get("stages", [])), elapsed_s=seconds(data.get("elapsed_s", 0.0), "elapsed_s"),
                checked=_checked(data.get("checked")))


def _checked(value) -> dict:
    """A loop's ``checked``: only what reads as stage number → list (the report skips the rest)."""
    if not isinstance(value, dict):
        return {}
    return {k: v for k, v in value.items() if isinstance(k, str) and isinstance(v, list)}


def from_json(env: Env, data) -> Session:
    """The session ``data`` describes; ValueError says why it cannot be resumed."""
    try:
        if not isinstance(data, dict) or data.get("version") != SESSION_VERSION:
            raise ValueError("not a dojo interview (or an unknown version)")
        queue, index = data.get("queue"), data.get("index")
        if not isinstance(queue, list) or not queue:
            raise ValueError("no problems in its queue")
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(queue):
            raise ValueError(f"index {index!r} is not a problem of its queue")
        entries = [Entry(registry.get(e["kata"]).module, seconds(e["limit_s"], "a time limit", positive=True))
                   for e in queue]
        current = None if data.get("current") is None else _problem(env, data["current"])
        if current is not None and current.kata != entries[index].kata:
            raise ValueError("the running problem is not the one its queue is at")
        loop = None if data.get("loop") is None else _loop(data["loop"])
        done = data.get("done", [])
        if not isinstance(done, list) or not all(isinstance(r, dict) and "kata" in r for r in done):
            raise ValueError("done is not a list of records")
        return Session(queue=entries, index=index, current=current, coach=bool(data.get("coach", False)),
                       watch=bool(data.get("watch", True)), loop=loop, done=done)
    except (KeyError, TypeError, AttributeError) as e:
        raise ValueError(f"missing or odd field {e}") from None


# -- the file ---------------------------------------------------------------------------------


def session_path(env: Env) -> Path:
    return env.state_dir / "interview.json"


def load(env: Env) -> Session | None:
    """The open interview, or None. One that cannot be read or resumed is set aside with a warning."""
    path = session_path(env)
    try:
        text = read_text(path)
        if text is None:
            return None
        data = loads(text)
        try:
            return from_json(env, data)
        except ValueError as e:
            raise ValueError(_words("interview.state.cannot-resume", reason=e)) from None
    except (ValueError, OSError) as e:
        set_aside(path, env, read_error(e))
        return None


def save(env: Env, session: Session) -> None:
    """Persist the running interview; when that fails the interview goes on (said once)."""
    try:
        atomic_write_text(session_path(env), json.dumps(session.to_json(), indent=1, sort_keys=True) + "\n", env)
    except CannotWrite as e:
        env.warn_once(_words("interview.state.cannot-save", error=e.strerror))


def clear(env: Env) -> None:
    try:
        session_path(env).unlink(missing_ok=True)
    except OSError as e:
        env.warn(_words("interview.state.cannot-remove", path=where(session_path(env), env), error=reason(e)))


def _words(id: str, **params) -> str:
    from dojo.commands.cli.common import words

    return words(id, **params)
