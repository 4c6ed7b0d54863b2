"""Readable verdicts: each property's record (what failed, the input, the hint, the diagnosis),
the text plain pytest prints for it, and the JSON report the ``dojo`` tool reads."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import is_hypothesis_test

from dojo.worker.loader import KataTimeout
from tests.plugin.common import kata_of, relative
from tests.plugin.selector import KataStatus


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    kata = kata_of(item)
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
            from dojo.judge.verdict import status_of

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
    from dojo.screens.results import OUTPUT_LIMIT, TRUNCATED

    text = "".join(getattr(config, "dojo_printed", []))
    config.dojo_printed = []
    if len(text) > OUTPUT_LIMIT:
        text = text[:OUTPUT_LIMIT - len(TRUNCATED)] + TRUNCATED
    return text


def _text_message(text: str) -> dict:
    from dojo.text.messages import message

    return message("text", text=text)


def _title(item) -> str:
    """A property's title as stored in its record: its docstring's first line, in English (a
    screen shows it in its language: ``dojo.text.locale.property_title``)."""
    if isinstance(item, KataStatus):
        return item.state
    doc = getattr(getattr(item, "function", None), "__doc__", None) or item.name
    return doc.strip().splitlines()[0]


def _failure_text(record: dict, kata) -> str:
    """What plain pytest prints for a failing property: the same text the tool shows."""
    from dojo.screens.render import failure_text

    from dojo.text.locale import property_title

    title = property_title(kata.module, record["id"], record["title"])
    return failure_text(record, kata.function, header=f"{kata.module} — {title}")


def _diagnose_pending(config) -> None:
    """Name the known bug each kata's first failure behaves like (dojo/judge/diagnosis.py), or say
    nothing. Done once the properties have all run: what the diagnosis imports and runs must
    not change the examples of the properties after it. Every call is time-limited."""
    from dojo.judge.diagnosis import diagnose

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

    from dojo.text.messages import message
    from dojo.worker.remote import CandidateError, CandidateEscape, TooSlow
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
            out["at"] = message("candidate.at", file=relative(impl_file), line=exc.line, source_text=exc.source)
    elif isinstance(exc, Flaky):
        out["message"] = message("candidate.flaky", function=kata.function)
    else:  # a fault in the judge itself: pytest's own report stays
        return {"message": message("text", text=f"{type(exc).__name__}: {exc}"), "status": "error-in-judge"}
    # a fixed @example is not shrunk: Hypothesis notes its failure as "Failing explicit example"
    explicit = any(str(n).startswith("Failing explicit example") for n in getattr(exc, "__notes__", None) or [])
    guarded = getattr(item, "funcargs", {}).get("kata")
    calls = list(getattr(guarded, "calls", []) or [])
    if isinstance(exc, KataTimeout) and getattr(exc, "inputs", None):
        out["inputs_label"] = "input.last-given" if isinstance(exc, TooSlow) else "input.hung-on"
        out["calls"] = [_call_data(exc.inputs)]
    elif calls:  # in the kata's own argument names, as your function got them
        # Hypothesis shrinks only what it draws: a property that builds a fixed input itself
        # (INPUT_BUILT_INSIDE: flash attention's memory bound at 1000 x 16500) is not said to be shrunk
        fixed = getattr(item, "originalname", item.name) in getattr(getattr(item, "module", None), "INPUT_BUILT_INSIDE", ())
        drawn = is_hypothesis_test(getattr(item, "obj", None)) and not fixed and not explicit
        out["inputs_label"] = "input.shrunk" if drawn else "input.given"
        # the first call and the last (where a property stops: the call it found wrong, mostly)
        out["calls"] = [_call_data(c) for c in (calls if len(calls) <= 2 else [calls[0], calls[-1]])]
        out["call_count"] = len(calls)
    else:
        example = _falsifying_example(exc)
        if example:
            out["inputs_label"] = "input.example-given" if explicit else "input.example"
            out["example"] = example
    return out


def _call_data(kwargs: dict) -> dict:
    """One call's arguments as data: each value's printout (``repr``, NumPy printing compactly)
    and, for a small array, its values."""
    import numpy as np

    from dojo.text.messages import array_param, message
    from dojo.text.screen import array_width

    out = {}
    for name, value in kwargs.items():
        # shown one argument a line, "name=" after 8 cells: "    call 1: f(" / "        x=array(["
        with np.printoptions(precision=4, threshold=40, edgeitems=3, linewidth=array_width(88, 9 + len(name))):
            entry = {"repr": repr(value)}
            if isinstance(value, np.ndarray):
                data = array_param(value)
                entry.update({k: data[k] for k in ("shape", "dtype", "values") if k in data})
                if value.ndim > 1 and value.flags.f_contiguous and not value.flags.c_contiguous:
                    entry["layout"] = message("input.layout.fortran")
                elif value.size and not (value.flags.c_contiguous or value.flags.f_contiguous):
                    entry["layout"] = message("input.layout.view", strides=str(value.strides))
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
            default=_as_text,
        )
    os.replace(tmp, path)


def _as_text(value) -> str:
    """What JSON cannot hold, in a record (a value the candidate's code returned, put in a
    message as it is): its repr, safe and short. A generator returned for a bad input once ended
    the run here, and the verdict was "the judge did not finish"."""
    from tests.judge import returned_text

    return returned_text(value)


def pytest_sessionfinish(session, exitstatus):
    config = session.config
    if getattr(config, "dojo_pending", None):
        _diagnose_pending(config)
    if getattr(config, "dojo_watchdog", None) is not None:
        config.dojo_watchdog.stop()
        config.dojo_watchdog = None
    for remote in getattr(config, "dojo_remotes", ()):
        remote.close()
    from dojo.worker.workers import Zygote

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
