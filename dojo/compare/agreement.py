"""Section 1's verdicts: both implementations on every case of the battery, one row a case.

Yours runs in its child process (``dojo/isolate.py``), the reference in this one. A case agrees
when the values agree within the judge's tolerance (rtol 1e-9, atol 1e-12 × max(1, max
|reference|)), as float64, without yours writing into its inputs; or when both raise ValueError
(yours may raise a subclass) or the same other exception. A case may bound the peak memory
(``Case.max_bytes``): values that agree over the bound disagree. After ``MAX_TIMEOUTS`` calls
that time out, the remaining cases are not run.
"""

from __future__ import annotations

from dojo.compare.words import clip, describe, fmt, human_bytes, raised_text

RTOL = 1e-9
ATOL = 1e-12
#: After this many calls that hit the timeout, the remaining cases are not run.
MAX_TIMEOUTS = 2


def split_outputs(value, battery):
    """The arrays a kata returns, as a list; or a sentence saying why they cannot be compared."""
    import numpy as np

    if battery.single:
        if not isinstance(value, np.ndarray):
            return None, f"yours returned {describe(value)}, not a NumPy array"
        return [value], None
    names = ", ".join(battery.outputs)
    if not isinstance(value, tuple) or len(value) != len(battery.outputs):
        return None, f"yours returned {describe(value)}, not a tuple ({names})"
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


def compare_values(yours_value, ref_value, battery) -> tuple[bool, str, dict]:
    import numpy as np

    ref_outs, _ = split_outputs(ref_value, battery)
    outs, problem = split_outputs(yours_value, battery)
    if problem:
        return False, problem, {}
    diffs, parts, agree = {}, [], True
    for name, y, r in zip(battery.outputs, outs, ref_outs):
        label = "" if battery.single else f"{name}: "
        if not isinstance(y, np.ndarray):
            agree = False
            parts.append(f"{label}yours is {describe(y)}, not a NumPy array")
            continue
        if y.shape != r.shape:
            agree = False
            parts.append(f"{label}shape {y.shape}, the reference's is {r.shape}")
            continue
        d = array_diff(y, r)
        diffs[name] = d
        text = f"{label}max |Δ| {fmt(d['max_abs'])}, rel {fmt(d['max_rel'])}"
        if y.dtype != np.float64:
            agree = False
            text = f"{label}dtype {y.dtype}, not float64 ({text[len(label):]})"
        if not d["agree"]:
            agree = False
        parts.append(text)
    # Where the first difference sits, for one output: the last that disagrees (the weights
    # explain the out of attention, not the other way round).
    for i in reversed(range(len(parts))):
        name = battery.outputs[i] if i < len(battery.outputs) else None
        d = diffs.get(name)
        if d and not d["agree"]:
            label = "" if battery.single else f"{name}: "
            f = d["first"]
            where = tuple(f["index"])
            if d["nan"]:
                parts[i] = (f"{label}{d['nan']} NaN/inf where the reference has numbers, first at {where} "
                            f"(reference {f['reference']:.4g})")
            else:
                parts[i] += f" — first at {where}: yours {f['yours']:.10g}, reference {f['reference']:.10g}"
            break
    if agree and diffs and all(d["max_abs"] == 0 for d in diffs.values()):
        return True, "identical", diffs
    return agree, " · ".join(parts), diffs


def compare_case(ref, yours, battery, file_name: str) -> tuple[bool, str, dict]:
    """(agree, the row's text, per-output differences) for one case's two outcomes."""
    def returned(outcome) -> str:
        return describe(outcome.value, limit=40)

    def ref_returned() -> str:
        value = ref.value
        if isinstance(value, tuple):
            shapes = [getattr(v, "shape", "?") for v in value]
            return " and ".join(f"{name} {shape}" for name, shape in zip(battery.outputs, shapes))
        return f"an array of shape {getattr(value, 'shape', '?')}"

    if yours.status == "skipped":
        return False, yours.message, {}
    if yours.status == "timeout":
        what = f"yours did not return within {yours.seconds:g} s of CPU time (timed out; an endless loop?)"
        if "waited" in yours.message:  # not computing at all: sleeping or blocked
            what = f"yours did not return: {yours.message.split('() ', 1)[-1]}"
        return False, what, {}
    if yours.status == "crashed":
        return False, f"yours ended the process running it: {yours.message}", {}
    if yours.status == "unpicklable":
        return False, f"yours returned a {yours.error_type} that cannot be compared: {yours.message}", {}
    if yours.status == "cannot-load":
        return False, yours.message, {}

    if ref.returned:
        if yours.returned:
            if yours.mutated:
                names = ", ".join(f"`{k}`" for k in yours.mutated)
                return False, f"yours modified its input {names} in place (the caller's array must be left as it was)", {}
            return compare_values(yours.value, ref.value, battery)
        return False, f"yours raised {raised_text(yours, file_name)}; the reference returned {ref_returned()}", {}

    # the reference raised
    if ref.value_error and yours.status == "raised" and yours.value_error:
        extra = "" if yours.error_type == "ValueError" else f" (yours: {yours.error_type}, a subclass)"
        return True, f"both raise ValueError{extra}", {}
    if yours.returned:
        return False, f"reference raises ValueError ({clip(ref.message, 60)}); yours returned {returned(yours)}", {}
    if ref.value_error:
        return False, f"reference raises ValueError ({clip(ref.message, 60)}); yours raised {raised_text(yours, file_name)}", {}
    if yours.status == "raised" and yours.error_type == ref.error_type:
        return True, f"both raise {ref.error_type}", {}
    return False, f"reference raises {raised_text(ref)}; yours raised {raised_text(yours, file_name)}", {}


def memory_verdict(case, peak: int | None, text: str) -> tuple[bool, str]:
    """(agree, row text) for a case whose contract bounds the peak memory: values that agree
    are not enough when the peak (resident memory growth during one call) is over ``case.max_bytes``."""
    bound = human_bytes(case.max_bytes)
    if peak is None:
        return False, f"{text}, but yours could not be measured for memory (the contract bounds it at {bound})"
    if peak > case.max_bytes:
        return False, (f"the values agree, but yours peaked at {human_bytes(peak)} of memory (resident memory growth during the call); "
                       f"the contract's bound is {bound}")
    return True, f"{text}; peak memory {human_bytes(peak)}, under the bound of {bound}"


def run_battery(battery, ref_fn, yours, timeout: float, file_name: str, outcomes: list | None = None) -> list[dict]:
    from dojo.isolate import Outcome, call_here

    rows = []
    timeouts = 0
    for case in battery.cases:
        inputs = battery.inputs(case)
        ref = call_here(ref_fn, battery.inputs(case))
        if timeouts >= MAX_TIMEOUTS:
            mine = Outcome("skipped", message=f"not run: yours already timed out {timeouts} times")
        else:
            mine = yours.call(inputs, timeout)
            timeouts += mine.status == "timeout"
        if outcomes is not None:
            outcomes.append((inputs, mine))
        agree, text, diffs = compare_case(ref, mine, battery, file_name)
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
