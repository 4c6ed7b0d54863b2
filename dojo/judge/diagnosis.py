"""Say which known bug an answer behaves like, and only when that is reproduced.

The judge's self-check keeps a catalogue of realistic wrong answers per kata
(``tests/katas/<kata>/wrong/*.py``, each with a one-line description). When an answer fails,
its behaviour is compared with every one of them on the inputs it failed on and on the kata's
``dojo compare`` battery (edge, random and error cases): the same values within the judge's
tolerance, the same dtype and shape, the same inputs written into, or the same kind of error.

The inputs fall in two parts: valid ones (the reference returns) and ones the contract rules
out (the reference raises ValueError). A catalogue file is named when it does what the answer
does on every input tried and its bug shows on them (it differs from the reference somewhere).
When none does, a file is named for its value bug alone (a first draft with a known value bug
and no input checks) when it does what the answer does on every valid input, except where one
of the two raised ValueError and the other returned (a check, not a value) or both raised,
and returns a wrong value on one of them (a ValueError is no evidence of a value bug: NumPy
raises it for shapes too). The checks are then said separately, from what the answer itself
did: the battery's error cases it does not raise ValueError for (``Diagnosis.unchecked``; said
whenever the named bug is a value bug). So a file's first docstring line describes only what
shows on valid inputs when its bug shows there. When nothing matches (an answer with two
value bugs, a bug nobody catalogued, a hang, a bug that values cannot show such as memory
use), nothing is said.

Conventions of a catalogue file (module-level constants, read without importing it):

- ``BEHAVES_LIKE = ("other_stem",)``: two files that cannot be told apart by these inputs (or
  by the valid ones alone: ``Diagnosis.alike_on_valid``) must say so, both ways; the
  self-check holds the judge to it.
- ``SHOWS_IN_VALUES = False``: a bug whose outputs equal the reference's (e.g. memory use):
  never named.
- ``TOLERANCE = "float32"``: a bug of precision (float32 arithmetic) is compared at float32's
  tolerance, any float dtype; the battery holds an input float32 cannot represent, on which
  its answer differs grossly, so a small bug of another kind is not taken for it. A kata whose
  battery names a tolerance of its own (``Battery.tolerance``, dojo/catalogue/tolerances.py) compares
  every other file at that one, as its judge does.
- ``UNCHECKED = ("battery case", ...)``: the battery's error cases the file does not raise
  ValueError for (the self-check compares them with what the diagnosis says).
- ``FIRST_DRAFT_OF = "stem"``: not a catalogue entry but a test of the above: a first draft
  without input checks, which the self-check expects to be named as ``stem`` on its valid
  inputs, with its ``UNCHECKED`` cases said separately.

Used by the judge (``conftest.py``, in the judge's own process, every call time-limited) and
by ``dojo compare``. NumPy is imported lazily.
"""

from __future__ import annotations

import ast
import copy
import functools
import warnings
from dataclasses import dataclass
from pathlib import Path

from dojo.worker.isolate import Outcome, call_here
from dojo.worker.loader import KataTimeout, module_name_for, time_limit

ROOT = Path(__file__).resolve().parents[2]
WRONG = ROOT / "tests" / "katas"  # then KATA / "wrong" / FILE
RTOL = 1e-9
ATOL = 1e-12
#: Each call gets at most this much of the judge's CPU time (one catalogue file hangs on
#: purpose), and the whole diagnosis at most BUDGET seconds of it, and WALL seconds of the clock:
#: past either, nothing is said rather than a verdict delayed. CPU time, so that a busy machine
#: (which only makes the judge wait) does not drop a diagnosis: the same answer is named the same
#: way at any load. The answer's own calls run in its worker, under the worker's limits; the
#: wall clock bounds what they add.
CALL_SECONDS = 0.25
BUDGET = 1.5
WALL = 15.0
CALL_WALL = 2.5  #: a call's wall-clock backstop (code that sleeps uses no CPU)


class _OutOfTime(Exception):
    pass


class _Clock:
    def __init__(self, budget: float, call: float):
        import time

        self.end = time.process_time() + budget
        self.wall_end = time.monotonic() + max(WALL, budget)
        self.call = call

    def run(self, fn, kwargs: dict) -> Outcome:
        import time

        left = self.end - time.process_time()
        if left <= 0 or time.monotonic() > self.wall_end:
            raise _OutOfTime
        return behaviour(fn, kwargs, min(self.call, left))


@dataclass(frozen=True)
class Known:
    """One catalogue file: its stem, its description, and the stems it behaves like."""

    stem: str
    path: Path
    description: str
    behaves_like: tuple[str, ...]
    #: False for a bug whose outputs equal the reference's (e.g. memory use): never diagnosed.
    shows_in_values: bool = True
    #: "float32": compared at float32's tolerance (a bug of precision).
    tolerance: str = "float64"
    #: The battery's error cases it does not raise ValueError for (declared, for the self-check).
    unchecked: tuple[str, ...] = ()
    #: A first draft of this stem's bug without input checks: a test case, never named itself.
    first_draft_of: str | None = None


def catalogue(kata: str, folder: Path = WRONG) -> list[Known]:
    """The known-wrong implementations of ``kata``, described, in name order."""
    return [_known(path, path.stat().st_mtime_ns) for path in sorted((folder / kata / "wrong").glob("*.py"))]


_CONSTANTS = ("BEHAVES_LIKE", "SHOWS_IN_VALUES", "TOLERANCE", "UNCHECKED", "FIRST_DRAFT_OF")


@functools.lru_cache(maxsize=1024)
def _known(path: Path, mtime_ns: int) -> Known:
    """One catalogue file, read without importing it (once per version of the file)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    doc = (ast.get_docstring(tree) or path.stem).strip().splitlines()[0]
    constants = {
        target.id: ast.literal_eval(node.value)
        for node in tree.body if isinstance(node, ast.Assign)
        for target in node.targets if isinstance(target, ast.Name) and target.id in _CONSTANTS
    }
    return Known(
        path.stem, path, doc.rstrip("."), tuple(constants.get("BEHAVES_LIKE", ())),
        bool(constants.get("SHOWS_IN_VALUES", True)), str(constants.get("TOLERANCE", "float64")),
        tuple(constants.get("UNCHECKED", ())), constants.get("FIRST_DRAFT_OF"),
    )


def _project_function(path: Path, function: str):
    """``function`` from one of the project's own files (the reference, a catalogue file).
    They are trusted: loaded without the checks a candidate's file gets (``load_kata``), and
    once per process and version of the file (the self-check and ``dojo compare`` diagnose often)."""
    return _load_project_function(path, path.stat().st_mtime_ns, function)


@functools.lru_cache(maxsize=1024)
def _load_project_function(path: Path, mtime_ns: int, function: str):
    import importlib.util

    spec = importlib.util.spec_from_file_location(module_name_for(path), path)
    module = importlib.util.module_from_spec(spec)
    with time_limit(10.0, what=f"importing {path.name}"):
        spec.loader.exec_module(module)
    return getattr(module, function)


def behaviour(fn, kwargs: dict, seconds: float = CALL_SECONDS) -> Outcome:
    """What ``fn`` does with a fresh copy of ``kwargs``, within ``seconds`` of this process's CPU
    time and ``CALL_WALL`` of the clock (an answer's own call runs in its worker, under the
    worker's limits)."""
    kwargs = copy.deepcopy(kwargs)
    try:
        with time_limit(CALL_WALL, what="a call"), time_limit(seconds, what="a call", cpu=True), \
                warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return call_here(fn, kwargs)
    except KataTimeout:
        return Outcome("timeout")


def same_behaviour(a: Outcome, b: Outcome, tolerance: str = "float64", inputs: dict | None = None) -> bool:
    """Whether two calls did the same thing: same values (within tolerance), dtypes, shapes and
    writes into the inputs, or the same kind of error (any ValueError is one kind), or both hung.
    At ``tolerance="float32"`` values agree to float32's precision and any float dtype will do;
    a kata's own tolerance (a name in dojo/catalogue/tolerances.py) needs the call's ``inputs``."""
    if a.status != b.status:
        return False
    if a.status == "timeout":
        return True
    if a.status == "raised":
        return a.value_error == b.value_error and (a.value_error or a.error_type == b.error_type)
    if a.status == "returned":
        return sorted(a.mutated) == sorted(b.mutated) and _same_value(a.value, b.value, tolerance, inputs)
    return False


#: float32 keeps about 7 digits; two float32 computations of one formula in different orders
#: agree to about 1e-6 of the result's scale, and a score's rounding is amplified by exp().
FLOAT32_TOLERANCE = 1e-3


def _same_value(x, y, tolerance: str = "float64", inputs: dict | None = None) -> bool:
    import numpy as np

    from dojo.catalogue import tolerances

    if isinstance(x, tuple) or isinstance(y, tuple):
        return (isinstance(x, tuple) and isinstance(y, tuple) and len(x) == len(y)
                and all(_same_value(p, q, tolerance, inputs) for p, q in zip(x, y)))
    if isinstance(x, list) and isinstance(y, list):  # integer sequences (beam_search's): padded with -1
        px, py = tolerances.sequences_as_array(x), tolerances.sequences_as_array(y)
        if px is not None and py is not None:
            return px.shape == py.shape and bool(np.array_equal(px, py))
    if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
        if not (isinstance(x, np.ndarray) and isinstance(y, np.ndarray)):
            return False
        if tolerance in tolerances.TOLERANCES:
            return (x.shape == y.shape and tolerances.same_dtype(x.dtype, y.dtype)
                    and bool(tolerances.within(tolerance, x, y, inputs).all()))
        loose = tolerance == "float32"
        if x.shape != y.shape or (x.dtype != y.dtype and not (loose and x.dtype.kind == y.dtype.kind == "f")):
            return False
        rtol, atol = (0.0, FLOAT32_TOLERANCE) if loose else (RTOL, ATOL)
        try:
            with np.errstate(all="ignore"):
                fx, fy = x.astype(np.float64), y.astype(np.float64)
                scale = float(np.max(np.abs(fy[np.isfinite(fy)]), initial=1.0))
                return bool(np.allclose(fx, fy, rtol=rtol, atol=atol * max(1.0, scale), equal_nan=True))
        except (TypeError, ValueError):
            return bool(np.array_equal(x, y))
    return type(x) is type(y) and repr(x) == repr(y)


@dataclass(frozen=True)
class Diagnosis:
    """The known bugs an answer behaved like (``stems``), described, and the battery's error
    cases it does not raise ValueError for (``unchecked``), said when its bug is a value bug."""

    stems: tuple[str, ...]
    description: str
    unchecked: tuple[str, ...] = ()
    #: Files that did the same on every valid input but not on the others, passed over for
    #: ``stems`` (the self-check requires them to be declared twins: see ``match``).
    alike_on_valid: tuple[str, ...] = ()

    #: the kata, for the descriptions in other languages (``described``)
    kata: str = ""

    def described(self, lang: str | None = None) -> str:
        """``description`` in ``lang`` (default: the screen's): each bug's own description
        (``dojo.text.locale.bug_description``), twins joined as "…; or equally, …"."""
        from dojo.text.messages import message, text
        from dojo.judge.verdict import diagnosis_description

        if not self.kata:
            return self.description
        found = [diagnosis_description(f"{self.kata}/{stem}", lang) for stem in self.stems]
        if not all(found):
            return self.description
        said = found[0]
        for more in dict.fromkeys(found[1:]):
            if more != found[0]:
                said = text(message("diagnosis.or-equally", first=said, second=more), lang)
        return said

    def sentence(self) -> str:
        from dojo.text.messages import message, text
        from dojo.judge.verdict import unchecked_message

        said = text(message("diagnosis", description_text=self.described()))
        if self.unchecked:
            said += " " + text(unchecked_message(list(self.unchecked), self.kata or None))
        return said


def probes(kata: str) -> tuple[list[dict], list[dict], list[str]]:
    """(valid inputs, bad inputs, the bad inputs' names) from the kata's compare battery; empty
    lists without one."""
    from dojo.catalogue.batteries import BATTERIES

    try:
        battery = BATTERIES[kata]
    except Exception:  # no battery (or a broken one): diagnose from the failing input alone
        return [], [], []
    valid, bad, names = [], [], []
    for case in battery.cases:
        if getattr(case, "max_bytes", None) is not None:
            continue  # a case about memory: large and slow, and values cannot show its bug
        if case.kind == "error":
            bad.append(battery.inputs(case))
            names.append(case.name)
        else:
            valid.append(battery.inputs(case))
    return valid, bad, names


def diagnose(kata: str, function: str, candidate, failing: list[dict], folder: Path = WRONG,
             budget: float = BUDGET, call: float = CALL_SECONDS, exclude: tuple[str, ...] = ()) -> Diagnosis | None:
    """The known bug ``candidate`` behaves like, or None.

    A catalogue file is named only if it does what the candidate does on every input tried:
    ``failing`` (the calls of the input the candidate failed on) and every case of the kata's
    battery, valid and bad alike, and its bug shows on them; failing that, if it does what the
    candidate does on every valid input and its bug shows there (see the module's docstring).
    An answer with two value bugs therefore gets no diagnosis, and a right answer never gets
    one. ``exclude``: stems left out of the catalogue (the self-check's own use)."""
    valid, bad, names = probes(kata)
    inputs = [*failing, *valid, *bad]  # the failing calls first: they tell most bugs apart at once
    clock = _Clock(budget, call)
    try:
        mine = [clock.run(candidate, kw) for kw in inputs]
    except _OutOfTime:
        return None
    labels = [None] * (len(failing) + len(valid)) + names
    return match(kata, function, inputs, mine, folder, clock, labels, exclude)


def match(kata: str, function: str, inputs: list[dict], mine: list[Outcome], folder: Path = WRONG,
          clock: _Clock | None = None, names: list[str | None] | None = None,
          exclude: tuple[str, ...] = ()) -> Diagnosis | None:
    """The catalogue files that do what the candidate did (``mine``) on every one of
    ``inputs``, or failing that on the valid ones, and whose bug shows there. ``names``: what
    to call each input the contract rules out, for ``Diagnosis.unchecked`` (None: unnamed)."""
    clock = clock or _Clock(BUDGET, CALL_SECONDS)
    names = names or [None] * len(inputs)
    if not inputs or any(o.status not in ("returned", "raised") for o in mine):
        return None  # a hang or a crash is reported as such; no catalogue entry explains it better
    try:
        reference = _project_function(ROOT / "solutions" / f"{kata}.py", function)
    except (Exception, KataTimeout):  # no reference to compare with: say nothing
        return None
    try:
        correct = [clock.run(reference, kw) for kw in inputs]
        valid = [i for i, o in enumerate(correct) if o.status == "returned"]
        ruled_out = [i for i, o in enumerate(correct) if o.status == "raised"]
        full, on_values = [], []
        own = kata_tolerance(kata)
        for entry in catalogue(kata, folder):
            if not entry.shows_in_values or entry.first_draft_of or entry.stem in exclude:
                continue
            try:
                fn = _project_function(entry.path, function)
            except (Exception, KataTimeout):  # a broken catalogue file names nothing
                continue
            tolerance = own if own and entry.tolerance == "float64" else entry.tolerance
            found, wrong_value = _compare(fn, tolerance, inputs, mine, correct, valid, ruled_out, clock)
            if found == "full":
                full.append((entry, wrong_value))
            elif found == "values":
                on_values.append((entry, True))
    except _OutOfTime:
        return None  # a verdict must not wait for this: say nothing rather than guess
    chosen = full or on_values
    if not chosen:
        return None
    unchecked = ()
    if any(value_bug for _, value_bug in chosen):  # a check bug's own description says it all
        unchecked = tuple(names[i] for i in ruled_out if names[i]
                          and not (mine[i].status == "raised" and mine[i].value_error))
    descriptions = list(dict.fromkeys(e.description for e, _ in chosen))
    text = descriptions[0] if len(descriptions) == 1 else "; or equally, ".join(descriptions)  # English
    alike = tuple(e.stem for e, _ in on_values) if full else ()
    return Diagnosis(tuple(e.stem for e, _ in chosen), text, unchecked, alike, kata)


def kata_tolerance(kata: str) -> str | None:
    """The tolerance of its own that the kata's battery names (dojo/catalogue/tolerances.py), or None."""
    from dojo.catalogue.batteries import BATTERIES

    try:
        return getattr(BATTERIES[kata], "tolerance", None)
    except Exception:
        return None


def _checks_differ(a: Outcome, b: Outcome) -> bool:
    """One call raised ValueError and the other returned (a check, not a value, tells them apart),
    or both raised on an input the contract allows (a crash, whether NumPy says IndexError or ValueError)."""
    both = a.status == b.status == "raised"
    return both or ({a.status, b.status} == {"raised", "returned"} and (a.value_error or b.value_error))


def _compare(fn, tolerance, inputs, mine, correct, valid, ruled_out, clock) -> tuple[str | None, bool]:
    """("full", wrong_value) if ``fn`` does what the candidate did on every input and its bug
    shows there; ("values", True) if it does on every valid input but those where one of them
    raised ValueError and the other returned, and returns a wrong value on one of the others;
    else (None, …). ``wrong_value``: it returns a wrong value on a valid input. Stops at the
    first difference."""
    theirs: dict[int, Outcome] = {}

    def run(i: int) -> Outcome:
        if i not in theirs:
            theirs[i] = clock.run(fn, inputs[i])
        return theirs[i]

    checks = []
    for i in valid:
        if same_behaviour(run(i), mine[i], tolerance, inputs[i]):
            continue
        if not _checks_differ(theirs[i], mine[i]):
            return None, False
        checks.append(i)
    # Its bug shows where it differs from the reference by more than its tolerance (a float32
    # answer by more than float32's rounding: on an input float32 cannot represent). A wrong
    # value is a value bug; a ValueError on a valid input may be a check or NumPy's complaint
    # about shapes, so it is no evidence of one.
    wrong_value = any(theirs[i].status == "returned" and not same_behaviour(theirs[i], correct[i], tolerance, inputs[i])
                      for i in valid if i not in checks)
    if not checks and all(same_behaviour(run(i), mine[i], tolerance, inputs[i]) for i in ruled_out):
        if any(not same_behaviour(theirs[i], correct[i], tolerance, inputs[i]) for i in [*valid, *ruled_out]):
            return "full", wrong_value
    return ("values" if wrong_value else None), wrong_value
