"""Say which known bug an answer behaves like, and only when that is reproduced.

The judge's self-check keeps a catalogue of realistic wrong answers per kata
(``tests/meta/wrong/<kata>/*.py``, each with a one-line description). When an answer fails,
its behaviour is compared with every one of them on the inputs it failed on and on the kata's
``dojo compare`` battery (edge, random and error cases): the same values within the judge's
tolerance, the same dtype and shape, the same inputs written into, or the same kind of error.
A wrong file that behaves the same on every one of those inputs, and whose bug shows on them
(it differs from the reference somewhere), is named; when none does (an answer with two bugs,
a bug nobody catalogued, a hang, a bug that values cannot show such as memory use), nothing is
said. Two catalogue files that cannot be told apart by these inputs must say so
(``BEHAVES_LIKE = ("other_stem",)``), and the self-check holds the judge to it. A bug whose
outputs equal the reference's says ``SHOWS_IN_VALUES = False``: it is never named.

Used by the judge (``conftest.py``, in the judge's own process, every call time-limited) and
by ``dojo compare``. NumPy is imported lazily.
"""

from __future__ import annotations

import ast
import copy
import warnings
from dataclasses import dataclass
from pathlib import Path

from dojo.isolate import Outcome, call_here
from dojo.loader import KataProblem, KataTimeout, load_kata, time_limit

ROOT = Path(__file__).resolve().parent.parent
WRONG = ROOT / "tests" / "meta" / "wrong"
RTOL = 1e-9
ATOL = 1e-12
#: Each call gets at most this long (one catalogue file hangs on purpose), and the whole
#: diagnosis at most BUDGET seconds: past it, nothing is said rather than a verdict delayed.
CALL_SECONDS = 0.25
BUDGET = 1.5


class _OutOfTime(Exception):
    pass


class _Clock:
    def __init__(self, budget: float, call: float):
        import time

        self.end = time.monotonic() + budget
        self.call = call

    def run(self, fn, kwargs: dict) -> Outcome:
        import time

        left = self.end - time.monotonic()
        if left <= 0:
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


def catalogue(kata: str, folder: Path = WRONG) -> list[Known]:
    """The known-wrong implementations of ``kata``, described, in name order."""
    found = []
    for path in sorted((folder / kata).glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        doc = (ast.get_docstring(tree) or path.stem).strip().splitlines()[0]
        constants = {
            target.id: node.value
            for node in tree.body if isinstance(node, ast.Assign)
            for target in node.targets if isinstance(target, ast.Name)
        }
        like = tuple(ast.literal_eval(constants["BEHAVES_LIKE"])) if "BEHAVES_LIKE" in constants else ()
        shows = bool(ast.literal_eval(constants["SHOWS_IN_VALUES"])) if "SHOWS_IN_VALUES" in constants else True
        found.append(Known(path.stem, path, doc.rstrip("."), like, shows))
    return found


def behaviour(fn, kwargs: dict, seconds: float = CALL_SECONDS) -> Outcome:
    """What ``fn`` does with a fresh copy of ``kwargs``, within ``seconds``."""
    kwargs = copy.deepcopy(kwargs)
    try:
        with time_limit(seconds, what="a call"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return call_here(fn, kwargs)
    except KataTimeout:
        return Outcome("timeout")


def same_behaviour(a: Outcome, b: Outcome) -> bool:
    """Whether two calls did the same thing: same values (within tolerance), dtypes, shapes and
    writes into the inputs, or the same kind of error (any ValueError is one kind), or both hung."""
    if a.status != b.status:
        return False
    if a.status == "timeout":
        return True
    if a.status == "raised":
        return a.value_error == b.value_error and (a.value_error or a.error_type == b.error_type)
    if a.status == "returned":
        return sorted(a.mutated) == sorted(b.mutated) and _same_value(a.value, b.value)
    return False


def _same_value(x, y) -> bool:
    import numpy as np

    if isinstance(x, tuple) or isinstance(y, tuple):
        return (isinstance(x, tuple) and isinstance(y, tuple) and len(x) == len(y)
                and all(_same_value(p, q) for p, q in zip(x, y)))
    if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
        if not (isinstance(x, np.ndarray) and isinstance(y, np.ndarray)):
            return False
        if x.shape != y.shape or x.dtype != y.dtype:
            return False
        try:
            with np.errstate(all="ignore"):
                fx, fy = x.astype(np.float64), y.astype(np.float64)
                scale = float(np.max(np.abs(fy[np.isfinite(fy)]), initial=1.0))
                return bool(np.allclose(fx, fy, rtol=RTOL, atol=ATOL * max(1.0, scale), equal_nan=True))
        except (TypeError, ValueError):
            return bool(np.array_equal(x, y))
    return type(x) is type(y) and repr(x) == repr(y)


@dataclass(frozen=True)
class Diagnosis:
    """The known bugs an answer behaved like on every input tried (``stems``), described."""

    stems: tuple[str, ...]
    description: str

    def sentence(self) -> str:
        return f"Your answer behaves like a known bug: {self.description}."


def _remember(store: list, outcome: Outcome) -> Outcome:
    store.append(outcome)
    return outcome


def probes(kata: str) -> tuple[list[dict], list[dict]]:
    """(valid inputs, bad inputs) from the kata's compare battery; ([], []) without one."""
    from dojo.batteries import BATTERIES

    try:
        battery = BATTERIES[kata]
    except Exception:  # no battery (or a broken one): diagnose from the failing input alone
        return [], []
    valid, bad = [], []
    for case in battery.cases:
        if getattr(case, "max_bytes", None) is not None:
            continue  # a case about memory: large and slow, and values cannot show its bug
        (bad if case.kind == "error" else valid).append(battery.inputs(case))
    return valid, bad


def diagnose(kata: str, function: str, candidate, failing: list[dict], folder: Path = WRONG,
             budget: float = BUDGET, call: float = CALL_SECONDS) -> Diagnosis | None:
    """The known bug ``candidate`` behaves like, or None.

    A catalogue file is named only if it does what the candidate does on every input tried:
    ``failing`` (the calls of the input the candidate failed on) and every case of the kata's
    battery, valid and bad alike, and its bug shows on them. An answer with two bugs therefore
    gets no diagnosis, and a right answer never gets one."""
    valid, bad = probes(kata)
    inputs = [*failing, *valid, *bad]  # the failing calls first: they tell most bugs apart at once
    clock = _Clock(budget, call)
    try:
        mine = [clock.run(candidate, kw) for kw in inputs]
    except _OutOfTime:
        return None
    return match(kata, function, inputs, mine, folder, clock)


def match(kata: str, function: str, inputs: list[dict], mine: list[Outcome], folder: Path = WRONG,
          clock: _Clock | None = None) -> Diagnosis | None:
    """The catalogue files that do on every one of ``inputs`` what the candidate did (``mine``)
    and whose bug shows on them (they differ from the reference somewhere)."""
    clock = clock or _Clock(BUDGET, CALL_SECONDS)
    if not inputs or any(o.status not in ("returned", "raised") for o in mine):
        return None  # a hang or a crash is reported as such; no catalogue entry explains it better
    try:
        reference = load_kata(ROOT / "solutions" / f"{kata}.py", function)
        correct = [clock.run(reference, kw) for kw in inputs]
        chosen = []
        for entry in catalogue(kata, folder):
            if not entry.shows_in_values:
                continue
            try:
                fn = load_kata(entry.path, function)
            except (KataProblem, KataTimeout):
                continue
            theirs: list[Outcome] = []
            if all(same_behaviour(_remember(theirs, clock.run(fn, kw)), o) for kw, o in zip(inputs, mine)) and not all(
                same_behaviour(a, b) for a, b in zip(theirs, correct)
            ):  # it does what you did, and its bug shows on these inputs
                chosen.append(entry)
    except _OutOfTime:
        return None  # a verdict must not wait for this: say nothing rather than guess
    except (KataProblem, KataTimeout):
        return None
    if not chosen:
        return None
    descriptions = list(dict.fromkeys(e.description for e in chosen))
    text = descriptions[0] if len(descriptions) == 1 else "; or equally, ".join(descriptions)
    return Diagnosis(tuple(e.stem for e in chosen), text)
