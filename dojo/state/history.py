"""Interview history: ``.dojo/history.jsonl``, one JSON object per attempt (format in docs/state.md).

Appends are atomic (the whole file is rewritten through a temporary file and renamed). Lines
that cannot be read are set aside with the rest of a corrupt file, with a warning.
"""

from __future__ import annotations

import json
import math
import tempfile
from pathlib import Path

from dojo.catalogue.env import Env
from dojo.text.messages import t
from dojo.state.state import CannotWrite, atomic_write_text, loads, read_error, read_text, set_aside, where
from dojo.judge.verdict import migrate_summary


def history_path(env: Env) -> Path:
    return env.state_dir / "history.jsonl"


def finite(value) -> float | None:
    """``value`` when it is a finite number (not a bool), else None: odd fields show as —."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value if math.isfinite(value) else None


def read(env: Env) -> list[dict]:
    """Every record; a file that is not JSON lines of objects (or cannot be read) is set aside."""
    return _read(env)[0]


def _read(env: Env) -> tuple[list[dict], bool]:
    """(records, whether history.jsonl may be rewritten): False while an unreadable file that
    could not be moved aside is still in its place, which a rewrite would destroy."""
    path = history_path(env)
    records = []
    try:
        text = read_text(path)
        if text is None:
            return [], True
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            rec = loads(line)
            if not isinstance(rec, dict) or "kata" not in rec:
                raise ValueError(t("state.history.not-record", line=n))
            records.append(_migrated(rec))
    except (ValueError, OSError) as e:
        return [], set_aside(path, env, read_error(e)) is not None
    return records, True


def _migrated(rec: dict) -> dict:
    """A record written before verdicts kept ids (a first failure's title, a bug's
    description) in today's form; a loop's stages too. Written back on the next append."""
    rec = migrate_summary(rec, rec.get("kata") if isinstance(rec.get("kata"), str) else None)
    if isinstance(rec.get("stages"), list):
        rec["stages"] = [migrate_summary(st, st.get("kata") if isinstance(st.get("kata"), str) else None)
                         if isinstance(st, dict) else st for st in rec["stages"]]
    return rec


def append(env: Env, record: dict) -> Path | None:
    """Add ``record`` to history.jsonl. When that file cannot be written (or holds something
    unreadable that could not be moved aside), the record goes to a side file instead (in the
    state folder, else the system's temporary folder) and a warning names it; that path is
    returned. None: the record is in history.jsonl."""
    records, rewritable = _read(env)
    records.append(record)
    line = json.dumps(record, sort_keys=True) + "\n"
    problem = t("history.cannot-read", path=where(history_path(env), env))
    if rewritable:
        try:
            atomic_write_text(history_path(env), "".join(json.dumps(r, sort_keys=True) + "\n" for r in records), env)
            return None
        except CannotWrite as e:
            problem = e.strerror
    name = f"history-unsaved-{record.get('id') or 'record'}.jsonl"
    for folder in (env.state_dir, Path(tempfile.gettempdir())):
        side = folder / name
        try:
            atomic_write_text(side, line, env)
        except CannotWrite:
            continue
        env.warn(t("history.side-file", problem=problem, side=side, path=where(history_path(env), env)))
        return side
    env.warn(t("history.no-side-file", problem=problem, path=where(history_path(env), env), record=line.rstrip()))
    return None


def attempts(records: list[dict]) -> list[dict]:
    """One record per kata attempt, oldest first: a single interview's record as it is, and
    each stage of an interview loop (``"kind": "loop"``, its ``stages`` a list of records of the
    single-interview shape) as its own record, with ``"loop"`` set to the loop's id. Stages
    that are not objects with a ``kata`` are skipped (readers take what they understand)."""
    out = []
    for r in records:
        stages = r.get("stages")
        if r.get("kind") == "loop" and isinstance(stages, list):
            out += [{**s, "loop": r.get("id")} for s in stages if isinstance(s, dict) and "kata" in s]
        else:
            out.append(r)
    return out


def best_times(records: list[dict]) -> dict[str, float]:
    """Fastest passing interview time (seconds) per kata in ``records``, loop stages included."""
    best: dict[str, float] = {}
    for r in attempts(records):
        used, kata = finite(r.get("used_s")), r.get("kata")
        if r.get("outcome") == "passed" and used is not None and isinstance(kata, str):
            best[kata] = min(best.get(kata, math.inf), used)
    return best


def personal_bests(records: list[dict]) -> dict[str, dict]:
    """Per kata: attempts, passes, fastest passing time (s) and best score (None when none)."""
    bests: dict[str, dict] = {}
    for r in records:
        kata = r.get("kata")
        if not isinstance(kata, str):
            continue
        b = bests.setdefault(kata, {"attempts": 0, "passed": 0, "fastest": None, "best_score": None})
        b["attempts"] += 1
        used = finite(r.get("used_s"))
        if r.get("outcome") == "passed":
            b["passed"] += 1
            if used is not None:
                b["fastest"] = used if b["fastest"] is None else min(b["fastest"], used)
        score = finite(r.get("score"))
        if score is not None:
            b["best_score"] = score if b["best_score"] is None else max(b["best_score"], score)
    return bests


def attempt_folder(record: dict) -> str | None:
    """The attempt folder a record points to, relative to the state folder: its ``attempt``,
    else ``attempts/<id>``; None when it names neither."""
    folder, name = record.get("attempt"), record.get("id")
    if isinstance(folder, str) and folder:
        return folder
    if isinstance(name, str) and name:
        return f"attempts/{name}"
    return None


def personal_best_folders(records: list[dict]) -> set[str]:
    """The attempt folders (relative to the state folder) of each kata's personal bests, as
    ``personal_bests`` counts them over ``attempts(records)``: the attempt with the best score
    and the fastest pass (every one of them when several tie)."""
    flat = [r for r in attempts(records) if isinstance(r.get("kata"), str)]
    bests = personal_bests(flat)
    keep = set()
    for r in flat:
        b = bests[r["kata"]]
        score, used = finite(r.get("score")), finite(r.get("used_s"))
        best_score = score is not None and score == b["best_score"]
        fastest = r.get("outcome") == "passed" and used is not None and used == b["fastest"]
        if (best_score or fastest) and (folder := attempt_folder(r)) is not None:
            keep.add(folder)
    return keep


SPARKS = "▁▂▃▄▅▆▇█"


def sparkline(values: list[float], top: float | None = None) -> str:
    """One character per value, its height in proportion to ``top`` (default: the largest)."""
    top = top if top else max(values, default=0) or 1.0
    out = []
    for v in values:
        level = round(max(0.0, min(1.0, v / top)) * (len(SPARKS) - 1))
        out.append(SPARKS[level])
    return "".join(out)


def bar(fraction: float, width: int = 10) -> str:
    """``fraction`` of ``width`` cells filled, in eighths of a cell; the rest shaded (░); capped at full."""
    eighths = round(max(0.0, min(1.0, fraction)) * width * 8)
    full, part = divmod(eighths, 8)
    cells = "█" * full + (PARTS[part] if part else "")
    return cells + "░" * (width - len(cells))


PARTS = " ▏▎▍▌▋▊▉"
