"""What the screens say, as lines: a verdict, a status, a contract. The layout (the width,
wrapping, tables, colour) is dojo/text/screen.py's: these return lines (``screen.Line``: a ``str``
that also knows its runs and hang) and never measure or wrap."""

from __future__ import annotations

import ast
import math
import re
from pathlib import Path

from dojo.text import cjk, screen
from dojo.catalogue.env import Env
from dojo.text.screen import CODES, keep, line  # noqa: F401 (re-exported)
from dojo.judge.verdict import diagnosis_description, properties_of, unchecked_message  # noqa: F401 (properties_of: re-exported)


def paint(env: Env, text: str, *styles: str) -> str:
    """``text`` in colour when the output has colour (a ``str``; ``screen.line`` keeps runs)."""
    return screen.paint(env.color, text, *styles)


class _Labels(dict):
    """state -> (label, colour), the label in the screen's language when it is looked up (the
    language is chosen after this module is imported); stored as (message id, colour)."""

    def __getitem__(self, state):
        from dojo.text.messages import t

        key, colour = super().__getitem__(state)
        return t(key), colour

    def get(self, state, default=None):
        return self[state] if state in self else default

    def items(self):
        return [(k, self[k]) for k in self]

    def values(self):
        return [self[k] for k in self]


#: A verdict's state as it is labelled: (label, colour).
STATE_LABELS = _Labels({
    "passed": ("state.passed", "green"),
    "failing": ("state.failing", "red"),
    "not-started": ("state.not-started", "dim"),
    "cannot-import": ("state.cannot-import", "red"),
    "numpy-only": ("state.numpy-only", "red"),
    "timed-out": ("state.timed-out", "red"),
    "incomplete": ("state.incomplete", "red"),
    "error": ("state.error", "magenta"),
})


#: What is true of a file whose saved verdict is not about it (``dojo.state.state.NOW_STATES``): a
#: message id and a colour.
NOW_LABELS = {
    "changed": ("status.changed", "yellow"),
    "unjudged": ("status.unjudged", "yellow"),
    "missing": ("status.missing", "red"),
    "unreadable": ("status.unreadable", "red"),
}


def status_text(env: Env, verdict: dict | None, short: bool = False) -> screen.Line:
    """A kata's state in a few words: ``failing: 9 of 17 properties pass``; ``short``: for the
    table on a narrow terminal (``failing 9/17``)."""
    from dojo.text.messages import ENGLISH, message, text

    if not verdict:
        return line(env, STATE_LABELS["not-started"])
    state = verdict.get("state", "error")
    if state in NOW_LABELS:
        key, colour = NOW_LABELS[state]
        return line(env, (text(message(key)), colour))
    label, colour = STATE_LABELS.get(state, (state, "magenta"))
    if state in ("failing", "passed"):
        passed, total = verdict.get("passed"), verdict.get("total")
        label = (text(message("status.short.count", label=label, passed=passed, total=total)) if short
                 else text(message("status.count", label=label, count_text=pass_count(passed, total))))
    elif short and f"status.short.{state}" in ENGLISH:
        label = text(message(f"status.short.{state}"))
    return line(env, (label, colour))


def pass_count(passed, total) -> str:
    """The one wording of a pass count, everywhere: ``9 of 13 properties pass``."""
    from dojo.text.messages import t

    return t("count.pass.one" if total == 1 else "count.pass", passed=passed, total=total)


def table(rows: list[list[str]], headers: list[str]) -> list[str]:
    """Left-aligned columns, unwrapped (widths in terminal cells, colour codes ignored). A
    screen prints a table with ``screen.table``, which fits it to the terminal."""
    return screen._plain_table(headers, rows, 0)


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


def contract(env: Env, doc: str, indent: int = 0) -> list[screen.Line]:
    """The docstring, indented, with its section headings (a line over dashes) in bold. Its
    lines are the author's; on a terminal too narrow for them, each paragraph, list item and
    "name : meaning" entry is one line that the screen wraps under its own text (``reflow``)."""
    lines = doc.splitlines()
    width = screen.columns(env)
    if width is not None and max((screen.cell_len(ln) for ln in lines), default=0) + indent > width:
        return [line(env, " " * indent, (text, "bold" if heading else ""), hang=indent + hang) if text else line(env)
                for text, hang, heading in reflow(lines)]
    out = []
    pad = " " * indent
    for i, ln in enumerate(lines):
        if set(ln.strip()) == {"-"}:
            continue
        if not ln:
            out.append(line(env))
        elif i + 1 < len(lines) and lines[i + 1].strip() and set(lines[i + 1].strip()) == {"-"}:
            out.append(line(env, pad, (ln, "bold")))
        else:
            out.append(line(env, pad + ln))
    return out


_ITEM = re.compile(r"^(\s*)([-*•] |\S[^:]*?\s:\s+)")  # "- a bullet", "x      : an entry"


def reflow(lines: list[str]) -> list[tuple[str, int, bool]]:
    """A docstring's lines as logical lines: (text, hang, a heading?). A line joins the one
    before when it continues its text: indented to where that text starts, after a line long
    enough to have been broken at the author's width, and neither a new item nor a shaped line
    (aligned with runs of spaces: a formula, a table)."""
    out: list[list] = []  # [text, hang, heading, open to a continuation]
    previous = ""
    for i, ln in enumerate(lines):
        stripped = ln.strip()
        if stripped and set(stripped) == {"-"}:
            continue
        if not stripped:
            out.append(["", 0, False, False])
            previous = ""
            continue
        lead = len(ln) - len(ln.lstrip(" "))
        item = _ITEM.match(ln)
        shaped = "  " in stripped
        last = out[-1] if out else None
        if i + 1 < len(lines) and lines[i + 1].strip() and set(lines[i + 1].strip()) == {"-"}:
            out.append([ln, lead, True, False])
        elif (last is not None and last[3] and not item and not shaped and lead == last[1]
              and cjk.cells(previous) >= 60):
            chinese = cjk.wide(last[0][-1]) and cjk.wide(stripped[0])  # joins without a space
            last[0] += ("" if chinese else " ") + stripped
        elif item:
            out.append([ln, len(item.group(0)), False, True])
        else:
            out.append([ln, lead + (4 if shaped else 0), False, not shaped])
        previous = ln
    return [(text, hang, heading) for text, hang, heading, _ in out]


#: Said once per process: the sandbox this machine cannot give.
_SANDBOX_SAID = []


def sandbox_line(env: Env, sandbox: dict | None) -> list[screen.Line] | None:
    """'sandbox: process only …' the first time a verdict comes from a worker without Landlock."""
    if not sandbox or sandbox.get("landlock") or _SANDBOX_SAID:
        return None
    from dojo.text.messages import t

    _SANDBOX_SAID.append(True)
    return [line(env, ("  " + t("verdict.sandbox.label"), "yellow"), t("verdict.sandbox.why")),
            line(env, "  " + t("verdict.sandbox.more"))]


def failure_text(record: dict, function: str, header: str | None = None, glue: bool = False) -> str:
    """A failing property as a candidate reads it, from its record: what went wrong, the
    hint (unless the diagnosis names the bug), the diagnosis, the input. ``header``: a first
    line (plain pytest's report names the kata and property there). ``glue``: for a screen
    that wraps (``messages.text``)."""
    from dojo.text.messages import message, text

    described = diagnosis_description(record.get("diagnosis"))
    what = text(record.get("message"), glue=glue)
    if record.get("at"):
        what += "\n" + text(record["at"], glue=glue)
    if record.get("hint") and not described:
        what += "\n" + text(record["hint"], glue=glue)
    lines = ([header, ""] if header else []) + [_indent(what)]
    if described:
        said = text(message("diagnosis", description_text=described))
        if record.get("unchecked"):  # the contract's bad inputs it lets through (dojo/judge/diagnosis.py)
            module = str(record.get("diagnosis")).split("/")[0]
            said += "\n" + text(unchecked_message(record["unchecked"], module))
        lines += ["", _indent(said)]
    label = record.get("inputs_label")
    calls = record.get("calls") or []
    if label and calls:
        count = record.get("call_count", len(calls))
        if count > 1:
            label_text = text(message(f"{label}-calls", count=count))
        else:
            label_text = text(message(label))
        lines += ["", f"  {label_text}"]
        for i, call in enumerate(calls[:2], 1):  # past two calls: the first and the last
            number = count if i == 2 and count > 2 else i
            if number == count > 2:
                lines.append("    " + text(message("input.more-calls", count=count - 2)))
            shown = call_text(function, call)
            if count > 1:
                shown = text(message("input.call", number=number, call=shown))
            lines.append(_indent(shown, 4))
    elif label and record.get("example"):
        lines += ["", f"  {text(message(label))}", _indent(record["example"], 4)]
    if header and record.get("node"):
        lines += ["", f"  ({record['node']})"]
    return "\n".join(lines)


def call_text(function: str, call: dict) -> str:
    """``function(name=value, …)``, one argument a line, from a call's data."""
    from dojo.text.messages import text

    parts = []
    for name, value in call.items():
        shown = value.get("repr", "") if isinstance(value, dict) else str(value)
        if isinstance(value, dict) and value.get("layout"):  # not in C order: the values alone would not say
            shown += "\n" + text(value["layout"])
        first, *rest = shown.split("\n")  # a blank line between an array's blocks stays empty
        parts.append(f"{name}=" + "\n".join([first, *(" " * (len(name) + 1) + ln if ln.strip() else ""
                                                     for ln in rest)]))
    return f"{function}(\n" + _indent(",\n".join(parts), 4) + "\n)"


def _indent(text: str, n: int = 2) -> str:
    pad = " " * n
    return "\n".join(pad + ln if ln.strip() else "" for ln in text.splitlines())


#: Lines of what the candidate printed that a verdict shows under its first failure (the record
#: keeps at most 500 characters: dojo/screens/results.py OUTPUT_LIMIT)
PRINTED_LINES = 10


def printed_lines(env: Env, printed: str, module: str) -> list[screen.Line]:
    """What the candidate's code printed for the failing input, as pytest shows a test's output:
    at most PRINTED_LINES lines, then where the rest is."""
    from dojo.text.messages import t
    from dojo.worker.answers import visible

    shown = visible(printed).rstrip("\n").split("\n") if printed.strip() else []
    if not shown:
        return []
    out = [line(env, ("  " + t("verdict.printed"), "bold"))]
    out += [line(env, "    " + ln) for ln in shown[:PRINTED_LINES]]
    if len(shown) > PRINTED_LINES:
        out.append(line(env, ("    " + t("verdict.printed-more", count=len(shown) - PRINTED_LINES,
                                         command=keep(f"`pytest tests/test_{module}.py`")), "dim"), hang=4))
    return out + [line(env)]


def verdict_lines(env: Env, verdict, kata, shown_file: str, show_details: bool = True) -> list[screen.Line]:
    """A verdict a nervous candidate can read: each property ✓ or ✗, then what went wrong."""
    from dojo.text import locale
    from dojo.text.messages import t, text

    v = verdict
    # too wide for the terminal, the title and the file continue under the title, not at column 0
    out = [line(env, (kata.module, "bold"), f" — {locale.kata_title(kata)}   ({shown_file})",
                hang=screen.cell_len(kata.module) + 3)]
    said = sandbox_line(env, getattr(v, "sandbox", None))
    if said:
        out += said
    if v.state == "not-started":
        out.append(line(env, (f"  {STATE_LABELS['not-started'][0]}{t('punct.colon')}", "yellow"),
                        t("verdict.not-started.why", function=kata.function), hang=4))
        out.append(line(env, "  " + t("verdict.not-started.next", command=keep(f"`{locale.command('show', kata.module)}`"),
                                      file=shown_file), hang=4))
        return out
    if v.state in ("cannot-import", "numpy-only") or (v.state == "timed-out" and not v.total):
        label = STATE_LABELS[v.state][0]
        message = text(v.records[0]["message"], glue=True) if v.records else text(v.problem, glue=True)
        out.append(line(env, (f"  {label}{t('punct.colon')}", "red"), message.splitlines()[0], hang=4))
        out += [line(env, "  " + ln) for ln in message.splitlines()[1:]]
        return out
    if v.state == "error":
        out.append(line(env, ("  " + t("verdict.judge-failed"), "magenta")))
        out += [line(env, "    " + ln) for ln in (v.output or text(v.problem)).splitlines()]
        return out
    marks = {"pass": ("  ✓ ", "green"), "skipped": ("  - ", "dim")}
    for r in v.records:
        mark = marks.get(r["status"], ("  ✗ ", "red"))
        skipped = [(t("verdict.skipped"), "dim")] if r["status"] == "skipped" else []
        out.append(line(env, mark, locale.property_title(kata.module, r["id"], r["title"]), *skipped, hang=4))
    if v.problem and v.state in ("incomplete", "timed-out") and show_details:
        out.append(line(env))
        out.append(line(env, (t("verdict.did-not-finish"), "red bold")))
        out += [line(env, "  " + ln) for ln in text(v.problem, glue=True).splitlines()]
        out += [line(env, "  " + ln) for ln in v.output.splitlines()]
    failures = v.failures
    if failures and show_details:
        first = v.first_failure
        out.append(line(env))
        out.append(line(env, (t("verdict.first-failure"), "red bold")))
        out += [line(env), *(line(env, ln) for ln in failure_text(first, kata.function, glue=True).splitlines()),
                line(env)]
        out += printed_lines(env, first.get("output") or "", kata.module)
        if len(failures) > 1:
            out.append(line(env, ("  " + t("verdict.more-failing", count=len(failures) - 1), "dim")))
    seed = getattr(v, "seed", None)
    seconds = (t("verdict.seconds-seed", seconds=f"{v.seconds:.1f}", seed=seed) if seed is not None
               else t("verdict.seconds", seconds=f"{v.seconds:.1f}"))
    if failures and seed is not None and show_details:
        out.append(line(env, ("  " + t("verdict.replay", command=keep(f"`dojo test {kata.module} --seed {seed}`")),
                              "dim"), hang=4))
    if v.state == "passed":
        out.append(line(env, (t("verdict.passed", count_text=pass_count(v.passed, v.total)), "green bold"), seconds))
    else:
        out.append(line(env, t("verdict.failing", count_text=pass_count(v.passed, v.total)) + seconds))
    return out
