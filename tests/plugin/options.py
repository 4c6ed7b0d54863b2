"""The judge's command-line options, and what a session sets up from them: the implementation
under test, the screen's language, the run's seed and example database, the sandbox's zygote."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

from tests.plugin.common import ROOT


def pytest_addoption(parser):
    group = parser.getgroup("dojo", "attention dojo")
    group.addoption(
        "--impl",
        default="katas",
        help="folder whose kata modules are judged: katas (default, your work), solutions, or a path",
    )
    group.addoption(
        "--kata-timeout",
        type=float,
        default=2.0,
        help="seconds of CPU time one call into the judged code may take (default 2)",
    )
    group.addoption("--dojo-json", default=None, help="write per-property verdicts to this JSON file")
    group.addoption(
        "--kata-deadline",
        type=float,
        default=float(os.environ.get("DOJO_KATA_DEADLINE", 0) or 0) or None,
        help="seconds one kata's properties may take in all before the judge is stopped: a "
        "backstop for the judge itself, since every call into the candidate's code has its own "
        "CPU limit (default: 120 s plus 1 s per example of the profile)",
    )
    group.addoption(
        "--contributors", action="store_true", default=False,
        help="run the contributors' suite instead: hostile files, live terminals, the thorough "
        "profile on several seeds (CI runs it after the README's test line)",
    )
    group.addoption(
        "--dojo-shard", default=None,
        help="K/N: run only every N-th property from the K-th (the dojo tool splits a kata across cores)",
    )


#: Workers the contributors' suite adds under ``-n auto`` beyond one a core: one a core more, at
#: most this many (each worker holds torch and starts judges: memory). Much of the suite waits
#: (hostile files that sleep or hang until a limit, subprocesses starting, kernels, terminals):
#: on two cores four workers took 23.6 minutes where two took 29 (docs/benchmarks.md). The
#: README's line keeps one a core.
EXTRA_CONTRIBUTORS_WORKERS = 4


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config):
    """``-n auto`` for ``--contributors``: two workers a core, at most EXTRA_CONTRIBUTORS_WORKERS
    more than cores (pytest-xdist's own variable, ``PYTEST_XDIST_AUTO_NUM_WORKERS``, still
    decides when set); otherwise xdist's one a core."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS") or not config.getoption("--contributors"):
        return None
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    cores = max(1, cores)
    return cores + min(cores, EXTRA_CONTRIBUTORS_WORKERS)


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "contributors: part of the contributors' suite (--contributors), not of the README's test line",
    )
    config.addinivalue_line(
        "markers",
        "smoke: a test of the tool (tests/tool/, a kata's test_tool.py) that the README's test line "
        "runs too, as the tool's end-to-end smoke; the tool's other tests are the contributors'",
    )
    raw = config.getoption("--impl")
    impl = Path(raw) if Path(raw).is_absolute() else (Path.cwd() / raw)
    if not impl.is_dir() and (ROOT / raw).is_dir():
        impl = ROOT / raw
    _choose_language()
    if not impl.is_dir():
        from dojo.text.messages import t

        raise pytest.UsageError(t("pytest.no-impl", impl=raw))
    impl = impl.resolve()
    config.dojo_impl = impl
    config.dojo_is_reference = impl == (ROOT / "solutions").resolve()
    config.dojo_functions = {}
    config.dojo_remotes = []
    config.dojo_started = {}
    config.dojo_sandbox = None
    config.dojo_hung = set()
    config.dojo_failed = set()
    config.dojo_records = []
    config.dojo_printed = []
    from tests import seeding

    state_dir = Path(os.environ.get("DOJO_STATE_DIR") or ROOT / ".dojo")
    database = seeding.example_database(state_dir, impl)
    for name in ("dojo", "thorough"):
        settings.register_profile(name, parent=settings.get_profile(name), database=database)
    if not config.getoption("hypothesis_profile", None):
        settings.load_profile("dojo-ci" if seeding.in_ci() else "dojo")
    else:
        settings.load_profile(config.getoption("hypothesis_profile"))
    config.dojo_seed, config.dojo_seed_given = seeding.choose(config)
    if config.pluginmanager.hasplugin("xdist") and not hasattr(config, "workerinput"):
        config.pluginmanager.register(seeding.ToWorkers(config.dojo_seed), "dojo-run-seed")
    from dojo.worker import sandbox

    if os.environ.get("DOJO_DIE_WITH", "").isdigit():  # started by the dojo tool: end with it
        sandbox.die_with_parent(parent=int(os.environ["DOJO_DIE_WITH"]))
    # A process the candidate's code leaves behind (where no seccomp stops it) becomes the
    # judge's child if its own parent dies, and is killed at the end of the session.
    sandbox.become_subreaper()
    if not (getattr(config.option, "numprocesses", None) and not hasattr(config, "workerinput")):
        from dojo.worker.workers import Zygote

        Zygote.shared()  # the process that runs the candidates' code starts while pytest collects
    config.dojo_watchdog = None
    config.dojo_pending = []



def _choose_language() -> None:
    from dojo.text import lang, locale

    try:  # plain pytest speaks the language dojo would (DOJO_LANG, `dojo lang`, the locale)
        locale.set_language(lang.choose(None, state_dir=Path(os.environ.get("DOJO_STATE_DIR") or ROOT / ".dojo")))
    except lang.LanguageError as e:
        raise pytest.UsageError(str(e)) from None


def per_run(config) -> None:
    """Choose again what a run takes from outside its arguments and environment's key: the
    language (``dojo lang`` may have changed it) and the run's seed. The warm judge prepares a
    child up to its collection ahead of the request (dojo/judge/primed.py) and calls this when
    the request comes."""
    from tests import seeding

    _choose_language()
    config.dojo_seed, config.dojo_seed_given = seeding.choose(config)


def pytest_report_header(config):
    from dojo.worker import sandbox
    from dojo.text.messages import message, t

    abi = sandbox.landlock_abi()
    where = message("pytest.header.sandboxed", abi=abi) if abi else message("pytest.header.process-only")
    seed = (t("pytest.header.seed", seed=config.dojo_seed) if config.dojo_seed is not None
            else t("pytest.header.derandomised"))
    return (t("pytest.header.judging", impl=str(config.dojo_impl), profile=settings._current_profile) + "\n"
            + seed + "\n" + t("pytest.header.runs-in", where=where))
