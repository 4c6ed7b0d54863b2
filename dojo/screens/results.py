"""A verdict as exercism's test-runner ``results.json`` (version 3), for ``dojo test --json``.

exercism's interface (docs/results.schema.json is written from it) has three statuses per test:
``pass``, ``fail`` and ``error``. Ours map onto them so:

- ``pass`` → ``pass``; ``fail`` (the answer broke the property) → ``fail``;
- ``error`` (the answer raised, escaped, or the judge failed) → ``error``;
- ``timeout`` (a call hung, or the kata was too slow) → ``error``, the message says which;
- ``skipped`` (not run: an earlier property hung) and ``incomplete`` (the run ended before it) →
  ``error``, the message says the property did not run, so nothing reads as passed.

The whole file is ``error`` (with a top-level ``message``) when no property could run: the file
does not import, breaks the NumPy-only rule, is the untouched stub, hangs on its first call,
or the judge itself failed. Everything of ours sits under one key, ``dojo``: per test the
property's id and status, the message as data, the diagnosis, the shrunk input and the time.
"""

from __future__ import annotations

import ast

from dojo.catalogue import registry
from dojo.text.messages import message, text
from dojo.screens.render import call_text, failure_text
from dojo.judge.verdict import Verdict, diagnosis_description

VERSION = 3
#: exercism caps what a test printed at 500 characters.
OUTPUT_LIMIT = 500
TRUNCATED = "\n[output truncated at 500 characters]"
EXERCISM_STATUS = {"pass": "pass", "fail": "fail", "error": "error", "timeout": "error",
                   "skipped": "error", "incomplete": "error"}


def results(verdict: Verdict, kata: registry.Kata) -> dict:
    """``results.json`` for one verdict: strict JSON (a NaN or an infinity in a message's
    parameters is the string "nan", "inf" or "-inf")."""
    return _strict(_results(verdict, kata))


def _strict(value):
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return "nan" if value != value else ("inf" if value > 0 else "-inf")
    if isinstance(value, dict):
        return {k: _strict(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_strict(v) for v in value]
    return value


def _results(verdict: Verdict, kata: registry.Kata) -> dict:
    from dojo.judge.verdict import property_titles

    top = {"kata": kata.module, "state": verdict.state, "passed": verdict.passed, "total": verdict.total,
           "seconds": round(verdict.seconds, 3), "sandbox": verdict.sandbox,
           "seed": verdict.seed}
    file_level = verdict.state in ("not-started", "cannot-import", "numpy-only", "error") or (
        verdict.state == "timed-out" and not verdict.total)
    if file_level:
        said = text(verdict.records[0]["message"]) if verdict.records else (verdict.output or text(verdict.problem))
        return {"version": VERSION, "status": "error", "message": f"{kata.module}: {said}", "tests": [],
                "dojo": {**top, "problem": verdict.problem or (verdict.records[0]["message"] if verdict.records else None)}}
    sources = _sources(kata)
    by_id = {r["id"]: r for r in verdict.records}
    tests = []
    for pid, title in property_titles(kata.module).items():
        r = by_id.pop(pid, None)
        if r is None:
            r = {"id": pid, "title": title, "status": "incomplete",
                 "message": message("results.not-run")}
        tests.append(_test(r, kata, sources.get(pid)))
    for r in by_id.values():  # a record the file does not declare (the watchdog's)
        tests.append(_test(r, kata, None))
    status = "pass" if verdict.state == "passed" else "fail"
    out = {"version": VERSION, "status": status, "message": None, "tests": tests, "dojo": top}
    if verdict.problem is not None:
        out["dojo"]["problem"] = verdict.problem
    return out


def _test(r: dict, kata: registry.Kata, source: str | None) -> dict:
    status = r.get("status", "error")
    from dojo.text import locale

    name = locale.property_title(kata.module, r["id"], r.get("title") or r["id"]) if r.get("id") else r.get("title")
    test = {"name": name, "status": EXERCISM_STATUS.get(status, "error")}
    if status != "pass":
        said = failure_text(r, kata.function)
        if status == "skipped":
            said = text(message("results.skipped", text=said.strip()))
        test["message"] = said
    output = r.get("output") or ""
    if output:
        if len(output) > OUTPUT_LIMIT:
            output = output[:OUTPUT_LIMIT - len(TRUNCATED)] + TRUNCATED
        test["output"] = output
    if source:
        test["test_code"] = source
    ours = {"property": r["id"], "status": status, "message": r.get("message")}
    for key in ("hint", "seconds", "calls", "call_count", "example"):
        if r.get(key) is not None:
            ours[key] = r[key]
    if r.get("calls"):
        ours["failing_call"] = call_text(kata.function, r["calls"][0])
    if r.get("diagnosis"):
        ours["diagnosis"] = {"id": r["diagnosis"], "description": diagnosis_description(r["diagnosis"]),
                             "behaves_like": r.get("behaves_like") or [], "unchecked": r.get("unchecked") or []}
    test["dojo"] = ours
    return test


def _sources(kata: registry.Kata) -> dict[str, str]:
    """Each property's source, as exercism's ``test_code``."""
    try:
        source = kata.test_path.read_text(encoding="utf-8")
        tree = ast.parse(source)
    except (OSError, SyntaxError, ValueError):
        return {}
    found = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
            start = min([d.lineno for d in node.decorator_list] + [node.lineno])
            lines = source.splitlines()[start - 1:node.end_lineno]
            found[node.name] = "\n".join(lines)
    return found
