"""How the dojo tool's processes share one kata's properties (``--dojo-shard K/N``).

The tool judges a kata in N processes at once, one a core. Each collects every property and,
just before running one, claims it: the first process to create the property's claim file in
the verdict's own folder (the folder of its ``--dojo-json`` report, which the tool makes afresh
for each verdict) runs it; the others pass it by and report nothing for it. So each process
takes the next unclaimed property as soon as it is free, and one that drew the costly
properties no longer keeps the others waiting with nothing to do (with every N-th property
fixed ahead, the two halves of a kata took 0.2 to 0.4 s and the verdict waited for the longer).

- **Nothing lost.** The first process owes every property in its report, the others none: a
  verdict whose reports hold fewer records than that is "incomplete", as a run that ended early
  always was. A process that claims a property and dies before reporting it leaves the verdict
  without that record: incomplete, never passed.
- **Budgets.** A process's part of the kata's CPU budget is what it claimed, and never less
  than an even share (``tests/plugin/examples.py``).
- **By hand.** Without a report (``pytest --dojo-shard 0/2`` typed in a terminal), every N-th
  property from the K-th, as before.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.plugin.common import kata_of


def split(config, items) -> None:
    """After collection (``items`` in the judge's order, each with its ``_dojo_index``): with a
    report, mark the properties to be claimed; without one, keep every N-th."""
    config.dojo_claims = None
    shard = config.getoption("--dojo-shard")
    if not shard:
        return
    k, n = (int(s) for s in shard.split("/"))
    report = config.getoption("--dojo-json")
    if report and n > 1:
        config.dojo_claims = (k, n, Path(report).parent)
        return
    kept = [it for it in items if _unsplit(it) or it._dojo_index % n == k]
    config.hook.pytest_deselected(items=[it for it in items if it not in kept])
    items[:] = kept


def owed(config, per_kata: dict) -> dict:
    """What this process's report says it owes: with claims, every property for the first
    process and none for the others (the properties it ran are its records)."""
    claims = getattr(config, "dojo_claims", None)
    if claims is None:
        return per_kata
    return dict(config.dojo_all) if claims[0] == 0 else {}


def share(config, kata: str, started: int) -> float:
    """This process's part of ``kata``'s properties, after it started ``started`` of them."""
    every = max(1, config.dojo_all.get(kata, started))
    claims = getattr(config, "dojo_claims", None)
    if claims is None:
        mine = max(started, config.dojo_expected.get(kata, started))
    else:
        mine = max(started, -(-every // claims[1]))
    return min(1.0, mine / max(mine, every))


def _unsplit(item) -> bool:
    """A line that stands for a whole kata (a file that cannot be judged): every process reports it."""
    return not isinstance(item, pytest.Function)


def _claim(folder: Path, item) -> bool:
    """Whether this process is the first to claim ``item`` (a file created exclusively)."""
    try:
        fd = os.open(folder / f"claim-{item._dojo_index}", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return False
    except OSError:  # the folder is gone or unwritable: run it (a duplicate record is kept once)
        return True
    os.close(fd)
    return True


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item, nextitem):
    claims = getattr(item.config, "dojo_claims", None)
    if claims is None or _unsplit(item):
        return None
    if not _claim(claims[2], item):
        return True  # another process runs it: nothing to run or report here
    kata = kata_of(item)
    if kata is not None:  # this process owes its record now
        item.config.dojo_expected[kata.module] = item.config.dojo_expected.get(kata.module, 0) + 1
    return None
