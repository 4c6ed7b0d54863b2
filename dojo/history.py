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


def personal_bests(records: list[dict]) -> dict[str, dict]:
    """Per kata: attempts, passes, fastest passing time (s) and best score (None when none)."""
    bests: dict[str, dict] = {}
    for r in records:
        kata = r.get("kata")
        if not isinstance(kata, str):
            continue
        b = bests.setdefault(kata, {"attempts": 0, "passed": 0, "fastest": None, "best_score": None})
        b["attempts"] += 1
        used = r.get("used_s")
        if r.get("outcome") == "passed" and isinstance(used, (int, float)):
            b["passed"] += 1
            b["fastest"] = used if b["fastest"] is None else min(b["fastest"], used)
        score = r.get("score")
        if isinstance(score, (int, float)) and not isinstance(score, bool):
            b["best_score"] = score if b["best_score"] is None else max(b["best_score"], score)
    return bests


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
