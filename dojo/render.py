"""Terminal rendering: colour when it helps, plain text when piped or NO_COLOR is set."""

from __future__ import annotations

import ast
import math
import re
from pathlib import Path

from dojo.env import Env
from dojo.verdict import diagnosis_description, properties_of, unchecked_message  # noqa: F401 (properties_of: re-exported)

CODES = {"red": "31", "green": "32", "yellow": "33", "blue": "34", "magenta": "35",
         "cyan": "36", "bold": "1", "dim": "2"}


def paint(env: Env, text: str, *styles: str) -> str:
    if not env.color or not styles:
        return text
    return "".join(f"\033[{CODES[s]}m" for s in styles) + text + "\033[0m"


STATE_LABELS = {
    "passed": ("passed", "green"),
    "failing": ("failing", "red"),
    "not-started": ("not started", "dim"),
    "cannot-import": ("cannot import", "red"),
    "numpy-only": ("breaks NumPy-only rule", "red"),
    "timed-out": ("timed out", "red"),
    "incomplete": ("stopped early", "red"),
    "error": ("judge error", "magenta"),
}


#: What is true of a file whose saved verdict is not about it (``dojo.state.NOW_STATES``): a
#: message id and a colour.
NOW_LABELS = {
    "changed": ("status.changed", "yellow"),
    "unjudged": ("status.unjudged", "yellow"),
    "missing": ("status.missing", "red"),
    "unreadable": ("status.unreadable", "red"),
}


def status_text(env: Env, verdict: dict | None) -> str:
    if not verdict:
        return paint(env, "not started", "dim")
    state = verdict.get("state", "error")
    if state in NOW_LABELS:
        from dojo.messages import message, text

        key, colour = NOW_LABELS[state]
        return paint(env, text(message(key)), colour)
    label, colour = STATE_LABELS.get(state, (state, "magenta"))
    if state in ("failing", "passed"):
        label = f"{label}: {pass_count(verdict.get('passed'), verdict.get('total'))}"
    return paint(env, label, colour)


def pass_count(passed, total) -> str:
    """The one wording of a pass count, everywhere: ``9 of 13 properties pass``."""
    return f"{passed} of {total} propert{'y passes' if total == 1 else 'ies pass'}"


def table(rows: list[list[str]], headers: list[str]) -> list[str]:
    """Left-aligned columns; widths ignore colour codes."""
    def width(s: str) -> int:
        return len(re.sub(r"\033\[[0-9;]*m", "", s))

    cols = [max([width(h)] + [width(r[i]) for r in rows]) for i, h in enumerate(headers)]
    def line(cells):
        return "  ".join(c + " " * (cols[i] - width(c)) for i, c in enumerate(cells)).rstrip()
    return [line(headers), line(["─" * c for c in cols])] + [line(r) for r in rows]


def duration(seconds) -> str:
    """``m:ss``; anything that is not a finite number of seconds (a hand-edited file) is —."""
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not math.isfinite(seconds):
        return "—"
    seconds = int(round(seconds))
    return f"{seconds // 60}:{seconds % 60:02d}"


def docstring_of(path: Path, function: str) -> str:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == function:
            return ast.get_docstring(node) or ""
    return ""


def signature_of(path: Path, function: str) -> str:
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == function:
            return f"def {function}({ast.unparse(node.args)})"
    return f"def {function}(...)"


def contract(env: Env, doc: str) -> list[str]:
    """The docstring, with its section headings (a line over dashes) in bold."""
    lines = doc.splitlines()
    out = []
    for i, ln in enumerate(lines):
        if set(ln.strip()) == {"-"}:
            continue
        if i + 1 < len(lines) and lines[i + 1].strip() and set(lines[i + 1].strip()) == {"-"}:
            out.append(paint(env, ln, "bold"))
        else:
            out.append(ln)
    return out


#: Said once per process: the sandbox this machine cannot give.
_SANDBOX_SAID = []


def sandbox_line(env: Env, sandbox: dict | None) -> str | None:
    """'sandbox: process only …' the first time a verdict comes from a worker without Landlock."""
    if not sandbox or sandbox.get("landlock") or _SANDBOX_SAID:
        return None
    _SANDBOX_SAID.append(True)
    return paint(env, "  sandbox: process only", "yellow") + (
        " (no Landlock here): your code runs in its own process,\n"
        "  but could reach files the judge uses; docs/hostile.md says what is left open.")


def failure_text(record: dict, function: str, header: str | None = None) -> str:
    """A failing property as a candidate reads it, from its record: what went wrong, the
    hint (unless the diagnosis names the bug), the diagnosis, the input. ``header``: a first
    line (plain pytest's report names the kata and property there)."""
    from dojo.messages import message, text

    described = diagnosis_description(record.get("diagnosis"))
    what = text(record.get("message"))
    if record.get("at"):
        what += "\n" + text(record["at"])
    if record.get("hint") and not described:
        what += "\n" + text(record["hint"])
    lines = ([header, ""] if header else []) + [_indent(what)]
    if described:
        said = text(message("diagnosis", description_text=described))
        if record.get("unchecked"):  # the contract's bad inputs it lets through (dojo/diagnosis.py)
            said += "\n" + text(unchecked_message(record["unchecked"]))
        lines += ["", _indent(said)]
    label = record.get("inputs_label")
    calls = record.get("calls") or []
    if label and calls:
        count = record.get("call_count", len(calls))
        if count > 1:
            label_text = text(message("input.shrunk-calls", count=count))
        else:
            label_text = text(message(label))
        lines += ["", f"  {label_text}"]
        for i, call in enumerate(calls[:2], 1):
            shown = call_text(function, call)
            if count > 1:
                shown = text(message("input.call", number=i, call=shown))
            lines.append(_indent(shown, 4))
        if count > 2:
            lines.append("    " + text(message("input.more-calls", count=count - 2)))
    elif label and record.get("example"):
        lines += ["", f"  {text(message(label))}", _indent(record["example"], 4)]
    if header and record.get("node"):
        lines += ["", f"  ({record['node']})"]
    return "\n".join(lines)


def call_text(function: str, call: dict) -> str:
    """``function(name=value, …)``, one argument a line, from a call's data."""
    parts = []
    for name, value in call.items():
        shown = value.get("repr", "") if isinstance(value, dict) else str(value)
        parts.append(f"{name}=" + shown.replace("\n", "\n" + " " * (len(name) + 1)))
    return f"{function}(\n" + _indent(",\n".join(parts), 4) + "\n)"


def _indent(text: str, n: int = 2) -> str:
    pad = " " * n
    return "\n".join(pad + ln if ln else ln for ln in text.splitlines())


def verdict_lines(env: Env, verdict, kata, shown_file: str, show_details: bool = True) -> list[str]:
    """A verdict a nervous candidate can read: each property ✓ or ✗, then what went wrong."""
    from dojo.messages import text

    v = verdict
    head = paint(env, f"{kata.module}", "bold") + f" — {kata.title}   ({shown_file})"
    out = [head]
    said = sandbox_line(env, getattr(v, "sandbox", None))
    if said:
        out += said.splitlines()
    if v.state == "not-started":
        out.append(paint(env, "  not started: ", "yellow") + f"{kata.function}() still raises NotImplementedError.")
        out.append(f"  Read the contract with `dojo show {kata.module}`, then write it in {shown_file}.")
        return out
    if v.state in ("cannot-import", "numpy-only") or (v.state == "timed-out" and not v.total):
        label = STATE_LABELS[v.state][0]
        message = text(v.records[0]["message"]) if v.records else text(v.problem)
        out.append(paint(env, f"  {label}: ", "red") + message.splitlines()[0])
        out += ["  " + ln for ln in message.splitlines()[1:]]
        return out
    if v.state == "error":
        out.append(paint(env, "  the judge itself failed (not your fault). Its output:", "magenta"))
        out += ["    " + ln for ln in (v.output or text(v.problem)).splitlines()]
        return out
    for r in v.records:
        if r["status"] == "pass":
            out.append(paint(env, "  ✓ ", "green") + r["title"])
        elif r["status"] == "skipped":
            out.append(paint(env, "  - ", "dim") + r["title"] + paint(env, "  (skipped)", "dim"))
        else:
            out.append(paint(env, "  ✗ ", "red") + r["title"])
    if v.problem and v.state in ("incomplete", "timed-out") and show_details:
        out.append("")
        out.append(paint(env, "The judge did not finish:", "red", "bold"))
        out += ["  " + ln for ln in text(v.problem).splitlines()]
        out += ["  " + ln for ln in v.output.splitlines()]
    failures = v.failures
    if failures and show_details:
        first = failures[0]
        out.append("")
        out.append(paint(env, "First failure:", "red", "bold"))
        out += ["", *failure_text(first, kata.function).splitlines(), ""]
        if len(failures) > 1:
            out.append(paint(env, f"  (+{len(failures) - 1} more failing properties; fix this one first)", "dim"))
    if v.state == "passed":
        out.append(paint(env, f"Passed: {pass_count(v.passed, v.total)}.", "green", "bold") + f"  ({v.seconds:.1f} s)")
    else:
        out.append(f"{pass_count(v.passed, v.total)}.  ({v.seconds:.1f} s)")
    return out
