"""The judge's vocabulary: call the candidate's code safely, compare, expect errors, explain.

Every failure a candidate sees is a ``KataMismatch`` whose message says, in interview terms,
what was expected and what came back. The conftest turns it into the short report.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given

from dojo.worker import wire
from dojo.text.messages import array_param, message
from dojo.text.messages import text as message_text
from dojo.worker.loader import KataTimeout, time_limit
from dojo.worker.remote import CandidateEscape, EarlierResultChanged, InputModified, RemoteFunction
from dojo.worker.returned import Returned
from tests import tolerance

#: Tolerances against the float64 oracle (tests/tolerance.py says why they are these).
RTOL = tolerance.RTOL
ATOL = tolerance.ATOL


class KataMismatch(AssertionError):
    """The candidate's answer broke a property. ``message`` is what the candidate reads, as data
    (``dojo.text.messages``: an id and its parameters; a plain sentence is kept as the ``text``
    message).

    ``hint`` is a generic suggestion shown after the facts, unless the judge can name the
    known bug the answer behaves like (a diagnosis says more than a guess).
    """

    def __init__(self, what, hint=None):
        self.message = what if isinstance(what, dict) else message("text", text=str(what))
        self.hint = hint if hint is None or isinstance(hint, dict) else message("text", text=str(hint))
        super().__init__(message_text(self.message))


def prop(**strategies):
    """``hypothesis.given`` that also remembers the raw test and its strategies.

    The judge's self-check (tests/meta) re-runs every property against known-wrong and
    known-right implementations with its own settings; it needs both pieces for that.
    """

    def decorate(test):
        wrapped = given(**strategies)(test)
        wrapped._dojo_property = (test, strategies)
        return wrapped

    return decorate


def show(a, indent: int = 0) -> str:
    """A compact, readable rendering of an array for failure messages.

    Continuation lines are indented by ``indent`` so a matrix stays aligned after a label.
    """
    if isinstance(a, np.ndarray):
        from dojo.text.screen import array_width

        body = np.array2string(a, precision=6, threshold=60, edgeitems=3,
                               max_line_width=array_width(90, 14 + indent))
        body = body.replace("\n", "\n" + " " * indent)
        return f"{body}   (shape {a.shape}, {a.dtype})"
    return repr(a)


def labelled(label: str, a) -> str:
    """``label: <array>`` with the array's rows lined up under its first row."""
    return f"{label}{show(a, indent=len(label))}"


class Guarded:
    """The candidate's function, called with a time limit and an input-mutation check.

    A candidate's file runs in a sandboxed worker (``RemoteFunction``): the limit is on the
    worker's CPU time, and the worker reports inputs written into. The project's own files (the
    self-check's catalogue) run in this process, with an alarm and copies of the inputs."""

    def __init__(self, fn, name: str, timeout: float | None):
        self.fn = fn
        self.name = name
        self.timeout = timeout
        #: The inputs of every call since the judge last cleared it (once per example), so the
        #: calls of a failing example can be replayed to diagnose the bug.
        self.calls: list[dict] = []
        #: In this process: the last result, to tell whether the next call wrote into it (a
        #: worker keeps its own, dojo.worker.returned).
        self.returned = Returned()

    def new_example(self) -> None:
        """Forget the calls so far: the next one starts an example (each example's calls are
        replayed on their own, so what a call wrote into an earlier one's result is checked
        within one example only)."""
        self.calls = []
        self.returned = Returned()
        if isinstance(self.fn, RemoteFunction):
            self.fn.fresh = True

    def __call__(self, **kwargs):
        self.calls.append(dict(kwargs))
        if isinstance(self.fn, RemoteFunction):
            try:
                return self.fn(**kwargs)
            except InputModified as e:
                key = next(iter(e.after))
                self._modified(key, kwargs[key], e.after[key])
            except EarlierResultChanged:
                self._earlier_changed()
            except KataTimeout as e:
                e.inputs = kwargs  # so the report can show the input that hung
                raise
        before = {k: v.copy() for k, v in kwargs.items() if isinstance(v, np.ndarray)}
        # The function gets its own copies: an answer that writes into its inputs is caught
        # below, and the property's own arrays (which the oracle sees next) stay as drawn.
        given = {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in kwargs.items()}
        try:
            # in-process: the project's own files (a candidate's code runs in a worker), timed
            # by CPU so that a busy machine never turns a right file's call into a hang
            with time_limit(self.timeout, what=message("worker.your-function", function=self.name), cpu=True):
                result = self.fn(**given)
        except KataTimeout as e:
            e.inputs = kwargs
            raise
        for key, original in before.items():
            if not np.array_equal(given[key], original, equal_nan=True):
                self._modified(key, original, given[key])
        if self.returned.changed():
            self._earlier_changed()
        self.returned.keep(result, given)
        return result

    def peak_memory(self, cpu: float, first: dict, second: dict, bound: int | None = None):
        """``([result, result], bytes)``: two calls in a fresh worker, the first on ``first`` and
        the second on ``second``, and the memory they need as the kernel counts it
        (``dojo.worker.memory``: the first call's rise, or what it left behind plus the second
        call's rise). With ``bound``, no allocation may take the calls' data past it: where one
        failed, no results and ``memory.OVER``. Always measured in a worker, so a file of the
        project's own is measured as a candidate's is."""
        import inspect
        from pathlib import Path

        self.calls.extend((dict(first), dict(second)))
        remote = self.fn
        if not isinstance(remote, RemoteFunction):
            remote = RemoteFunction(Path(inspect.getsourcefile(self.fn)), self.fn.__name__, cpu_budget=None)
        made = remote.calls
        try:
            return remote.peak_memory_of(first, second, cpu=cpu, data_limit=bound)
        except InputModified as e:
            kwargs = (first, second)[min(1, remote.calls - made - 1)]
            key = next(iter(e.after))
            self._modified(key, kwargs[key], e.after[key])
        except KataTimeout as e:
            e.inputs = (first, second)[min(1, remote.calls - made - 1)]
            raise
        finally:
            if remote is not self.fn:
                remote.close()

    def _earlier_changed(self):
        raise KataMismatch(message("result.changed-later", function=self.name))

    def _modified(self, key, before, after):
        raise KataMismatch(message("input.modified", function=self.name, key=key,
                                   before=_shown(before), after=_shown(after)))


def _shown(a):
    """A value as message data: an array's data, anything else its repr (``returned_text``)."""
    return array_param(a) if isinstance(a, np.ndarray) else returned_text(a)


def returned_text(value, limit: int = 300) -> str:
    """What the candidate's code returned, as text for a message: its repr, with control
    characters and lone surrogates spelled out (dojo.worker.answers.visible), cut after ``limit``
    characters. A returned string reached the screen as it was: escape sequences that drew a
    fake pass, 20 MB of text (stop 53's hostile round)."""
    from dojo.worker.answers import visible

    text = visible(repr(value))
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text) - limit} more characters)"


def check_array(got, what: str, shape: tuple) -> np.ndarray:
    """``got`` must be a float64 ndarray of exactly ``shape``."""
    if not isinstance(got, np.ndarray):
        raise KataMismatch(message("result.not-array", what=what, type=wire.type_name(got),
                                   repr_text=returned_text(got, 200)))
    if got.shape != tuple(shape):
        raise KataMismatch(message("result.shape", what=what, want=str(tuple(shape)), got=str(got.shape)))
    if got.dtype != np.float64:
        raise KataMismatch(message("result.dtype", what=what, got=str(got.dtype)))
    return got


def check_pair(result, name: str, out_shape: tuple, weights_shape: tuple):
    """``result`` must be ``(out, weights)`` with the given shapes, both float64."""
    if not isinstance(result, tuple) or len(result) != 2:
        raise KataMismatch(message("result.not-pair", function=name, type=wire.type_name(result)))
    out, weights = result
    return (
        check_array(out, "out", out_shape),
        check_array(weights, "weights", weights_shape),
    )


def check_close(got, want, what, why="", rtol: float = RTOL, atol: float = ATOL):
    """``got`` must match ``want`` (the oracle's, or a related call's) within float64 noise.

    ``what`` names the compared value and ``why`` says what it should be: each a plain string
    (an identifier such as ``"out"``) or a message (``dojo.text.messages.message``), rendered in the
    screen's language."""
    got = np.asarray(got)
    want = np.asarray(want)
    scale = float(np.max(np.abs(want[np.isfinite(want)]), initial=1.0))
    ok = got.shape == want.shape and np.allclose(
        got, want, rtol=rtol, atol=atol * max(1.0, scale), equal_nan=False
    )
    if ok:
        return
    why_text = message("values.why", why=why) if why else ""
    if got.shape != want.shape:
        raise KataMismatch(message("values.wrong-shape", what=what, why_text=why_text,
                                   expected=array_param(want), got=array_param(got)))
    bad = ~np.isclose(got, want, rtol=rtol, atol=atol * max(1.0, scale))
    first = tuple(int(i) for i in np.argwhere(bad)[0])
    nan_at = np.isnan(got) & ~np.isnan(want)
    if nan_at.any():
        first = tuple(int(i) for i in np.argwhere(nan_at)[0])
        detail = message("values.nan-at", index=str(first), want=float(want[first]))
    else:
        with np.errstate(invalid="ignore", over="ignore"):
            diff = np.abs(got - want)
        detail = message("values.first-difference", index=str(first), want=float(want[first]),
                         got=float(got[first]), largest=_nanmax(diff))
    digits = telling_precision(want, got)
    raise KataMismatch(message("values.wrong", what=what, why_text=why_text, detail=detail,
                               expected=array_param(want, precision=digits),
                               got=array_param(got, precision=digits)))


def telling_precision(want, got) -> int:
    """The fewest digits (6, 10 or 17) at which the printed expected and got differ: a float32
    rounding error (1e-8) printed at 6 digits would show two identical arrays."""
    for digits in (6, 10):
        if np.array2string(want, precision=digits, threshold=60) != np.array2string(got, precision=digits, threshold=60):
            return digits
    return 17


def _nanmax(diff) -> str:
    finite = diff[~np.isnan(diff)]
    return f"{finite.max():.3g}" if finite.size else "nan"


def check_leaves_inputs_alone(call, inputs: dict, function: str):
    """``call()`` must leave every array in ``inputs`` exactly as it was.

    ``Guarded`` hands the candidate copies of its arrays and fails the call with a before/after
    picture if it wrote into any, so the property that names this rule only has to call.
    """
    call()


def check_finite(out, weights, largest_score: float | None = None):
    """A valid input has a finite answer: NaN or inf in it is a bug, whatever else is compared.

    ``largest_score``: the largest |score| that takes part in a softmax for this input. The
    hint blames exp() overflow only when the scores really are that large.
    """
    for what, a in (("weights", weights), ("out", out)):
        bad = np.argwhere(~np.isfinite(a))
        if bad.size:
            index = tuple(int(i) for i in bad[0])
            raise KataMismatch(
                message("values.not-finite", what=what, index=str(list(index)), value=str(a[index]),
                        array=array_param(a)),
                hint=nan_hint(largest_score),
            )
    return out, weights


#: exp(x) overflows float64 above this.
EXP_OVERFLOW = 709.0


def nan_hint(largest_score: float | None) -> dict:
    """Where a NaN most likely comes from, given how large the scores are (a message)."""
    if largest_score is None:
        return message("hint.nan")
    if largest_score > EXP_OVERFLOW:
        return message("hint.nan.overflow", largest=f"{largest_score:.3g}")
    return message("hint.nan.no-overflow", largest=f"{largest_score:.3g}")


def check_close_or_explain(got, want, what: str, why):
    """check_close, building the explanation ``why()`` only when it fails (it can be slow)."""
    try:
        check_close(got, want, what)
    except KataMismatch:
        check_close(got, want, what, why())


def check_that(condition: bool, what):
    """``what``: the failure, a message or a plain string."""
    if not condition:
        raise KataMismatch(what)


def expect_value_error(call, because):
    """``call()`` must raise ValueError (or a subclass) because the input breaks the contract.

    ``because``: why, as a message (``message("judge.<kata>.because.<id>", ...)``) or a plain
    string; a message is rendered in the screen's language."""
    try:
        result = call()
    except ValueError:
        return
    except KataMismatch:
        raise
    except CandidateEscape as e:
        raise KataMismatch(message("expect.value-error.escaped", because_text=because,
                                   escape=getattr(e, "message", None) or message("text", text=str(e)))) from e
    except Exception as e:
        raise KataMismatch(message("expect.value-error.raised", because_text=because,
                                   type=getattr(e, "type_name", type(e).__name__),
                                   text=getattr(e, "said", None) or str(e))) from e
    shown = returned_text(result if not isinstance(result, tuple) else list(result))
    if isinstance(result, tuple) and result:  # "a, b, c" with each array as data
        shown = _shown(result[-1])
        for r in reversed(result[:-1]):
            shown = message("values.several", first=_shown(r), rest=shown)
    elif isinstance(result, np.ndarray):
        shown = array_param(result)
    raise KataMismatch(message("expect.value-error.returned", because_text=because, result=shown))
