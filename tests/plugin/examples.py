"""Each property as it runs: its share of the kata's CPU budget, the watchdog's clock, a
failure's shrinking bounded, later failures of a kata not shrunk for the tool."""

from __future__ import annotations

import functools
import hashlib

import pytest
from hypothesis import Phase, settings

from dojo.worker.loader import KataTimeout
from tests.plugin.common import kata_of
from tests.plugin.profiles import SHRINK_EXAMPLES, SHRINK_SECONDS


def _fingerprint(value, h=None):
    """A hash of an example's data (arrays by their bytes), ignoring the judged function."""
    import numpy as np

    top = h is None
    h = h or hashlib.sha1()
    if isinstance(value, np.ndarray):
        h.update(f"{value.dtype.str}{value.shape}".encode())
        h.update(np.ascontiguousarray(value).tobytes())
    elif isinstance(value, dict):
        for k in sorted(value, key=str):
            h.update(str(k).encode())
            _fingerprint(value[k], h)
    elif isinstance(value, (list, tuple)):
        h.update(b"(")
        for v in value:
            _fingerprint(v, h)
        h.update(b")")
    elif isinstance(value, (int, float, str, bool, type(None), np.generic)):
        h.update(repr(value).encode())
    else:
        h.update(type(value).__name__.encode())
    return h.hexdigest() if top else None


def _bound_shrinking(item) -> None:
    """Once a property fails, shrink for at most SHRINK_EXAMPLES examples (or SHRINK_SECONDS)."""
    from hypothesis.errors import UnsatisfiedAssumption

    hyp = getattr(getattr(item, "obj", None), "hypothesis", None)
    if hyp is None or getattr(hyp.inner_test, "_dojo_bounded", False):
        return
    inner = hyp.inner_test
    state = {"since": None, "tried": 0, "failed": set()}

    def bounded(*args, **kwargs):
        import time

        from hypothesis import reject

        fingerprint = _fingerprint(kwargs)
        if hasattr(kwargs.get("kata"), "new_example"):
            kwargs["kata"].new_example()  # the calls of this example only
        # and what the candidate printed in this example only: Hypothesis runs the failing
        # input last, so the record's output is the failing case's (pytest's capture keeps all)
        item.config.dojo_printed = []
        if state["since"] is not None and fingerprint not in state["failed"]:
            state["tried"] += 1
            if state["tried"] > SHRINK_EXAMPLES or time.monotonic() - state["since"] > SHRINK_SECONDS:
                reject()  # out of tries: only the inputs that already failed are replayed
        try:
            return inner(*args, **kwargs)
        except (UnsatisfiedAssumption, KataTimeout):
            raise
        except Exception:
            if state["since"] is None:
                state["since"] = time.monotonic()
            state["failed"].add(fingerprint)
            raise

    # wraps: Hypothesis derives a derandomised test's examples from its source, so they stay
    # those of the property itself, not of this wrapper.
    bounded = functools.wraps(inner)(bounded)
    bounded._dojo_bounded = True
    hyp.inner_test = bounded


def pytest_runtest_setup(item):
    kata = kata_of(item)
    if getattr(item.config, "dojo_watchdog", None) is not None:
        # the deadline runs while a kata's properties run; other tests (the self-check, the
        # tool's) stop its clock
        item.config.dojo_watchdog.running(kata.module if kata else "", item.name)
    if kata is None:
        return
    item.config.dojo_printed = []
    remote = item.config.dojo_functions.get(kata.module)
    if remote is not None and hasattr(remote, "progress"):
        started = item.config.dojo_started[kata.module] = item.config.dojo_started.get(kata.module, 0) + 1
        mine = max(started, item.config.dojo_expected.get(kata.module, started))
        remote.share = mine / max(mine, item.config.dojo_all.get(kata.module, mine))
        remote.progress = lambda: (started - 0.5) / mine  # this property half done, on average
    _bound_shrinking(item)
    if kata.module in item.config.dojo_hung:
        from dojo.text.messages import message, text

        item._dojo_skipped = message("candidate.hung-before", kata=kata.module)
        pytest.skip(text(item._dojo_skipped))
    if kata.module in item.config.dojo_failed and item.config.getoption("--dojo-json"):
        # The tool shows the first failure in full and only names the others, so their
        # inputs need not be shrunk: that keeps a wrong answer's verdict about as quick as a
        # right one's. (Plain pytest still shrinks every failure.)
        test = getattr(item, "obj", None)
        current = getattr(test, "_hypothesis_internal_use_settings", None)
        if current is not None and not getattr(test, "_hypothesis_internal_settings_applied", False):
            item.obj = settings(current, phases=[p for p in current.phases if p != Phase.shrink])(test)
