"""Section 1's verdicts: both implementations on every case of the battery, one row a case.

Yours runs in its child process (``dojo/worker/isolate.py``), the reference in this one. A case agrees
when the values agree within the judge's tolerance (rtol 1e-9, atol 1e-12 × max(1, max
|reference|)), as float64, without yours writing into its inputs (a battery that names a
tolerance of its own, ``Battery.tolerance``, compares at that one: dojo/catalogue/tolerances.py); or when both raise ValueError
(yours may raise a subclass) or the same other exception. A case may bound the peak memory
(``Case.max_bytes``): values that agree over the bound disagree. After ``MAX_TIMEOUTS`` calls
that time out, the remaining cases are not run.
"""

from __future__ import annotations

import functools

from dojo.text import locale
from dojo.commands.compare.words import clip, describe, fmt, human_bytes, raised_text
from dojo.text.messages import t

RTOL = 1e-9
ATOL = 1e-12
#: After this many calls that hit the timeout, the remaining cases are not run.
MAX_TIMEOUTS = 2


def split_outputs(value, battery):
    """The arrays a kata returns, as a list; or a sentence saying why they cannot be compared."""
    import numpy as np

    if battery.single:
        if not isinstance(value, np.ndarray):
            return None, t("compare.returned.not-array", value=describe(value))
        return [value], None
    names = ", ".join(battery.outputs)
    if not isinstance(value, tuple) or len(value) != len(battery.outputs):
        return None, t("compare.returned.not-tuple", value=describe(value), names=names)
    return list(value), None


def array_diff(yours, ref) -> dict:
    """Largest absolute and relative difference of two same-shape arrays, and whether they agree."""
    import numpy as np

    ref = np.asarray(ref, dtype=np.float64)
    finite = ref[np.isfinite(ref)]
    scale = max(1.0, float(np.max(np.abs(finite), initial=0.0)))
    with np.errstate(all="ignore"):
        y = np.asarray(yours).astype(np.float64)
        delta = np.abs(y - ref)
        close = np.isclose(y, ref, rtol=RTOL, atol=ATOL * scale)
        nonzero = ref != 0
        rel = delta[nonzero] / np.abs(ref[nonzero])
    bad = ~close
    result = {
        "agree": bool(close.all()),
        # NaN propagates: a NaN where the reference has a number makes the difference NaN
        "max_abs": float(np.max(delta, initial=0.0)),
        "max_rel": float(np.max(rel, initial=0.0)),
        "nan": int(np.count_nonzero(~np.isfinite(y) & np.isfinite(ref))),
        "first": None,
    }
    if bad.any():
        first = tuple(int(i) for i in np.argwhere(bad)[0])
        result["first"] = {"index": list(first), "yours": float(y[first]), "reference": float(ref[first])}
    return result


def compare_values(yours_value, ref_value, battery, inputs: dict | None = None) -> tuple[bool, str, dict]:
    """``inputs``: the call's, for a battery with a tolerance of its own (which needs them)."""
    import numpy as np

    from dojo.catalogue import tolerances

    own = getattr(battery, "tolerance", None)
    if own and inputs is None:
        raise TypeError(f"{battery.kata}'s tolerance ({own}) needs the call's inputs")

    ref_outs, _ = split_outputs(ref_value, battery)
    outs, problem = split_outputs(yours_value, battery)
    if problem:
        return False, problem, {}
    diffs, parts, agree = {}, [], True

    def labelled(name: str, text: str) -> str:
        return text if battery.single else t("compare.output", name=name, text=text)

    for name, y, r in zip(battery.outputs, outs, ref_outs):
        if isinstance(r, list):  # integer sequences of any lengths (beam_search's): padded with -1
            r = tolerances.sequences_as_array(r)
            padded = tolerances.sequences_as_array(y)
            y = y if padded is None else padded
        if isinstance(r, (float, np.floating)) or (isinstance(r, np.ndarray) and r.shape == ()):
            # a scalar output (moe_layer's aux_loss): a Python float, a NumPy float or a 0-d array
            r = np.asarray(r, dtype=np.float64)
            if isinstance(y, (float, np.floating)) and not isinstance(y, bool):
                y = np.asarray(y, dtype=np.float64)
        if not isinstance(y, np.ndarray):
            agree = False
            parts.append(labelled(name, t("compare.output.not-array", value=describe(y))))
            continue
        if y.shape != r.shape:
            agree = False
            parts.append(labelled(name, t("compare.output.shape", yours=str(y.shape), reference=str(r.shape))))
            continue
        d = array_diff(y, r)
        if own:  # the first difference is the first entry outside that tolerance
            ok = tolerances.within(own, y, r, inputs)
            d["agree"], d["first"] = bool(ok.all()), None
            if not d["agree"]:
                first = tuple(int(i) for i in np.argwhere(~ok)[0])
                d["first"] = {"index": list(first), "yours": float(y[first]), "reference": float(r[first])}
        diffs[name] = d
        text = t("compare.output.diff", abs=fmt(d["max_abs"]), rel=fmt(d["max_rel"]))
        if not (tolerances.same_dtype(y.dtype, r.dtype) if own else y.dtype == np.float64):
            agree = False
            text = t("compare.output.dtype", dtype=str(y.dtype), diff=text)
        if not d["agree"]:
            agree = False
        parts.append(text)
    # Where the first difference sits, for one output: the last that disagrees (the weights
    # explain the out of attention, not the other way round).
    for i in reversed(range(len(parts))):
        name = battery.outputs[i] if i < len(battery.outputs) else None
        d = diffs.get(name)
        if d and not d["agree"]:
            f = d["first"]
            where = str(tuple(f["index"]))
            if d["nan"]:
                parts[i] = t("compare.output.nan", count=d["nan"], where=where, reference=f"{f['reference']:.4g}")
            else:
                parts[i] = t("compare.output.first", diff=parts[i], where=where, yours=f"{f['yours']:.10g}",
                             reference=f"{f['reference']:.10g}")
            break
    parts = [labelled(name, part) if name in diffs else part for name, part in zip(battery.outputs, parts)]
    if agree and diffs and all(d["max_abs"] == 0 for d in diffs.values()):
        return True, t("compare.identical"), diffs
    return agree, " · ".join(parts), diffs


def compare_case(ref, yours, battery, file_name: str, inputs: dict | None = None) -> tuple[bool, str, dict]:
    """(agree, the row's text, per-output differences) for one case's two outcomes."""
    def returned(outcome) -> str:
        return describe(outcome.value, limit=40)

    def ref_returned() -> str:
        value = ref.value
        if isinstance(value, tuple):
            shapes = [getattr(v, "shape", "?") for v in value]
            said = [f"{name} {shape}" for name, shape in zip(battery.outputs, shapes)]
            return functools.reduce(lambda a, b: t("compare.case.outputs", first=a, second=b), said)
        return t("compare.case.shape", shape=str(getattr(value, "shape", "?")))

    if yours.status == "skipped":
        return False, account(yours), {}
    if yours.status == "timeout":
        what = t("compare.case.timeout", seconds=f"{yours.seconds:g}")
        if "waited" in yours.message:  # not computing at all: sleeping or blocked
            english = locale.LANGUAGE == "en" or yours.said is None
            what = t("compare.case.waited", text=yours.message.split("() ", 1)[-1] if english else account(yours))
        return False, what, {}
    if yours.status == "crashed":
        return False, t("compare.case.crashed", text=account(yours)), {}
    if yours.status == "unpicklable":
        return False, t("compare.case.unpicklable", type=yours.error_type, text=account(yours)), {}
    if yours.status == "cannot-load":
        return False, account(yours), {}

    if ref.returned:
        if yours.returned:
            if yours.mutated:
                names = t("compare.list.sep").join(f"`{k}`" for k in yours.mutated)
                return False, t("compare.case.mutated", names=names), {}
            return compare_values(yours.value, ref.value, battery, inputs)
        return False, t("compare.case.raised", raised=raised_text(yours, file_name), returned=ref_returned()), {}

    # the reference raised
    if ref.value_error and yours.status == "raised" and yours.value_error:
        if yours.error_type == "ValueError":
            return True, t("compare.case.both-value-error"), {}
        return True, t("compare.case.both-value-error.subclass", type=yours.error_type), {}
    if yours.returned:
        return False, t("compare.case.returned-not-raised", message=clip(ref.message, 60), returned=returned(yours)), {}
    if ref.value_error:
        return False, t("compare.case.raised-other", message=clip(ref.message, 60),
                        raised=raised_text(yours, file_name)), {}
    if yours.status == "raised" and yours.error_type == ref.error_type:
        return True, t("compare.case.both-raise", type=ref.error_type), {}
    return False, t("compare.case.raise-differ", reference=raised_text(ref), raised=raised_text(yours, file_name)), {}


def memory_verdict(case, peak: int | None, text: str) -> tuple[bool, str]:
    """(agree, row text) for a case whose contract bounds the peak memory: values that agree
    are not enough when the peak (resident memory growth during one call) is over ``case.max_bytes``."""
    bound = human_bytes(case.max_bytes)
    if peak is None:
        return False, t("compare.memory.unmeasured", text=text, bound=bound)
    if peak > case.max_bytes:
        return False, t("compare.memory.over", peak=human_bytes(peak), bound=bound)
    return True, t("compare.memory.under", text=text, peak=human_bytes(peak), bound=bound)


def run_battery(battery, ref_fn, yours, timeout: float, file_name: str, outcomes: list | None = None) -> list[dict]:
    from dojo.worker.isolate import Outcome, call_here

    rows = []
    timeouts = 0
    for case in battery.cases:
        inputs = battery.inputs(case)
        ref = call_here(ref_fn, battery.inputs(case))
        if timeouts >= MAX_TIMEOUTS:
            mine = Outcome("skipped", message=t("compare.case.not-run", count=timeouts))
        else:
            mine = yours.call(inputs, timeout)
            timeouts += mine.status == "timeout"
        if outcomes is not None:
            outcomes.append((inputs, mine))
        agree, text, diffs = compare_case(ref, mine, battery, file_name, inputs)
        if agree and case.max_bytes is not None and mine.returned:
            peak = yours.ask(("memory", inputs), timeout + 10 * (mine.seconds or 0.0) + 2.0)
            agree, text = memory_verdict(case, None if isinstance(peak, Outcome) else peak, text)
        rows.append({
            "case": case.name, "kind": case.kind, "agree": agree, "result": text, "diffs": diffs,
            "reference": outcome_json(ref), "yours": outcome_json(mine),
        })
    return rows


def outcome_json(outcome) -> dict:
    data = {"status": outcome.status}
    if outcome.returned:
        data["value"] = describe(outcome.value)
        if outcome.mutated:
            data["mutated"] = outcome.mutated
    elif outcome.status in ("raised", "cannot-load"):
        data.update(type=outcome.error_type, message=outcome.message, value_error=outcome.value_error)
        if outcome.line:
            data["line"] = outcome.line
    elif outcome.message:
        data["message"] = outcome.message
    return data


def account(outcome) -> str:
    """What happened to a call, in the screen's language: the tool's own account of a hang, a
    crash or a file that cannot be loaded (``Outcome.said``), else the words it came with."""
    from dojo.text.messages import text

    return text(outcome.said) if outcome.said else outcome.message
