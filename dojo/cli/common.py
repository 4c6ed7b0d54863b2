"""What every command uses: exit codes, the usage error, the argument types, paths as shown,
the next kata to do, and asking y/N on a terminal."""

from __future__ import annotations

import argparse
import enum
import math
from pathlib import Path

from dojo import registry
from dojo.env import Env
from dojo.state import Store


class Exit(enum.IntEnum):
    OK = 0
    FAILED = 1
    USAGE = 2
    INTERNAL = 3
    INTERRUPTED = 130


class UsageError(Exception):
    """Something the user asked for that cannot be done as asked."""


def kata_arg(name: str) -> registry.Kata:
    """A kata by its name, or by its number in the progress table (``dojo test 2``)."""
    if name.isdigit():
        n = int(name)
        if 1 <= n <= len(registry.KATAS):
            return registry.KATAS[n - 1]
        raise UsageError(f"no kata number {n}: the katas are numbered 1 to {len(registry.KATAS)} "
                         f"({', '.join(f'{i} {k.module}' for i, k in enumerate(registry.KATAS, 1))}).")
    try:
        return registry.get(name)
    except registry.UnknownKata as e:
        raise UsageError(str(e)) from None


def number(low: float, high: float, unit: str, low_open: bool = False):
    """An argparse type: a finite number in [low, high] (or (low, high] with ``low_open``).

    nan, inf, 1e308 and negative values are usage errors (exit 2) before anything is written."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of {unit}") from None
        below = value <= low if low_open else value < low
        if not math.isfinite(value) or below or value > high:
            lower = f"more than {low:g}" if low_open else f"at least {low:g}"
            raise argparse.ArgumentTypeError(f"{text!r}: give a number of {unit}, {lower} and at most {high:g}")
        return value
    parse.__name__ = unit  # what argparse calls the type in its messages
    return parse


def shown(env: Env, path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def words(id: str, **params) -> str:
    """A sentence of the message catalogue (``dojo/messages.py``), in the tool's language."""
    from dojo.messages import message, text

    return text(message(id, **params))


def state_now(store: Store, kata: registry.Kata) -> str | None:
    """The state of ``kata``'s file now (``Store.verdict_now``): None when not started."""
    return (store.verdict_now(kata) or {}).get("state")


def next_kata(store: Store) -> registry.Kata | None:
    """The first kata, in the registry's order, whose file does not pass as it is now."""
    for k in registry.KATAS:
        if state_now(store, k) != "passed":
            return k
    return None


def current_kata(store: Store) -> registry.Kata | None:
    """The kata you are on: the one judged most recently, unless its file passes as it is now;
    else the next to do (``dojo hint`` and ``dojo test`` without a kata)."""
    judged = [(entry["verdict"].get("at") or 0, k) for k in registry.KATAS
              if isinstance((entry := store.kata(k.module)).get("verdict"), dict)]
    judged = [(at, k) for at, k in judged if isinstance(at, (int, float))]
    if judged:
        _, latest = max(judged, key=lambda pair: pair[0])
        if state_now(store, latest) != "passed":
            return latest
    return next_kata(store)


def confirm(env: Env, question: str) -> bool:
    if not env.stdin or not env.stdin.isatty():
        raise UsageError(f"{question} Not asking without a terminal: add --yes to go ahead.")
    print(f"{question} [y/N] ", end="", file=env.stdout, flush=True)
    answer = env.stdin.readline().strip().lower()
    return answer in ("y", "yes")
