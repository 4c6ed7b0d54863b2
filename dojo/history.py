"""Interview history: ``.dojo/history.jsonl``, one JSON object per attempt (format in docs/state.md).

Appends are atomic (the whole file is rewritten through a temporary file and renamed). Lines
that cannot be read are set aside with the rest of a corrupt file, with a warning.
"""

from __future__ import annotations

import json
from pathlib import Path

from dojo.env import Env
from dojo.state import atomic_write_text, set_aside


def history_path(env: Env) -> Path:
    return env.state_dir / "history.jsonl"


def read(env: Env) -> list[dict]:
    path = history_path(env)
    if not path.exists():
        return []
    records = []
    try:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            rec = json.loads(line)
            if not isinstance(rec, dict) or "kata" not in rec:
                raise ValueError(f"line {n} is not an attempt record")
            records.append(rec)
    except (ValueError, UnicodeDecodeError) as e:
        set_aside(path, env, str(e))
        return []
    return records


def append(env: Env, record: dict) -> None:
    records = read(env)
    records.append(record)
    atomic_write_text(history_path(env), "".join(json.dumps(r, sort_keys=True) + "\n" for r in records))


def best_times(env: Env) -> dict[str, float]:
    """Fastest passing interview time (seconds) per kata."""
    best: dict[str, float] = {}
    for r in read(env):
        if r.get("outcome") == "passed" and isinstance(r.get("used_s"), (int, float)):
            best[r["kata"]] = min(best.get(r["kata"], float("inf")), r["used_s"])
    return best
