"""What the warm judge (``dojo/judge/judge_server.py``) imports once, so that its forks do not:
``first`` before it listens (pytest, Hypothesis, NumPy, torch, the judge's modules and what
each fork's pytest would import), ``later`` after its first verdict, while the user reads it
(what only some katas' oracles need, and is slow to import). Each ends by freezing what is
imported, so a fork's garbage collections skip it.
"""

from __future__ import annotations

import sys
from pathlib import Path


def first(root: Path) -> None:
    """The expensive imports, paid once, before the first request."""
    sys.path.insert(0, str(root))
    import importlib

    import hypothesis  # noqa: F401
    import numpy  # noqa: F401
    import pytest  # noqa: F401

    from tests import oracle

    oracle.torch()
    # Not the katas' test modules: ``@given`` takes the settings in force when it decorates,
    # and the child's pytest chooses the profile (practice, CI, thorough) only when it starts.
    try:
        from tests.plugin import PARTS  # what conftest.py registers
    except ImportError:
        PARTS = ()
    # and what every fork's pytest imported on its own (about 0.04 s a fork, docs/benchmarks.md):
    # plugins loaded by entry point or by default, and the verdict's writer
    imported_by_each_fork = ("pdb", "numpy.random", "platformdirs", "execnet", "xdist", "xdist.plugin",
                             "xdist.looponfail", "_pytest.junitxml", "_pytest.skipping", "_pytest.unittest",
                             "_pytest.unraisableexception", "dojo.screens.results", "dojo.screens.render",
                             "dojo.catalogue.batteries", "_hypothesis_pytestplugin", "platformdirs.pytest_plugin",
                             "faulthandler", "readline", "resource", "dojo.text.lang", "dojo.worker.sandbox",
                             "dojo.worker.memory")
    try:  # each kata's battery (its largest realistic case) and tolerance
        from dojo.catalogue import registry

        imported_by_each_fork += tuple(f"dojo.catalogue.katas.{k.module}.{part}" for k in registry.KATAS
                                       for part in ("battery", "tolerance"))
    except Exception:  # noqa: BLE001 - as below
        pass
    for name in ("conftest", *PARTS, "tests.judge", "tests.strategies", "tests.contract", "tests.sizes",
                 "dojo.judge.diagnosis", *imported_by_each_fork):
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - the child imports it again and reports what is wrong
            pass
    local_constants()
    freeze()


#: Imported after the first verdict, while the user reads it: what some katas' oracles need
#: and every fork would otherwise import again (flash and paged attention build torch's own
#: causal_lower_right bias, whose module imports torch._dynamo: 1.0-1.3 s a fork).
LATER = ("torch.nn.attention.bias",)


def later() -> None:
    import importlib

    for name in LATER:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - the child imports it again and reports what is wrong
            pass
    local_constants()
    freeze()


def local_constants() -> None:
    """Let Hypothesis read the constants of every module imported so far, here, once.

    Hypothesis mixes the literals of the user's own modules into what it draws, and reads
    them again whenever a new module has been imported since it last looked: in a fork of a
    judge that never looked, that is every one of about 2200 modules, 0.13 s of each verdict
    child's time (docs/benchmarks.md). Called before a fork, the child only reads the few
    modules imported after it. Private API, so any failure is ignored: the child reads them
    itself, as before.
    """
    try:
        from hypothesis.internal.conjecture.providers import _get_local_constants

        _get_local_constants()
    except Exception:  # noqa: BLE001 - an older or newer Hypothesis: nothing to gain here
        pass


def freeze() -> None:
    import gc

    # Everything imported so far is permanent: a child's garbage collections (pytest runs
    # several at its end) skip it, 0.3 s each time with torch loaded, and its pages stay shared.
    gc.freeze()
