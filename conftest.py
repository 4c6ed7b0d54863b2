"""The judge's plumbing: which implementation is under test, and how its verdict reads.

- ``pytest`` judges ``katas/`` (your work); ``pytest --impl solutions`` the reference answers
  and, with them, the judge's own self-check (tests/meta); ``pytest --impl PATH`` any folder
  holding modules named like the katas.
- Each kata's tests load only that kata's file from the chosen folder, by path, under a
  module name unique to that path.
- Before running a kata's properties, its file is checked once: cannot import, breaks the
  NumPy-only rule, still the untouched stub, or hangs. Each of those is reported as one line
  for the kata, instead of a failure per property.
- The candidate's code never runs in the judge's process: each kata file is imported and called
  in a sandboxed worker (``dojo/remote.py``, ``dojo/workers.py``, ``dojo/zygote.py``, ``dojo/zygote_child.py``), and every
  call has a limit on its CPU time (``--kata-timeout``).
- A failing property prints what it means in interview terms, the shrunk input and expected
  vs got; not a traceback through the judge.
- ``--dojo-json FILE`` writes the verdicts for the ``dojo`` tool.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, settings

from dojo import registry
from dojo.loader import KataProblem, KataTimeout, check_source
from dojo.zygote_handle import ONE_THREAD

# The judge's own NumPy on one thread, as in the workers, set before NumPy is first imported:
# a BLAS thread spinning while the machine is busy is charged to this process, and turned a
# right file's 0.02 s call into 1.5 s of CPU time (over the self-check's 1 s limit per call).
for _name, _value in ONE_THREAD.items():
    os.environ.setdefault(_name, _value)

ROOT = Path(__file__).resolve().parent
TESTS = ROOT / "tests"
KATA_BY_TEST = {TESTS / f"test_{k.module}.py": k for k in registry.KATAS}

# -- Hypothesis profiles -------------------------------------------------------------------
# dojo      the practice loop: 20 fresh examples per property each run, from the run's seed
#           (tests/seeding.py); the last run's failure is tried first.
# dojo-ci   built on Hypothesis's own ``ci`` profile (loaded whenever CI is set): derandomised,
#           more examples.
# thorough  random and long: run it before you call a kata done (``--hypothesis-profile``).
_COMMON = dict(
    deadline=None,
    # Registered while Hypothesis's ``ci`` profile may be the default (CI set): say it, or the
    # practice and thorough profiles (and the self-check on its fixed seeds) inherit its
    # derandomisation and run one fixed set of examples whatever the seed.
    derandomize=False,
    report_multiple_bugs=False,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "dojo", max_examples=20, phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink], **_COMMON,
)
settings.register_profile(
    "dojo-ci", parent=settings.get_profile("ci"), max_examples=60, **dict(_COMMON, derandomize=True),
)
settings.register_profile("thorough", max_examples=400, **_COMMON)
#: The self-check runs every property against many implementations, with as many examples as
#: a candidate's practice run gets, on fixed seeds (tests/meta/selfcheck.py), so "the judge
#: catches this bug" is a statement about practice runs that repeats. It only needs a
#: verdict: no shrinking, no database.
SELF_CHECK = settings(
    parent=settings.get_profile("dojo"),
    phases=[Phase.explicit, Phase.generate],
    database=None,
)


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


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "contributors: part of the contributors' suite (--contributors), not of the README's test line",
    )
    raw = config.getoption("--impl")
    impl = Path(raw) if Path(raw).is_absolute() else (Path.cwd() / raw)
    if not impl.is_dir() and (ROOT / raw).is_dir():
        impl = ROOT / raw
    from dojo import lang, locale

    try:  # plain pytest speaks the language dojo would (DOJO_LANG, `dojo lang`, the locale)
        locale.set_language(lang.choose(None, state_dir=Path(os.environ.get("DOJO_STATE_DIR") or ROOT / ".dojo")))
    except lang.LanguageError as e:
        raise pytest.UsageError(str(e)) from None
    if not impl.is_dir():
        from dojo.messages import t

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
    from dojo import sandbox

    if os.environ.get("DOJO_DIE_WITH", "").isdigit():  # started by the dojo tool: end with it
        sandbox.die_with_parent(parent=int(os.environ["DOJO_DIE_WITH"]))
    # A process the candidate's code leaves behind (where no seccomp stops it) becomes the
    # judge's child if its own parent dies, and is killed at the end of the session.
    sandbox.become_subreaper()
    if not (getattr(config.option, "numprocesses", None) and not hasattr(config, "workerinput")):
        from dojo.workers import Zygote

        Zygote.shared()  # the process that runs the candidates' code starts while pytest collects
    config.dojo_watchdog = None
    config.dojo_pending = []


def _start_watchdog(config):
    """The whole-run deadline of each kata (tests/watchdog.py), started before the first
    property runs."""
    from tests.watchdog import Watchdog

    deadline = config.getoption("--kata-deadline")
    if deadline is None:
        deadline = 120.0 + 1.0 * settings.default.max_examples
    config.dojo_watchdog = Watchdog(deadline, config.getoption("--dojo-json"))
    config.dojo_watchdog.start()


def pytest_report_header(config):
    from dojo import sandbox
    from dojo.messages import message, t

    abi = sandbox.landlock_abi()
    where = message("pytest.header.sandboxed", abi=abi) if abi else message("pytest.header.process-only")
    seed = (t("pytest.header.seed", seed=config.dojo_seed) if config.dojo_seed is not None
            else t("pytest.header.derandomised"))
    return (t("pytest.header.judging", impl=str(config.dojo_impl), profile=settings._current_profile) + "\n"
            + seed + "\n" + t("pytest.header.runs-in", where=where))


ANSWER_FOLDERS = (ROOT / "katas", ROOT / "solutions")


def _in_answers(path: Path) -> bool:
    return any(path == folder or folder in path.parents for folder in ANSWER_FOLDERS)


class _Answers(pytest.File):
    """A file of katas/ or solutions/ named on the command line (``pytest katas/softmax.py``):
    answers, never tests, and never imported here (that would run the candidate's code in the
    judge's own process). Nothing to collect; pytest_terminal_summary says what to run instead."""

    def collect(self):
        return []


def pytest_pycollect_makemodule(module_path, parent):
    if _in_answers(Path(module_path)):
        return _Answers.from_parent(parent, path=Path(module_path))
    return None


def pytest_ignore_collect(collection_path, config):
    # The judge's self-check (tests/meta) and the tool's tests (tests/tool) belong to the
    # project's own suite: they run with --impl solutions, or when named explicitly.
    for folder in (TESTS / "meta", TESTS / "tool"):
        if collection_path == folder and not config.dojo_is_reference:
            named = any(str(folder) in str(Path(a).resolve()) for a in config.args)
            return None if named else True
    return None


# -- Checking each kata file once, before its properties -----------------------------------


class KataStatus(pytest.Item):
    """One line standing for a whole kata that cannot be judged property by property."""

    def __init__(self, *, problem: dict, state: str, kata: str, **kwargs):
        from dojo.messages import text

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


def _kata_of(item) -> registry.Kata | None:
    return KATA_BY_TEST.get(Path(item.path))


def _split_suites(config, items) -> None:
    """The README's test line runs what a user needs to trust an install; ``--contributors``
    runs the rest (and only the rest): CI runs both, so nothing goes untested."""
    wanted = config.getoption("--contributors")
    kept = [it for it in items if (it.get_closest_marker("contributors") is not None) == wanted]
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
        kata = _kata_of(item)
        if kata is not None:
            groups.setdefault(kata.module, []).append(item)
    if groups:
        _start_watchdog(config)
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
            it for it in items if _kata_of(it) is None or _kata_of(it).module not in replaced
        ] + list(replaced.values())
    # Katas in the registry's order (the order a newcomer practises in), the rest after them.
    order = {k.module: i for i, k in enumerate(registry.KATAS)}
    items.sort(key=lambda it: order.get(getattr(_kata_of(it), "module", None), len(order)))
    for index, item in enumerate(items):
        item._dojo_index = index
    config.dojo_expected = {}
    config.dojo_all = {}  # each kata's properties before sharding
    for item in items:
        kata = _kata_of(item)
        if kata is not None:
            config.dojo_all[kata.module] = config.dojo_all.get(kata.module, 0) + 1
    shard = config.getoption("--dojo-shard")
    if shard:
        k, n = (int(s) for s in shard.split("/"))
        kept = [it for it in items if isinstance(it, KataStatus) or it._dojo_index % n == k]
        config.hook.pytest_deselected(items=[it for it in items if it not in kept])
        items[:] = kept
    for item in items:  # how many verdicts each kata owes: fewer means the run ended early
        kata = _kata_of(item)
        if kata is not None:
            config.dojo_expected[kata.module] = config.dojo_expected.get(kata.module, 0) + 1


#: The states a worker may report for a file it cannot load (dojo/zygote_child.py, dojo/workers.py).
LOAD_STATES = ("cannot-import", "numpy-only", "timed-out")


def _check_kata_file(config, kata, first_item):
    """None when the kata can be judged; otherwise (message, state)."""
    from dojo.messages import message as said
    from dojo.remote import CandidateError, RemoteFunction
    from dojo.workers import Limits

    path = config.dojo_impl / f"{kata.module}.py"
    shown = _shown(path)
    try:
        check_source(path)
    except KataProblem as e:
        return e.said or said("text", text=str(e)), e.state
    fn = RemoteFunction(path, kata.function, Limits(cpu=config.getoption("--kata-timeout")),
                        cpu_budget=CPU_PER_EXAMPLE * settings.default.max_examples,
                        on_output=functools.partial(_candidate_printed, config))
    config.dojo_remotes.append(fn)
    problem = fn.load()
    if fn.sandbox:
        config.dojo_sandbox = dict(fn.sandbox)
    if problem is not None:
        state, message = problem.get("state"), problem.get("message")
        if state not in LOAD_STATES or not isinstance(message, str):
            # the worker runs the candidate's code, which can forge its answers (json.dumps replaced)
            return said("kata.malformed-load", file=path.name), "cannot-import"
        # an account as a message: written by dojo/workers.py, or sent by the worker and checked there
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


def _shown(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


@pytest.fixture(scope="module")
def kata(request):
    """The judged function, wrapped: time limit per call, and a check that inputs stay intact."""
    from tests.judge import Guarded

    spec = _kata_of(request.node)
    fn = request.config.dojo_functions[spec.module]
    return Guarded(fn, spec.function, request.config.getoption("--kata-timeout"))


#: CPU seconds the candidate's calls may take together, per example of the profile (20 s in
#: practice): each stub's docstring states it under Speed.
CPU_PER_EXAMPLE = 1.0

#: How many examples Hypothesis may try while it shrinks one failure before the smallest
#: failing input so far is shown. A readable input matters more than the minimal one, and a
#: wrong answer should be judged about as fast as a right one. A count, not a time: a run's
#: seed then draws and shrinks the same inputs on a busy machine as on a quiet one (softmax's
#: six longest of 30 shrinks took 127-166 examples, 0.4-0.8 s on a quiet machine).
SHRINK_EXAMPLES = 200

#: A backstop for katas whose shrink steps are slow; only a very busy machine reaches it.
SHRINK_SECONDS = 10.0


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
        if hasattr(kwargs.get("kata"), "calls"):
            kwargs["kata"].calls = []  # the calls of this example only
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
    kata = _kata_of(item)
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
        from dojo.messages import message, text

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


# -- Readable verdicts ----------------------------------------------------------------------


def _candidate_printed(config, text: str) -> None:
    """What the candidate's code printed: shown as pytest shows a test's output, and kept for
    the property's record (``output``)."""
    import sys

    sys.stdout.write(text)
    config.dojo_printed.append(text)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    kata = _kata_of(item)
    if kata is None:
        return report
    if call.when == "call" or report.outcome != "passed":
        state = "passed" if report.passed else ("skipped" if report.skipped else "failed")
        failure: dict = {}
        pending = False
        if isinstance(item, KataStatus):
            state = item.state
            failure = {"message": item.message, "file_level": True}
        elif report.failed and call.excinfo is not None:
            first = kata.module not in item.config.dojo_failed
            item.config.dojo_failed.add(kata.module)
            if call.excinfo.errisinstance(KataTimeout):
                item.config.dojo_hung.add(kata.module)
                state = "timed-out"
            failure = _failure(item, kata, call.excinfo)
            pending = first and state != "timed-out" and failure.get("status") != "error-in-judge"
        elif report.skipped:
            reason = str(report.longrepr[-1]) if isinstance(report.longrepr, tuple) else ""
            if reason.startswith("Skipped: "):
                reason = reason[len("Skipped: "):]
            failure = {"message": getattr(item, "_dojo_skipped", None) or _text_message(reason)}
        if call.when == "call" or report.failed or report.skipped:
            from dojo.verdict import status_of

            status = failure.pop("status", None)
            record = {
                "index": getattr(item, "_dojo_index", 0),
                "kata": kata.module,
                "property": item.name,
                "id": item.name,
                "title": _title(item),
                "state": state,
                "status": "error" if status in ("error", "error-in-judge") else status_of(state),
                "message": None,
                "node": item.nodeid,
                "seconds": round(getattr(report, "duration", 0.0), 3),
                "output": _output(item.config),
                **failure,
            }
            if pending:  # diagnosed at the end of the session, when no property runs any more
                guarded = getattr(item, "funcargs", {}).get("kata")
                item.config.dojo_pending.append((kata, report, record, list(getattr(guarded, "calls", []))))
            if report.failed and status != "error-in-judge" and not failure.get("file_level"):
                report.longrepr = _failure_text(record, kata)
            item.config.dojo_records.append(record)
            _write_report(item.config, complete=False)  # what is known so far, if the run dies
    return report


def _output(config) -> str:
    """What the candidate's code printed during this property, capped as exercism caps it."""
    from dojo.results import OUTPUT_LIMIT, TRUNCATED

    text = "".join(getattr(config, "dojo_printed", []))
    config.dojo_printed = []
    if len(text) > OUTPUT_LIMIT:
        text = text[:OUTPUT_LIMIT - len(TRUNCATED)] + TRUNCATED
    return text


def _text_message(text: str) -> dict:
    from dojo.messages import message

    return message("text", text=text)


def _title(item) -> str:
    """A property's title as stored in its record: its docstring's first line, in English (a
    screen shows it in its language: ``dojo.locale.property_title``)."""
    if isinstance(item, KataStatus):
        return item.state
    doc = getattr(getattr(item, "function", None), "__doc__", None) or item.name
    return doc.strip().splitlines()[0]


def _failure_text(record: dict, kata) -> str:
    """What plain pytest prints for a failing property: the same text the tool shows."""
    from dojo.render import failure_text

    from dojo.locale import property_title

    title = property_title(kata.module, record["id"], record["title"])
    return failure_text(record, kata.function, header=f"{kata.module} — {title}")


def _diagnose_pending(config) -> None:
    """Name the known bug each kata's first failure behaves like (dojo/diagnosis.py), or say
    nothing. Done once the properties have all run: what the diagnosis imports and runs must
    not change the examples of the properties after it. Every call is time-limited."""
    from dojo.diagnosis import diagnose

    for kata, report, record, calls in config.dojo_pending:
        found = None
        fn = config.dojo_functions.get(kata.module)
        if fn is not None:
            try:
                found = diagnose(kata.module, kata.function, fn, calls)
            except Exception:  # the diagnosis is a bonus: never let it break a verdict
                found = None
        if found is not None:
            record["diagnosis"] = f"{kata.module}/{found.stems[0]}"
            record["behaves_like"] = list(found.stems)
            if found.unchecked:
                record["unchecked"] = list(found.unchecked)
            report.longrepr = _failure_text(record, kata)
    config.dojo_pending = []


def _failure(item, kata, excinfo) -> dict:
    """What a failing property's record says, as data: the message, a hint, the input."""
    from hypothesis.errors import Flaky

    from dojo.messages import message
    from dojo.remote import CandidateError, CandidateEscape, TooSlow
    from tests.judge import KataMismatch

    exc = excinfo.value
    impl_file = item.config.dojo_impl / f"{kata.module}.py"
    out: dict = {}
    if isinstance(exc, KataMismatch):
        out["message"], out["hint"] = exc.message, exc.hint
    elif isinstance(exc, TooSlow):
        out["message"] = message("candidate.too-slow.skipped", slow=exc.message, kata=kata.module)
    elif isinstance(exc, KataTimeout):
        out["message"] = message("candidate.timed-out", how_text=exc.said or str(exc), kata=kata.module)
    elif isinstance(exc, (CandidateError, CandidateEscape)):
        if isinstance(exc, CandidateEscape):
            what = exc.message
        else:
            which = "candidate.raised-on-valid" if isinstance(exc, ValueError) else "candidate.raised"
            what = message(which, type=exc.type_name, text=exc.said or str(exc))
        out["message"] = what
        out["status"] = "error"
        if exc.line is not None:
            out["at"] = message("candidate.at", file=_shown(impl_file), line=exc.line, source_text=exc.source)
    elif isinstance(exc, Flaky):
        out["message"] = message("candidate.flaky", function=kata.function)
    else:  # a fault in the judge itself: pytest's own report stays
        return {"message": message("text", text=f"{type(exc).__name__}: {exc}"), "status": "error-in-judge"}
    guarded = getattr(item, "funcargs", {}).get("kata")
    calls = list(getattr(guarded, "calls", []) or [])
    if isinstance(exc, KataTimeout) and getattr(exc, "inputs", None):
        out["inputs_label"] = "input.last-given" if isinstance(exc, TooSlow) else "input.hung-on"
        out["calls"] = [_call_data(exc.inputs)]
    elif calls:  # in the kata's own argument names, as your function got them
        out["inputs_label"] = "input.shrunk"
        out["calls"] = [_call_data(c) for c in calls[:2]]
        out["call_count"] = len(calls)
    else:
        example = _falsifying_example(exc)
        if example:
            out["inputs_label"] = "input.example"
            out["example"] = example
    return out


def _call_data(kwargs: dict) -> dict:
    """One call's arguments as data: each value's printout (``repr``, NumPy printing compactly)
    and, for a small array, its values."""
    import numpy as np

    from dojo.messages import array_param
    from dojo.screen import array_width

    out = {}
    for name, value in kwargs.items():
        # shown one argument a line, "name=" after 8 cells: "    call 1: f(" / "        x=array(["
        with np.printoptions(precision=4, threshold=40, edgeitems=3, linewidth=array_width(88, 9 + len(name))):
            entry = {"repr": repr(value)}
            if isinstance(value, np.ndarray):
                data = array_param(value)
                entry.update({k: data[k] for k in ("shape", "dtype", "values") if k in data})
            out[name] = entry
    return out


def _falsifying_example(exc) -> str:
    """The (shrunk) input from Hypothesis's note, without the ``kata=`` argument."""
    import textwrap

    notes = getattr(exc, "__notes__", None) or []
    for note in notes:
        if note.startswith(("Falsifying", "Failing")) and "(" in note:
            body = note.split("(", 1)[1].rsplit(")", 1)[0]
            kept = [ln for ln in body.splitlines() if ln.strip() and not ln.strip().startswith("kata=")]
            return textwrap.dedent("\n".join(kept)).rstrip().rstrip(",")
    return ""


def _indent(text: str, n: int = 2) -> str:
    pad = " " * n
    return "\n".join(pad + ln if ln else ln for ln in text.splitlines())


def _write_report(config, complete: bool) -> None:
    path = config.getoption("--dojo-json")
    if not path:
        return
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(
            {"impl": str(config.dojo_impl), "complete": complete, "seed": config.dojo_seed,
             "expected": getattr(config, "dojo_expected", {}), "records": config.dojo_records,
             "sandbox": getattr(config, "dojo_sandbox", None),
             "usage": {k: {"calls": f.calls, "cpu": round(f.cpu_used, 3)}
                       for k, f in getattr(config, "dojo_functions", {}).items() if hasattr(f, "cpu_used")}},
            f,
            indent=1,
        )
    os.replace(tmp, path)


def pytest_sessionfinish(session, exitstatus):
    config = session.config
    if getattr(config, "dojo_pending", None):
        _diagnose_pending(config)
    if getattr(config, "dojo_watchdog", None) is not None:
        config.dojo_watchdog.stop()
        config.dojo_watchdog = None
    for remote in getattr(config, "dojo_remotes", ()):
        remote.close()
    from dojo.workers import Zygote

    if Zygote._mine is not None:
        Zygote._mine.close()
    if getattr(config, "dojo_expected", None):
        _end_leftover_processes()
    expected = getattr(config, "dojo_expected", {})
    done = {}
    for r in config.dojo_records:
        done[r["kata"]] = done.get(r["kata"], 0) + (r["state"] != "not-run")
    short = {k: n for k, n in expected.items() if done.get(k, 0) < n}
    if short and session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.INTERRUPTED  # a run that ended early never passes
    _write_report(config, complete=not short)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """``pytest katas`` (or pytest inside katas/, or ``pytest katas/softmax.py``) finds no
    tests, and exits 5 as pytest does: say where the judge is and which command to run."""
    if exitstatus != pytest.ExitCode.NO_TESTS_COLLECTED:
        return
    named = [Path(a.split("::")[0]).resolve() for a in config.args]
    answers = [p for p in named if _in_answers(p)]
    if not answers:
        return
    from dojo.messages import message, text

    where = answers[0]
    kata = registry.BY_MODULE.get(where.stem) if where.suffix == ".py" else None
    shown = where.relative_to(ROOT).as_posix() + ("/" if where.is_dir() else "")
    terminalreporter.write_line("")
    terminalreporter.write_line(text(message(
        "pytest.no-tests", where=shown, root=str(ROOT), kata=(kata or registry.KATAS[0]).module)))


def _end_leftover_processes() -> None:
    """The candidate's code may not leave processes behind (the guard refuses forks; this
    catches what got through)."""
    import signal

    from tests.watchdog import leftover_children

    for pid in leftover_children():
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (OSError, ChildProcessError):
            pass
