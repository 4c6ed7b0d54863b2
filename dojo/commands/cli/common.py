"""What every command uses: exit codes, the usage error, the argument types, paths as shown,
the next kata to do, and asking y/N on a terminal."""

from __future__ import annotations

import argparse
import enum
import math
from pathlib import Path

from dojo.catalogue import registry
from dojo.catalogue.env import Env
from dojo.state.state import Store


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
        raise UsageError(words("cli.usage.kata-number", n=n, count=len(registry.KATAS), katas=words(
            "cli.join.list").join(f"{i} {k.module}" for i, k in enumerate(registry.KATAS, 1))))
    try:
        return registry.get(name)
    except registry.UnknownKata as e:
        hint = (words("cli.usage.did-you-mean", names=words("cli.join.or").join(repr(c) for c in e.suggestions))
                if e.suggestions else "")
        raise UsageError(words("cli.usage.no-kata", name=repr(name), hint=hint,
                               katas=words("cli.join.list").join(registry.BY_MODULE))) from None


def number(low: float, high: float, unit: str, low_open: bool = False):
    """An argparse type: a finite number in [low, high] (or (low, high] with ``low_open``).

    nan, inf, 1e308 and negative values are usage errors (exit 2) before anything is written."""
    def parse(text: str) -> float:
        from dojo.text import locale

        named = words(f"cli.unit.{unit}") if locale.has(f"cli.unit.{unit}") else unit
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(words("cli.number.not-a-number", text=repr(text), unit=named)) from None
        below = value <= low if low_open else value < low
        if not math.isfinite(value) or below or value > high:
            lower = words("cli.number.more-than" if low_open else "cli.number.at-least", low=f"{low:g}")
            raise argparse.ArgumentTypeError(words("cli.number.range", text=repr(text), unit=named, lower=lower,
                                                   high=f"{high:g}"))
        return value
    parse.__name__ = unit  # what argparse calls the type in its messages
    return parse


def shown(env: Env, path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def words(id: str, **params) -> str:
    """A sentence of the message catalogue (``dojo/text/messages.py``), in the tool's language."""
    from dojo.text.messages import message, text

    return text(message(id, **params))


def styled(env: Env, id: str, styles: dict[str, str], hang: int | None = None, **params):
    """A catalogue sentence as a ``screen.line`` whose parameters named in ``styles`` are runs
    of their own (``{"kata": "bold", "command": "keep"}``): the words around them stay the
    language's, wherever it puts them."""
    from dojo.text.screen import line

    marked = words(id, **{k: (f"\x00{k}\x00" if k in styles else v) for k, v in params.items()})
    runs = []
    for i, piece in enumerate(marked.split("\x00")):
        if i % 2:
            runs.append((str(params[piece]), styles[piece]))
        elif piece:
            runs.append(piece)
    return line(env, *runs, hang=hang)


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
        raise UsageError(words("cli.confirm.no-terminal", question=question))
    print(words("cli.confirm.prompt", question=question), end="", file=env.stdout, flush=True)
    answer = env.stdin.readline().strip().lower()
    return answer in ("y", "yes")
