"""Which tests judge which kata file: answers are never collected, the self-check and the
tool's tests run with the reference, the contributors' suite apart, each kata file checked once
before its properties (cannot import, NumPy only, not started, hangs: one line for the kata),
and the ``kata`` fixture that hands a property the candidate's function in its worker."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from hypothesis import settings

from dojo.catalogue import registry
from dojo.worker.loader import KataProblem, KataTimeout, check_source
from tests.plugin.common import ROOT, TESTS, candidate_printed, kata_of, relative
from tests.plugin.profiles import CPU_PER_EXAMPLE


def start_watchdog(config):
    """The whole-run deadline of each kata (tests/watchdog.py), started before the first
    property runs."""
    from tests.watchdog import Watchdog

    deadline = config.getoption("--kata-deadline")
    if deadline is None:
        deadline = 120.0 + 1.0 * settings.default.max_examples
    config.dojo_watchdog = Watchdog(deadline, config.getoption("--dojo-json"))
    config.dojo_watchdog.start()


ANSWER_FOLDERS = (ROOT / "katas", ROOT / "solutions")


def in_answers(path: Path) -> bool:
    return any(path == folder or folder in path.parents for folder in ANSWER_FOLDERS)


class _Answers(pytest.File):
    """A file of katas/ or solutions/ named on the command line (``pytest katas/softmax.py``):
    answers, never tests, and never imported here (that would run the candidate's code in the
    judge's own process). Nothing to collect; pytest_terminal_summary says what to run instead."""

    def collect(self):
        return []


def pytest_pycollect_makemodule(module_path, parent):
    if in_answers(Path(module_path)):
        return _Answers.from_parent(parent, path=Path(module_path))
    return None


def pytest_ignore_collect(collection_path, config):
    # The judge's self-check (tests/meta, each kata's tests/katas/<kata>/) and the tool's tests
    # (tests/tool) belong to the project's own suite: they run with --impl solutions, or when
    # named explicitly.
    for folder in (TESTS / "meta", TESTS / "katas", TESTS / "tool"):
        if collection_path == folder and not config.dojo_is_reference:
            named = any(str(folder) in str(Path(a).resolve()) for a in config.args)
            return None if named else True
    return None


# -- Checking each kata file once, before its properties -----------------------------------


class KataStatus(pytest.Item):
    """One line standing for a whole kata that cannot be judged property by property."""

    def __init__(self, *, problem: dict, state: str, kata: str, **kwargs):
        from dojo.text.messages import text

        super().__init__(**kwargs)
        self.message = problem
        self.problem = f"{kata}: {text(problem)}"
        self.state = state
        self.kata = kata

    def runtest(self):
        raise _StatusFailure(self.problem)

    def repr_failure(self, excinfo):
        return self.problem

    def reportinfo(self):
        return self.path, None, f"{self.kata}: {self.state}"


class _StatusFailure(Exception):
    pass


def contributors_only(item) -> bool:
    """Whether a test belongs to the contributors' suite: marked so, or a test of the tool
    (``tests/tool/``, a kata's ``test_tool.py``) not marked ``smoke``. The README's line keeps
    the judge on every kata, the self-check's sample, the worker's sandbox and a smoke of each
    command, end to end; the tool's many edge cases, screens and scenarios are the rest."""
    if item.get_closest_marker("contributors") is not None:
        return True
    path = Path(str(item.path)).resolve()
    of_the_tool = path.parent == TESTS / "tool" or path.name == "test_tool.py"
    return of_the_tool and item.get_closest_marker("smoke") is None


def named_files(config) -> set[Path]:
    """The test files named on the command line (``tests/tool/test_clean.py``, or one of its
    tests with ``::``); folders and the bare command name none."""
    named = set()
    for arg in config.args:
        path = Path(str(arg).split("::")[0])
        path = path if path.is_absolute() else Path(config.invocation_params.dir) / path
        if path.suffix == ".py" and path.is_file():
            named.add(path.resolve())
    return named


def _split_suites(config, items) -> None:
    """The README's test line runs what a user needs to trust an install; ``--contributors``
    runs the rest (and only the rest): CI runs both, so nothing goes untested. A test file named
    on the command line runs whole, whichever suite its tests belong to (as pytest users expect:
    ``pytest --impl solutions tests/tool/test_clean.py`` runs that file's tests)."""
    wanted = config.getoption("--contributors")
    named = named_files(config)
    kept = [it for it in items
            if contributors_only(it) == wanted or Path(str(it.path)).resolve() in named]
    if len(kept) != len(items):
        ids = {id(it) for it in kept}
        config.dojo_other_suite = [it for it in items if id(it) not in ids]
        config.hook.pytest_deselected(items=config.dojo_other_suite)
        items[:] = kept


def pytest_collection_modifyitems(session, config, items):
    from tests import seeding

    _split_suites(config, items)
    seeding.apply(items, config.dojo_seed, replay=config.dojo_seed_given)
    groups: dict[str, list] = {}
    for item in items:
        kata = kata_of(item)
        if kata is not None:
            groups.setdefault(kata.module, []).append(item)
    if groups:
        start_watchdog(config)
    replaced = {}
    for module, group in groups.items():
        kata = registry.BY_MODULE[module]
        config.dojo_watchdog.running(module, "importing the file and a first call")
        status = _check_kata_file(config, kata, group[0])
        if status is not None:
            problem, state = status
            replaced[module] = KataStatus.from_parent(
                group[0].parent, name=f"{module}: {state}", problem=problem, state=state, kata=module
            )
    if replaced:
        items[:] = [
            it for it in items if kata_of(it) is None or kata_of(it).module not in replaced
        ] + list(replaced.values())
    # Katas in the registry's order (the order a newcomer practises in), the rest after them.
    order = {k.module: i for i, k in enumerate(registry.KATAS)}
    items.sort(key=lambda it: order.get(getattr(kata_of(it), "module", None), len(order)))
    for index, item in enumerate(items):
        item._dojo_index = index
    config.dojo_expected = {}
    config.dojo_all = {}  # each kata's properties before sharding
    for item in items:
        kata = kata_of(item)
        if kata is not None:
            config.dojo_all[kata.module] = config.dojo_all.get(kata.module, 0) + 1
    shard = config.getoption("--dojo-shard")
    if shard:
        k, n = (int(s) for s in shard.split("/"))
        kept = [it for it in items if isinstance(it, KataStatus) or it._dojo_index % n == k]
        config.hook.pytest_deselected(items=[it for it in items if it not in kept])
        items[:] = kept
    for item in items:  # how many verdicts each kata owes: fewer means the run ended early
        kata = kata_of(item)
        if kata is not None:
            config.dojo_expected[kata.module] = config.dojo_expected.get(kata.module, 0) + 1


#: The states a worker may report for a file it cannot load (dojo/worker/zygote_child.py, dojo/worker/workers.py).
LOAD_STATES = ("cannot-import", "numpy-only", "timed-out")


def _check_kata_file(config, kata, first_item):
    """None when the kata can be judged; otherwise (message, state)."""
    from dojo.text.messages import message as said
    from dojo.worker.remote import CandidateError, RemoteFunction
    from dojo.worker.workers import Limits

    path = config.dojo_impl / f"{kata.module}.py"
    shown = relative(path)
    try:
        check_source(path)
    except KataProblem as e:
        return e.said or said("text", text=str(e)), e.state
    fn = RemoteFunction(path, kata.function, Limits(cpu=config.getoption("--kata-timeout")),
                        cpu_budget=CPU_PER_EXAMPLE * settings.default.max_examples,
                        on_output=functools.partial(candidate_printed, config))
    config.dojo_remotes.append(fn)
    problem = fn.load()
    if fn.sandbox:
        config.dojo_sandbox = dict(fn.sandbox)
    if problem is not None:
        state, message = problem.get("state"), problem.get("message")
        if state not in LOAD_STATES or not isinstance(message, str):
            # the worker runs the candidate's code, which can forge its answers (json.dumps replaced)
            return said("kata.malformed-load", file=path.name), "cannot-import"
        # an account as a message: written by dojo/worker/workers.py, or sent by the worker and checked there
        return problem.get("said") or said("text", text=message), state
    probe = getattr(first_item.module, "PROBE", None)
    if probe is not None:
        try:
            fn(**probe())
        except CandidateError as e:
            if e.type_name == "NotImplementedError":
                return said("kata.not-started", function=kata.function, file=shown), "not-started"
        except KataTimeout as e:
            return e.said or said("text", text=str(e)), "timed-out"
        except Exception:
            pass  # the properties will say what is wrong
    config.dojo_functions[kata.module] = fn
    return None



@pytest.fixture(scope="module")
def kata(request):
    """The judged function, wrapped: time limit per call, and a check that inputs stay intact."""
    from tests.judge import Guarded

    spec = kata_of(request.node)
    fn = request.config.dojo_functions[spec.module]
    return Guarded(fn, spec.function, request.config.getoption("--kata-timeout"))



def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """``pytest katas`` (or pytest inside katas/, or ``pytest katas/softmax.py``) finds no
    tests, and exits 5 as pytest does: say where the judge is and which command to run."""
    if exitstatus != pytest.ExitCode.NO_TESTS_COLLECTED:
        return
    named = [Path(a.split("::")[0]).resolve() for a in config.args]
    answers = [p for p in named if in_answers(p)]
    if not answers:
        return
    from dojo.text.messages import message, text

    where = answers[0]
    kata = registry.BY_MODULE.get(where.stem) if where.suffix == ".py" else None
    shown = where.relative_to(ROOT).as_posix() + ("/" if where.is_dir() else "")
    terminalreporter.write_line("")
    terminalreporter.write_line(text(message(
        "pytest.no-tests", where=shown, root=str(ROOT), kata=(kata or registry.KATAS[0]).module)))
