"""The run seed: every practice run draws fresh examples, and its seed replays it exactly.

- Each run picks a seed (shown in pytest's header and in ``--dojo-json``) and gives it to every
  property, so one number says which examples a whole run drew.
- ``--hypothesis-seed=N`` (``dojo test --seed N``) replays run N exactly: the same examples in
  the same order, no replayed failures first.
- ``DOJO_RUN_SEED=N`` (set by the dojo tool, which splits a kata across processes) gives every
  process of one verdict the same seed, and still replays earlier failures first.
- Hypothesis's example database lives in the state folder (``.dojo/examples/``), one per
  implementation folder: the failing example of the last run is tried first in the next, so a
  bug never disappears by chance; once fixed, Hypothesis drops it from the database.
- Under CI (Hypothesis's ``ci`` profile, derandomised) no seed is given: CI's examples are
  fixed, so a red CI repeats.
"""

from __future__ import annotations

import hashlib
import os
import random
from pathlib import Path

from hypothesis import settings
from hypothesis.database import DirectoryBasedExampleDatabase

ENV = "DOJO_RUN_SEED"
#: This run's seed, once chosen (None: derandomised, as in CI). A property that builds its own
#: input instead of drawing it (a fixed size, such as a memory bound's) mixes it in, so that input
#: changes from run to run too, and ``--seed`` replays it.
current: int | None = None


def in_ci(environ=None) -> bool:
    """Whether Hypothesis sees a CI here (and so loads its derandomised ``ci`` profile)."""
    environ = os.environ if environ is None else environ
    return any(key in environ for key in ci_variables())


def ci_variables() -> tuple[str, ...]:
    """The environment variables that make Hypothesis think it runs in CI."""
    try:
        from hypothesis._settings import _CI_VARS  # private; the list changes between releases
        return tuple(_CI_VARS)
    except ImportError:
        return ("CI", "TF_BUILD", "GITHUB_ACTIONS", "GITLAB_CI", "BUILDKITE", "CIRCLECI")


def without_ci(environ: dict) -> dict:
    """``environ`` as on a user's machine: no variable that tells Hypothesis it is in CI."""
    return {k: v for k, v in environ.items() if k not in ci_variables()}


def choose(config) -> tuple[int | None, bool]:
    """(the run's seed, whether it was asked for on the command line). None: derandomised.
    Also kept in ``current``."""
    global current
    current, given = _choose(config)
    return current, given


def _choose(config) -> tuple[int | None, bool]:
    given = config.getoption("hypothesis_seed", None)
    if given is not None:
        try:
            return int(given), True
        except ValueError:
            return int(hashlib.sha1(str(given).encode()).hexdigest()[:8], 16), True
    inherited = getattr(config, "workerinput", {}).get("dojo_run_seed")
    if inherited is not None:
        return inherited, False
    if os.environ.get(ENV, "").isdigit():
        return int(os.environ[ENV]), False
    if settings.default.derandomize:
        return None, False
    return random.SystemRandom().randrange(2**32), False


def example_database(state_dir: Path, impl: Path):
    """The example database of this implementation folder, or None where it cannot be kept
    (a read-only state folder): then each run stands alone."""
    tag = hashlib.sha1(str(impl).encode()).hexdigest()[:10]
    folder = state_dir / "examples" / f"{impl.name}-{tag}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".probe{os.getpid()}"
        probe.touch()
        probe.unlink()
    except OSError:
        return None
    return SafeDirectoryDatabase(str(folder))


class SafeDirectoryDatabase(DirectoryBasedExampleDatabase):
    """Hypothesis's folder of examples, each read through ``dojo.text.safe_read``: a FIFO, a
    device, a socket or a file over ``LIMIT`` put in the state folder is skipped, never read
    (a FIFO there hung every run of the kata, a right answer's too), and at most ``MOST``
    names of a key's folder are looked at."""

    LIMIT = 2**20  # an example is a few hundred bytes
    MOST = 100  # examples read a key: a run replays far fewer (a folder of a million links took minutes)

    def fetch(self, key: bytes):
        key_path = getattr(self, "_key_path", None)  # Hypothesis's own layout (private)
        if key_path is None:
            yield from super().fetch(key)
            return
        from dojo.text import safe_read

        folder = key_path(key)
        try:
            if not folder.is_dir():
                return
            with os.scandir(folder) as entries:  # lazily: a folder may hold a million names
                names = [entry.name for _, entry in zip(range(self.MOST), entries)]
        except OSError:
            return
        for name in names:
            try:
                value = safe_read.read_bytes(folder / name, limit=self.LIMIT)
            except (OSError, ValueError):
                continue
            if value is not None:
                yield value


def apply(items, seed: int | None, replay: bool = False) -> None:
    """Give every Hypothesis property of the run ``seed`` (unless it names its own). Unless
    the run is a replay (``replay``: the seed was asked for), each keeps its example database:
    ``hypothesis.seed`` turns the database off, so it is put back (the settings attribute that
    ``@seed`` itself writes)."""
    if seed is None:
        return
    import hypothesis

    for item in items:
        test = getattr(item, "obj", None)
        if getattr(test, "is_hypothesis_test", False) and getattr(test, "_hypothesis_internal_use_seed", None) is None:
            kept = getattr(test, "_hypothesis_internal_use_settings", None)
            hypothesis.seed(seed)(test)
            if not replay and kept is not None and kept.database is not None:
                test._hypothesis_internal_use_settings = settings(
                    test._hypothesis_internal_use_settings, database=kept.database)


class ToWorkers:
    """pytest-xdist: every worker of one run gets the controller's seed."""

    def __init__(self, seed: int | None):
        self.seed = seed

    def pytest_configure_node(self, node):
        node.workerinput["dojo_run_seed"] = self.seed
